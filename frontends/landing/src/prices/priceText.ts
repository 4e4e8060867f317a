// The price page's figures as words: naira through @tuber/ui's LocaleFormat (₦1,050: whole naira, en-NG digits in
// every language, as every price of the app), the sentences through the landing catalogue.
import type { PriceBand, PriceWeek } from '@tuber/contracts';
import type { LocaleFormat } from '@tuber/ui';
import { dayWords } from '@tuber/ui';
import type { BandKind } from './priceView.js';

type T = (id: string, values?: Record<string, string | number>) => string;

/** "₦1,050–1,300", or "₦1,200" when both quartiles are the same. */
export function rangeText(format: LocaleFormat, band: Pick<PriceBand, 'p25' | 'p75'>): string {
  return band.p25 === band.p75 ? format.money(band.p25) : `${format.money(band.p25)}–${format.number(band.p75)}`;
}

/** "₦1,050–1,300/kg" in the language's words for "per kg". */
export const perKgRange = (t: T, format: LocaleFormat, band: Pick<PriceBand, 'p25' | 'p75'>): string =>
  t('prices.per-kg', { range: rangeText(format, band) });

/** "12 sales" / "8 listings". */
export const countText = (t: T, kind: BandKind, count: number): string =>
  t(kind === 'sold' ? 'prices.sales' : 'prices.listings', { count });

/** "Not enough sales yet" / "Not enough listings yet". */
export const notEnoughText = (t: T, kind: BandKind): string => t(kind === 'sold' ? 'prices.not-enough-sales' : 'prices.not-enough-listings');

/** A week's start, "2 Dec" (with the year when asked: the table's and tooltips' longer form). */
export const weekText = (week: Pick<PriceWeek, 'starts'>, withYear = false): string => dayWords(week.starts, { year: withYear });

/** One kind's figures of a week in a line: "median ₦1,200, ₦1,050–1,300/kg, 12 sales", or "Not enough sales yet". */
export function bandLine(t: T, format: LocaleFormat, kind: BandKind, band: PriceBand | null): string {
  if (!band) return notEnoughText(t, kind);
  return t('prices.band-line', {
    median: format.money(band.p50),
    range: perKgRange(t, format, band),
    count: countText(t, kind, band.count),
  });
}
