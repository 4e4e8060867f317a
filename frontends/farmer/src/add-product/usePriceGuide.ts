// This week's figures for the tuber at the price field (issue 27, docs/adr/0072): GET
// /api/catalog/prices/{tuber}/now?location=<the farm's location> (public; the catalog answers the city's figures
// when the place has too few of its own). A failed request shows nothing: the guide never stands in the way.
import { useEffect, useState } from 'react';
import { TUBER_TYPES, tuberSlug, type PriceNow, type TuberType } from '@tuber/contracts';
import { useApi, type ApiClient } from '@tuber/shell-contract';

/** As long as the catalog lets the answer be cached (max-age=60): switching tubers back and forth asks once. */
const KEPT_MS = 60_000;
const kept = new Map<string, { at: number; answer: Promise<PriceNow> }>();

const asTuber = (type: string): TuberType | undefined => TUBER_TYPES.find((tuber) => tuber === type.trim().toLowerCase());

/** The catalog's path for a tuber's figures at a place. */
export function priceNowPath(tuber: TuberType, location: string | undefined): string {
  const query = location ? `?location=${encodeURIComponent(location.slice(0, 100))}` : '';
  return `/catalog/prices/${tuberSlug(tuber)}/now${query}`;
}

/** The figures at `path` (priceNowPath), one request per path while the answer may be cached. */
export function priceNow(api: ApiClient, path: string): Promise<PriceNow> {
  const hit = kept.get(path);
  if (hit && Date.now() - hit.at < KEPT_MS) return hit.answer;
  const answer = api.get<PriceNow>(path);
  answer.catch(() => kept.delete(path));
  kept.set(path, { at: Date.now(), answer });
  return answer;
}

/** The figures for `tuberType` (a tuber of the product, '' before one is chosen), or undefined: none to show yet. */
export function usePriceGuide(tuberType: string, location: string | undefined): PriceNow | undefined {
  const api = useApi();
  const tuber = asTuber(tuberType);
  const path = tuber ? priceNowPath(tuber, location) : null;
  const [answer, setAnswer] = useState<{ path: string; now: PriceNow } | null>(null);

  useEffect(() => {
    if (!path) return;
    let current = true;
    priceNow(api, path)
      .then((now) => {
        if (current && now && typeof now === 'object') setAnswer({ path, now });
      })
      .catch(() => {
        // The guide is a help, not a part of the form: no figures, no line.
      });
    return () => {
      current = false;
    };
  }, [api, path]);

  // Another tuber's (or place's) figures are never shown for this one while its own are on the way.
  return answer && answer.path === path ? answer.now : undefined;
}
