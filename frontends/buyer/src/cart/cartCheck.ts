// Each cart line against the product as it is now (issue 11): the farmer may have changed the price or unit,
// sold out, moved to the next harvest, or removed the product since the buyer added it. Pure rules; the
// page fetches the products (useCartCheck) and renders what these say.
import { formatNaira, statusOf, unitOf } from '@tuber/ui';
import { tr, type T } from '../i18n/t.js';
import { priceWords, stockWords, unitText } from '../i18n/words.js';
import type { Product, SellingUnit } from '../catalog/types.js';
import { lineTotalKobo, priceKobo, type Cart, type CartItem } from './cart.js';

/** What fetching a line's product gave: the product, 404 (gone), or no usable answer. */
export type ProductLookup = { kind: 'found'; product: Product } | { kind: 'gone' } | { kind: 'failed'; message: string };

export type LineCheck =
  | { state: 'checking' }
  /** Could not be checked (network, server error): the line keeps the price it was added at. */
  | { state: 'unchecked'; message: string }
  | { state: 'ok' }
  | { state: 'price-changed'; was: { price: number; unit: SellingUnit }; now: { price: number; unit: SellingUnit } }
  | { state: 'sold-out' }
  /** `text` in the language of the moment it was checked; the page words it again from `next_harvest`. */
  | { state: 'next-harvest'; text: string; next_harvest?: string | null }
  | { state: 'gone' };

export function checkLine(item: CartItem, lookup: ProductLookup | undefined): LineCheck {
  if (!lookup) return { state: 'checking' };
  if (lookup.kind === 'gone') return { state: 'gone' };
  if (lookup.kind === 'failed') return { state: 'unchecked', message: lookup.message };
  const { product } = lookup;
  const status = statusOf(product);
  if (status === 'sold_out') return { state: 'sold-out' };
  if (status === 'next_harvest') {
    const text = stockWords(product).text ?? tr('stock.next-harvest-soon');
    return product.next_harvest ? { state: 'next-harvest', text, next_harvest: product.next_harvest } : { state: 'next-harvest', text };
  }
  const unit = unitOf(product);
  if (priceKobo(item) !== priceKobo(product) || item.unit !== unit) {
    return { state: 'price-changed', was: { price: item.price, unit: item.unit }, now: { price: product.price, unit } };
  }
  return { state: 'ok' };
}

/** A line the buyer cannot have now (sold out, next harvest, gone) stays in the cart but not in the totals. */
export const countsInTotal = (check: LineCheck): boolean =>
  check.state === 'ok' || check.state === 'checking' || check.state === 'unchecked' || check.state === 'price-changed';

/** The line's price in kobo as the totals use it: the current price when it changed. */
export function currentPriceKobo(item: CartItem, check: LineCheck): number {
  return check.state === 'price-changed' ? priceKobo({ price: check.now.price }) : priceKobo(item);
}

export const currentLineTotalKobo = (item: CartItem, check: LineCheck): number =>
  check.state === 'price-changed' ? currentPriceKobo(item, check) * item.quantity : lineTotalKobo(item);

export interface CheckedSummary {
  /** Sum of the quantities of the lines that count. */
  totalItems: number;
  /** Sum of their line totals at current prices, in kobo. */
  totalKobo: number;
  /** Lines left out of the totals (sold out, next harvest, gone). */
  leftOut: number;
  /** Still being checked. */
  checking: number;
}

export function summarizeChecked(cart: Cart, checks: ReadonlyMap<string, LineCheck>): CheckedSummary {
  const summary: CheckedSummary = { totalItems: 0, totalKobo: 0, leftOut: 0, checking: 0 };
  for (const item of cart) {
    const check = checks.get(item.product_id) ?? { state: 'checking' };
    if (check.state === 'checking') summary.checking += 1;
    if (!countsInTotal(check)) {
      summary.leftOut += 1;
      continue;
    }
    summary.totalItems += item.quantity;
    summary.totalKobo += currentLineTotalKobo(item, check);
  }
  return summary;
}

/** "Price changed: was ₦1,234.50 per kg, now ₦1,500.00 per kg" (the units only when they differ). */
export function priceChangeText(check: Extract<LineCheck, { state: 'price-changed' }>, t: T = tr): string {
  const { was, now } = check;
  if (was.unit === now.unit) {
    return t('cart.price-changed', { was: formatNaira(priceKobo(was)), now: formatNaira(priceKobo(now)), unit: unitText(now.unit, t) });
  }
  return t('cart.price-changed-unit', { was: priceWords(was.price, was.unit, t), now: priceWords(now.price, now.unit, t) });
}

/** "Next harvest from 12 Jan 2027" for a line waiting for its harvest. */
export const nextHarvestText = (check: Extract<LineCheck, { state: 'next-harvest' }>, t: T = tr): string =>
  stockWords({ status: 'next_harvest', next_harvest: check.next_harvest ?? null, kg: 0 }, t).text ?? t('stock.next-harvest-soon');

/** Runs `task` over `items` with at most `limit` in flight (the cart checks a few products at a time). */
export async function mapWithLimit<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
