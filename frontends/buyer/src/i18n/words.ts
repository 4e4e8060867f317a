// Product words in the buyer's language (issue 13): units, quantities, prices, stock, ages, calendar days, lists
// and tuber names. The same rules as @tuber/ui's English helpers (ADR 0030), with the words from the catalogue,
// so English reads exactly as before. Money and numbers keep the en-NG style in every language.
import { getLocale } from '@tuber/shell-contract';
import { availability, type Availability, dayWords, formatNaira, nairaToKobo, type SellingUnit, type StockFields, type TuberSize, unitOf } from '@tuber/ui';
import { ageStep } from '@tuber/ui/age';
import { tr, type T } from './t.js';

/** A message id's part for a value with underscores ("bag_50kg" → "bag-50kg"): ids are lowercase words and hyphens. */
export const keyOf = (value: string): string => value.replace(/_/g, '-').replace(/ /g, '-');

/** The Intl locale of the current language ("en-NG", "yo-NG", …); en-NG where the browser lacks the language. */
export const intlLocale = (): string => {
  const locale = getLocale();
  if (locale === 'en') return 'en-NG';
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([`${locale}-NG`]).length > 0 ? `${locale}-NG` : 'en-NG';
  } catch {
    return 'en-NG';
  }
};

// Made on first use, not when the page's module loads: a page's first Intl.NumberFormat is slow on a cheap phone
// (the feed makes it while its products travel, prepareNumberFormats in @tuber/ui).
let amountFormatMade: Intl.NumberFormat | null = null;
const amountFormat = () => (amountFormatMade ??= new Intl.NumberFormat('en-NG', { maximumFractionDigits: 2 }));

/** "₦2,000.00" from naira (2 decimals, en-NG in every language). */
export const nairaText = (naira: number): string => formatNaira(nairaToKobo(naira));

/** "per heap", "per large tuber". */
export function unitText(unit: SellingUnit, t: T = tr, tuberSize?: TuberSize | null): string {
  return unit === 'tuber' && tuberSize ? t('unit.per.sized-tuber', { size: tuberSize }) : t(`unit.per.${keyOf(unit)}`);
}

/** "12 heaps", "1 heap", "12.5 kg", "2 bags of 50 kg". */
export const quantityWords = (quantity: number, unit: SellingUnit, t: T = tr): string =>
  t(`qty.${keyOf(unit)}`, { count: quantity, amount: amountFormat().format(quantity) });

/** "₦2,000.00 per heap". */
export const priceWords = (price: number, unit: SellingUnit, t: T = tr, tuberSize?: TuberSize | null): string =>
  t('price.with-unit', { price: nairaText(price), unit: unitText(unit, t, tuberSize) });

/** A product's price with its unit; a product from before units reads "per kg". */
export const productPriceWords = (product: { price: number; unit?: unknown; tuber_size?: TuberSize | null }, t: T = tr): string =>
  priceWords(product.price, unitOf(product), t, product.tuber_size);

/** "₦400.00 per kg" beside a price that is not per kg; null when it already is (or is unknown). */
export function pricePerKgWords(product: { unit?: unknown; price_per_kg?: number | null }, t: T = tr): string | null {
  if (unitOf(product) === 'kg' || typeof product.price_per_kg !== 'number') return null;
  return t('price.per-kg', { price: nairaText(product.price_per_kg) });
}

/** "2027-01-12" → "12 Jan 2027" (in Yoruba "12 Bél 2027"…) through Intl: the calendar day as given, whatever the time zone. */
export const dayText = (day: string): string => dayWords(day);

/** What the card and product page say about stock: "Available: 12 heaps", "Sold out", "Next harvest from …". */
export function stockWords(product: StockFields, t: T = tr): Availability {
  const stock = availability(product);
  if (stock.kind === 'sold-out') return { kind: 'sold-out', text: t('stock.sold-out') as 'Sold out' };
  if (stock.kind === 'next-harvest') {
    return {
      kind: 'next-harvest',
      text: product.next_harvest ? t('stock.next-harvest', { date: dayText(product.next_harvest) }) : t('stock.next-harvest-soon'),
    };
  }
  const unit = unitOf(product);
  const quantity = typeof product.quantity === 'number' ? product.quantity : unit === 'kg' ? product.kg : null;
  return { kind: 'available', text: quantity === null ? null : t('stock.available', { quantity: quantityWords(quantity, unit, t) }) };
}

/** The short age of @tuber/ui's shortAge ("3 hrs ago"; on cards without "ago"), in the current language. */
export function ageWords(timestamp: Date | string | number, options: { now?: Date; suffix?: boolean } = {}, t: T = tr): string {
  const step = ageStep(timestamp, options.now);
  if (!step) return String(timestamp);
  if (step.unit === 'now') return t('age.now');
  const age = t(`age.${step.unit}`, { count: step.count });
  return options.suffix === false ? age : t('age.ago', { age });
}

const TUBER_KEYS: Record<string, string> = {
  yam: 'yam',
  cassava: 'cassava',
  potato: 'potato',
  'sweet potato': 'sweet-potato',
  tumeric: 'tumeric',
  turmeric: 'tumeric',
  garlic: 'garlic',
  ginger: 'ginger',
};

/** A tuber type in the current language (the local names of the search synonyms); anything else as given. */
export function tuberName(name: string, t: T = tr): string {
  const key = TUBER_KEYS[name.trim().toLowerCase()];
  return key ? t(`tuber.${key}`) : name;
}

/** "yam, cassava and ginger" / "… or …" in the current language. */
export const listWords = (items: readonly string[], type: 'conjunction' | 'disjunction'): string =>
  new Intl.ListFormat(intlLocale(), { style: 'long', type }).format(items);
