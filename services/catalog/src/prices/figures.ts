// The price guide's arithmetic (issue 27, docs/adr/0072), free of storage: Lagos weeks, quartiles, the privacy
// gate that decides whether a band may be shown at all, merging a thin week with its neighbours, and the seasonal
// hint. The read model (model.ts) feeds it the points; the same functions serve the live model and a rebuild.
import {
  PRICE_PARTIES_FROM,
  PRICE_SHOWN_FROM,
  SEASONAL_CHANGE_FROM,
  type PriceBand,
  type PriceWeek,
  type SeasonalHint,
} from '@tuber/contracts';

const DAY_MS = 86_400_000;
/** Lagos is UTC+1 all year (no daylight saving). */
const LAGOS_OFFSET_MS = 3_600_000;

/** The Lagos calendar day (days since 1970-01-01) of an instant. */
const lagosDay = (ms: number) => Math.floor((ms + LAGOS_OFFSET_MS) / DAY_MS);

/** The Monday (a Lagos day number) of the week holding `ms`. 1970-01-01 was a Thursday. */
export function mondayOf(ms: number): number {
  const day = lagosDay(ms);
  return day - ((day + 3) % 7);
}

/** The first instant of the week starting on Lagos day `monday`. */
export const weekStartMs = (monday: number): number => monday * DAY_MS - LAGOS_OFFSET_MS;

/** ISO week id (2026-W48) of the week starting on `monday`: the year and number of its Thursday. */
export function weekId(monday: number): string {
  const thursday = new Date((monday + 3) * DAY_MS);
  const year = thursday.getUTCFullYear();
  const firstDay = Date.UTC(year, 0, 1) / DAY_MS;
  const week = Math.floor((monday + 3 - firstDay) / 7) + 1;
  return `${year}-W${String(week).padStart(2, '0')}`;
}

export const mondayDate = (monday: number): string => new Date(monday * DAY_MS).toISOString().slice(0, 10);

/** Quantile q of ascending `sorted` by linear interpolation between closest ranks (R's type 7). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) throw new Error('no values');
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low);
}

/** One price: naira per kg, and who made it (ids stay server-side; only counts of them are used). */
export interface PricePoint {
  perKg: number;
  farmer: string;
  /** Sales only: the buyer. */
  buyer?: string;
}

/**
 * The band of `points`, or null when showing it could single someone out: fewer than PRICE_SHOWN_FROM points, or
 * fewer than PRICE_PARTIES_FROM farmers among them, or (sales) fewer than PRICE_PARTIES_FROM buyers.
 */
export function bandOf(points: readonly PricePoint[], kind: 'sold' | 'asked'): PriceBand | null {
  if (points.length < PRICE_SHOWN_FROM) return null;
  if (new Set(points.map((p) => p.farmer)).size < PRICE_PARTIES_FROM) return null;
  if (kind === 'sold' && new Set(points.map((p) => p.buyer)).size < PRICE_PARTIES_FROM) return null;
  const sorted = points.map((p) => p.perKg).sort((a, b) => a - b);
  return {
    count: points.length,
    p25: Math.round(quantile(sorted, 0.25)),
    p50: Math.round(quantile(sorted, 0.5)),
    p75: Math.round(quantile(sorted, 0.75)),
  };
}

/**
 * Each week's band: its own when it may be shown; else the week with the weeks before and after it (the ones the
 * series has), marked `merged`; else null.
 */
export function weeklyBands(byWeek: readonly PricePoint[][], kind: 'sold' | 'asked'): (PriceBand | null)[] {
  return byWeek.map((points, i) => {
    const own = bandOf(points, kind);
    if (own) return own;
    if (points.length === 0) return null;
    const around = [...(byWeek[i - 1] ?? []), ...points, ...(byWeek[i + 1] ?? [])];
    const merged = bandOf(around, kind);
    return merged ? { ...merged, merged: true } : null;
  });
}

/** Weeks of a full year the seasonal hint needs with a sold band (merged or not), among the series' last 52. */
export const SEASONAL_WEEKS_FROM = 40;

/**
 * "Prices usually fall in August": from a year of weekly medians, the month whose median moved most against the
 * month before (the year wraps), when that is at least SEASONAL_CHANGE_FROM; a fall wins over a rise. Null unless the
 * tuber's sales go back a full year (`firstSaleMs`) and enough of the weeks have figures.
 */
export function seasonalHint(weeks: readonly PriceWeek[], firstSaleMs: number | null, nowMs: number): SeasonalHint | null {
  if (firstSaleMs === null || nowMs - firstSaleMs < 51 * 7 * DAY_MS) return null;
  // Merged weeks count: they are their neighbours' sales, which fall in the same month or the next.
  const shown = weeks.filter((w) => w.sold);
  if (shown.length < SEASONAL_WEEKS_FROM) return null;
  const byMonth = new Map<number, number[]>();
  for (const week of shown) {
    // A week belongs to the month of its Thursday, as its ISO number does to a year.
    const month = new Date(Date.parse(week.starts) + 3 * DAY_MS).getUTCMonth() + 1;
    byMonth.set(month, [...(byMonth.get(month) ?? []), week.sold!.p50]);
  }
  const median = (values: number[]) => quantile([...values].sort((a, b) => a - b), 0.5);
  const changes: { month: number; change: number }[] = [];
  for (let month = 1; month <= 12; month += 1) {
    const before = byMonth.get(month === 1 ? 12 : month - 1);
    const now = byMonth.get(month);
    if (!before || !now) continue;
    changes.push({ month, change: median(now) / median(before) - 1 });
  }
  const fall = changes.reduce<{ month: number; change: number } | null>((min, c) => (!min || c.change < min.change ? c : min), null);
  if (fall && fall.change <= -SEASONAL_CHANGE_FROM) return { direction: 'fall', month: fall.month, change: round2(fall.change) };
  const rise = changes.reduce<{ month: number; change: number } | null>((max, c) => (!max || c.change > max.change ? c : max), null);
  if (rise && rise.change >= SEASONAL_CHANGE_FROM) return { direction: 'rise', month: rise.month, change: round2(rise.change) };
  return null;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** A location as a key: words in lower case, single spaces ("Ibadan  North" and "ibadan north" are one place). */
export const locationKey = (location: string): string => location.trim().replace(/\s+/g, ' ').toLowerCase();
