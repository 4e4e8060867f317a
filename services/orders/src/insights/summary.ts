// Turns the per-(product, day) count documents into the Insights answer: totals, one row per product
// and a daily series with every day of the window present (zeros included), oldest first.
import { INSIGHT_COUNTS, type InsightCount, type Insights } from '@tuber/contracts';
import { windowDays, type InsightWindow } from './days.js';

export type Counts = Record<InsightCount, number>;

/** What one stored day document contributes (counts not yet written are absent). */
export interface DayRecord {
  product_id: string;
  day: string;
  counts: Partial<Record<InsightCount, number | null | undefined>>;
}

export interface ProductName {
  product_id: string;
  product_name: string;
  /** False for a product deleted in the catalog: it gets a row only if it counted something in the window. */
  listed?: boolean;
}

/** Shown for a counted product the projection does not know (any more). */
export const REMOVED_PRODUCT_NAME = 'A product no longer listed';

export function zeroCounts(): Counts {
  return Object.fromEntries(INSIGHT_COUNTS.map((k) => [k, 0])) as Counts;
}

/** Adds `more` into `into` (missing, negative or non-integer figures count as nothing). */
export function addCounts(into: Counts, more: DayRecord['counts']): Counts {
  for (const key of INSIGHT_COUNTS) {
    const value = more[key];
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) into[key] += value;
  }
  return into;
}

const activityOf = (counts: Counts) => INSIGHT_COUNTS.reduce((sum, key) => sum + counts[key], 0);

/**
 * The Insights answer for one farmer: `products` are the farmer's products as the projection knows
 * them (each listed one gets a row, zeros included, so a product nobody looked at shows as such;
 * a deleted one only if it counted something in the window); `records`
 * outside the window are ignored. Products are ordered by everything counted (most first), then
 * by name, so the busiest lead on a phone.
 */
export function summarise(input: { days: InsightWindow; today: string; records: DayRecord[]; products: ProductName[] }): Insights {
  const series = windowDays(input.today, input.days);
  const daily = new Map(series.map((day) => [day, zeroCounts()]));
  const names = new Map(input.products.map((p) => [p.product_id, p.product_name]));
  const listed = new Set(input.products.filter((p) => p.listed !== false).map((p) => p.product_id));
  const perProduct = new Map<string, Counts>([...listed].map((id) => [id, zeroCounts()]));
  const totals = zeroCounts();

  for (const record of input.records) {
    const day = daily.get(record.day);
    if (!day) continue;
    addCounts(day, record.counts);
    addCounts(totals, record.counts);
    let row = perProduct.get(record.product_id);
    if (!row) perProduct.set(record.product_id, (row = zeroCounts()));
    addCounts(row, record.counts);
  }

  const products = [...perProduct]
    .map(([product_id, counts]) => ({ product_id, product_name: names.get(product_id) ?? REMOVED_PRODUCT_NAME, counts }))
    // A removed product that counted nothing in the window says nothing.
    .filter((row) => listed.has(row.product_id) || activityOf(row.counts) > 0)
    .sort(
      (a, b) =>
        activityOf(b.counts) - activityOf(a.counts) ||
        a.product_name.localeCompare(b.product_name) ||
        a.product_id.localeCompare(b.product_id),
    );

  return {
    days: input.days,
    totals,
    products,
    daily: series.map((day) => ({ day, counts: daily.get(day)! })),
  };
}
