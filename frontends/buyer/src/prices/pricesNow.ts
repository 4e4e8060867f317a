// The price guide's figures for the buyer's markers (issue 27, docs/adr/0072). The feed's cards share every tuber's
// city-wide figures from ONE request per page view (GET /api/catalog/prices/now), given to them by a context; the
// product page asks for its tuber's (GET /api/catalog/prices/{tuber}/now). Public routes. A failed request shows
// no marker and breaks nothing.
import { createContext, useContext, useEffect, useState } from 'react';
import { TUBER_TYPES, tuberSlug, type PriceNow, type PriceNowAll, type TuberType } from '@tuber/contracts';
import { useApi, type ApiClient } from '@tuber/shell-contract';
import { unitOf } from '@tuber/ui';
import type { Product } from '../catalog/types.js';

export const PRICES_NOW_PATH = '/catalog/prices/now';
export const priceNowPath = (tuber: TuberType): string => `/catalog/prices/${tuberSlug(tuber)}/now`;

/** A product's tuber as the price guide knows it ("Sweet Potato" → sweet potato); undefined for anything else. */
export const guideTuber = (type: string): TuberType | undefined => TUBER_TYPES.find((tuber) => tuber === type.trim().toLowerCase());

/** The product's naira per kg (a product from before units is sold per kg); undefined when not known. */
export function productPerKg(product: Pick<Product, 'price' | 'unit' | 'price_per_kg'>): number | undefined {
  if (typeof product.price_per_kg === 'number') return product.price_per_kg;
  return unitOf(product) === 'kg' && typeof product.price === 'number' ? product.price : undefined;
}

/**
 * The answer for every tuber, kept as long as the catalog lets it be cached (max-age=60): the cards of one page
 * view (and the shell's first-load prefetch, and React's second mount in development) share one request.
 */
const KEPT_MS = 60_000;
let kept: { answer: Promise<PriceNowAll>; at: number } | null = null;

/** Every tuber's city-wide figures (GET /api/catalog/prices/now), one request shared while it may be cached. */
export function pricesNowAll(api: ApiClient): Promise<PriceNowAll> {
  if (kept && Date.now() - kept.at < KEPT_MS) return kept.answer;
  const answer = api.get<PriceNowAll>(PRICES_NOW_PATH);
  // A failure is not kept: the next page view asks again.
  answer.catch(() => {
    if (kept?.answer === answer) kept = null;
  });
  kept = { answer, at: Date.now() };
  return answer;
}

/** Starts the figures for every tuber while the page renders (the feed's first-load prefetch). */
export function prefetchPricesNow(api: ApiClient): void {
  pricesNowAll(api).catch(() => undefined);
}

export type PricesByTuber = ReadonlyMap<string, PriceNow>;

/** Every tuber's figures, fetched once for the page that calls it (the feed, a farm page); undefined until in, or failed. */
export function usePricesNowAll(): PricesByTuber | undefined {
  const api = useApi();
  const [prices, setPrices] = useState<PricesByTuber>();
  useEffect(() => {
    let current = true;
    pricesNowAll(api)
      .then((all) => {
        if (!current || !Array.isArray(all?.items)) return;
        setPrices(new Map(all.items.map((now) => [now.tuber, now])));
      })
      .catch(() => {
        // No figures, no markers: the cards stay as they were.
      });
    return () => {
      current = false;
    };
  }, [api]);
  return prices;
}

/** The figures the page's cards share (undefined outside a page that fetched them). */
export const PricesNowContext = createContext<PricesByTuber | undefined>(undefined);

/** One tuber's figures from the page's shared answer. */
export function useSharedPriceNow(tuberType: string): PriceNow | undefined {
  const prices = useContext(PricesNowContext);
  const tuber = guideTuber(tuberType);
  return tuber ? prices?.get(tuber) : undefined;
}

/** One tuber's city-wide figures (GET /api/catalog/prices/{tuber}/now), for the product page. */
export const fetchPriceNow = (api: ApiClient, tuber: TuberType): Promise<PriceNow> => api.get<PriceNow>(priceNowPath(tuber));

/** One tuber's city-wide figures, for the product page; undefined while they load, or when they could not be had. */
export function usePriceNow(tuberType: string): PriceNow | undefined {
  const api = useApi();
  const tuber = guideTuber(tuberType);
  const [answer, setAnswer] = useState<{ tuber: TuberType; now: PriceNow } | null>(null);
  useEffect(() => {
    if (!tuber) return;
    let current = true;
    fetchPriceNow(api, tuber)
      .then((now) => {
        if (current && now && typeof now === 'object') setAnswer({ tuber, now });
      })
      .catch(() => {
        // No figures, no marker.
      });
    return () => {
      current = false;
    };
  }, [api, tuber]);
  return answer && answer.tuber === tuber ? answer.now : undefined;
}
