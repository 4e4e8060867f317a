// The words of selling, in the farmer's language: tuber names (the local names of the search synonyms,
// services/catalog/src/domain/tuber-synonyms.ts), selling units and their plurals, prices with the unit,
// stock quantities, statuses, short ages and dates. In English every text is exactly what @tuber/ui's
// formatters say (the unit tests hold them to it); numbers and ₦ are always in the en-NG style.
import { getLocale } from '@tuber/shell-contract';
import { dayWords, formatNaira, nairaToKobo, type NounStyle, type ProductStatus, type SellingUnit, type TuberSize } from '@tuber/ui';
import { ageStep } from '@tuber/ui/age';
import { tr } from './t.js';

/** The page's language (one for the shell and every remote). */
export const pageLanguage = (): string => getLocale();

/** The Intl locales to format dates with in the page's language (en-GB where the browser has no data for it). */
export function dateLocales(): string[] {
  const lang = pageLanguage();
  return lang === 'en' ? ['en-GB'] : [`${lang}-NG`, lang, 'en-GB'];
}

/** A tuber type's name in the farmer's language ("isu" for yam in Yoruba); an unknown type as it is. */
export function tuberName(type: string): string {
  const id = `tuber.${type.trim().toLowerCase().replace(/\s+/g, '_')}`;
  const name = tr(id);
  return name === id ? type : name;
}

/** "per heap", "per large tuber". */
export function unitLabel(unit: SellingUnit, tuberSize?: TuberSize | null): string {
  return unit === 'tuber' && tuberSize ? tr(`unit.per_size.${tuberSize}`) : tr(`unit.per.${unit}`);
}

const shortNoun = (unit: SellingUnit, style: NounStyle) => style === 'short' && unit === 'bag_50kg';

/** The plural noun of a unit, for "Quantity available (heaps)". */
export function unitPlural(unit: SellingUnit, style: NounStyle = 'long'): string {
  return tr(shortNoun(unit, style) ? `unit.plural_short.${unit}` : `unit.plural.${unit}`);
}

// Made on first use, not when the page's module loads: a page's first Intl.NumberFormat is slow on a cheap phone.
let amountMade: Intl.NumberFormat | null = null;
const amount = () => (amountMade ??= new Intl.NumberFormat('en-NG', { maximumFractionDigits: 2 }));

/** A number as the product shows it: "12.5", "1,000". */
export const amountText = (n: number): string => amount().format(n);

/** "12 heaps", "1 heap", "12.5 kg", "2 bags of 50 kg" ('short': "2 50 kg bags"). */
export function quantityText(quantity: number, unit: SellingUnit, style: NounStyle = 'long'): string {
  const id = shortNoun(unit, style) ? `unit.count_short.${unit}` : `unit.count.${unit}`;
  return tr(id, { count: quantity, amount: amount().format(quantity) });
}

/** "₦2,500.00" from naira. */
export const nairaText = (naira: number): string => formatNaira(nairaToKobo(naira));

/** "₦2,000.00 per heap". */
export const priceWithUnit = (price: number, unit: SellingUnit, tuberSize?: TuberSize | null): string =>
  tr('unit.price', { price: nairaText(price), unit: unitLabel(unit, tuberSize) });

/** "₦400.00/kg" (the farmer's list). */
export const perKgText = (pricePerKg: number): string => tr('unit.per_kg_short', { price: nairaText(pricePerKg) });

/** "₦400.00 per kg" (the form's live figure). */
export const perKgLongText = (pricePerKg: number): string => tr('unit.per_kg_long', { price: nairaText(pricePerKg) });

/** "2027-01-12" → "12 Jan 2027" in English; the same calendar day in the page's language otherwise. */
export const dayText = (day: string): string => dayWords(day);

/** "Available", "Sold out", "Next harvest from 12 Jan 2027". */
export function statusText(status: ProductStatus, nextHarvest?: string | null): string {
  if (status === 'next_harvest' && nextHarvest) return tr('status.next_harvest_from', { date: dayText(nextHarvest) });
  return tr(`status.${status}`);
}

export const sizeLabel = (size: TuberSize): string => tr(`size.${size}`);

const AGE_IDS = { min: 'age.minutes', hr: 'age.hours', day: 'age.days', mo: 'age.months', yr: 'age.years' } as const;

/** A card's short age without "ago" ("5 min", "3 hrs", "2 mo"), the thresholds of @tuber/ui's shortAge. */
export function shortAgeText(timestamp: string | number | Date, now: Date = new Date()): string {
  const step = ageStep(timestamp, now);
  if (!step) return '';
  return step.unit === 'now' ? tr('age.just_now') : tr(AGE_IDS[step.unit], { count: step.count });
}
