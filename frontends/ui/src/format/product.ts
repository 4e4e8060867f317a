// How a product is sold, in words both remotes show (issue 11, ADR 0030): the selling units, tuber sizes and
// statuses with their labels, stock quantities ("12 heaps"), prices with the unit ("₦2,000.00 per heap",
// "₦400.00 per kg" / "₦400.00/kg") and the status line ("Sold out", "Next harvest from 12 Jan 2027").
// Plain data on purpose: @tuber/contracts' runtime carries TypeBox, which the browser bundles must not pull in.
// test/unit/product.test.ts holds these lists equal to the contract's.
import { formatNaira, koboToNaira, nairaFormat, nairaToKobo } from './money.js';

export const SELLING_UNITS = ['kg', 'tuber', 'heap', 'bag_50kg', 'lot_100'] as const;
export const TUBER_SIZES = ['small', 'medium', 'large'] as const;
export const PRODUCT_STATUSES = ['available', 'sold_out', 'next_harvest'] as const;
export type SellingUnit = (typeof SELLING_UNITS)[number];
export type TuberSize = (typeof TUBER_SIZES)[number];
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

/** The words after a price, as contracts' SELLING_UNIT_LABELS has them. */
export const SELLING_UNIT_LABELS = {
  kg: 'per kg',
  tuber: 'per tuber',
  heap: 'per heap',
  bag_50kg: 'per 50 kg bag',
  lot_100: 'per lot of 100 tubers',
} as const satisfies Record<SellingUnit, string>;

export const STATUS_LABELS = {
  available: 'Available',
  sold_out: 'Sold out',
  next_harvest: 'Next harvest',
} as const satisfies Record<ProductStatus, string>;

export const TUBER_SIZE_LABELS = { small: 'Small', medium: 'Medium', large: 'Large' } as const satisfies Record<TuberSize, string>;

const isOneOf =
  <T extends string>(list: readonly T[]) =>
  (value: unknown): value is T =>
    typeof value === 'string' && (list as readonly string[]).includes(value);
export const isSellingUnit = isOneOf(SELLING_UNITS);
export const isTuberSize = isOneOf(TUBER_SIZES);
export const isProductStatus = isOneOf(PRODUCT_STATUSES);

/** A product posted before units existed is sold per kg. */
export const unitOf = (product: { unit?: unknown }): SellingUnit => (isSellingUnit(product.unit) ? product.unit : 'kg');
/** …and is available. */
export const statusOf = (product: { status?: unknown }): ProductStatus => (isProductStatus(product.status) ? product.status : 'available');

/**
 * One and several of a unit. The two remotes name the 50 kg bag differently (buyer: "2 bags of 50 kg", the
 * default; farmer: "3 50 kg bags", `'short'`); both are kept as they were when the copies were merged.
 */
const UNIT_NOUNS = {
  kg: ['kg', 'kg'],
  tuber: ['tuber', 'tubers'],
  heap: ['heap', 'heaps'],
  bag_50kg: ['bag of 50 kg', 'bags of 50 kg'],
  lot_100: ['lot of 100 tubers', 'lots of 100 tubers'],
} as const satisfies Record<SellingUnit, readonly [string, string]>;
const SHORT_NOUNS: Partial<Record<SellingUnit, readonly [string, string]>> = { bag_50kg: ['50 kg bag', '50 kg bags'] };
export type NounStyle = 'long' | 'short';
const nounsOf = (unit: SellingUnit, style: NounStyle) => (style === 'short' && SHORT_NOUNS[unit]) || UNIT_NOUNS[unit];

/** The plural noun of a unit, for "Quantity available (heaps)". */
export const unitPlural = (unit: SellingUnit, style: NounStyle = 'long'): string => nounsOf(unit, style)[1];

// Made on first use (see money.ts): most pages show no quantity.
let amount: Intl.NumberFormat | null = null;
const amountFormat = (): Intl.NumberFormat => (amount ??= new Intl.NumberFormat('en-NG', { maximumFractionDigits: 2 }));

/**
 * Makes the number formats prices and quantities use, ahead of the first render that shows them: a page that
 * lists products calls it while it waits for them (the buyer feed's prefetch), so the cost is paid while the
 * main thread would be idle instead of inside the render before the first photo is asked for (issue 13).
 */
export function prepareNumberFormats(): void {
  nairaFormat();
  amountFormat();
}

/** "12 heaps", "1 heap", "12.5 kg", "2 bags of 50 kg" ('short': "2 50 kg bags"). */
export function quantityText(quantity: number, unit: SellingUnit, style: NounStyle = 'long'): string {
  const [one, many] = nounsOf(unit, style);
  return `${amountFormat().format(quantity)} ${quantity === 1 ? one : many}`;
}

/** "per heap", "per large tuber". */
export function unitLabel(unit: SellingUnit, tuberSize?: TuberSize | null): string {
  return unit === 'tuber' && tuberSize ? `per ${tuberSize} tuber` : SELLING_UNIT_LABELS[unit];
}

/** "₦2,000.00 per heap". */
export const priceWithUnit = (price: number, unit: SellingUnit, tuberSize?: TuberSize | null): string =>
  `${formatNaira(nairaToKobo(price))} ${unitLabel(unit, tuberSize)}`;

/** A product's price with its unit; a product from before units reads "per kg". */
export const productPriceText = (product: { price: number; unit?: unknown; tuber_size?: TuberSize | null }): string =>
  priceWithUnit(product.price, unitOf(product), product.tuber_size);

/** "₦400.00/kg" (the farmer's list). */
export const perKgText = (pricePerKg: number): string => `${formatNaira(nairaToKobo(pricePerKg))}/kg`;

/** "₦400.00 per kg" beside a price not per kg (the buyer's card); null when the price already is per kg (or unknown). */
export function pricePerKgText(product: { unit?: unknown; price_per_kg?: number | null }): string | null {
  if (unitOf(product) === 'kg' || typeof product.price_per_kg !== 'number') return null;
  return `${formatNaira(nairaToKobo(product.price_per_kg))} per kg`;
}

/**
 * ₦ per kg as the catalog computes it (ADR 0030): price / average kg per unit, rounded to the kobo. Null when
 * it cannot be known yet (no weight, or a weight of 0).
 */
export function pricePerKg(price: number, unitWeightKg: number): number | null {
  if (!Number.isFinite(price) || !Number.isFinite(unitWeightKg) || unitWeightKg <= 0) return null;
  return koboToNaira(Math.round(nairaToKobo(price) / unitWeightKg));
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "2027-01-12" → "12 Jan 2027": the calendar day as given, whatever the browser's time zone. */
export function calendarDayText(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  const month = match ? MONTHS[Number(match[2]) - 1] : undefined;
  return match && month ? `${Number(match[3])} ${month} ${match[1]}` : day;
}

/** Today as YYYY-MM-DD in the browser's own calendar (the farmer's day, for the next-harvest date). */
export function todayCalendarDay(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** "Available", "Sold out", "Next harvest from 12 Jan 2027" (the farmer's list). */
export function statusText(status: ProductStatus, nextHarvest?: string | null): string {
  if (status === 'next_harvest') return nextHarvest ? `Next harvest from ${calendarDayText(nextHarvest)}` : 'Next harvest';
  return STATUS_LABELS[status];
}

export type Availability =
  { kind: 'available'; text: string | null } | { kind: 'sold-out'; text: 'Sold out' } | { kind: 'next-harvest'; text: string };

export interface StockFields {
  status?: unknown;
  next_harvest?: string | null;
  quantity?: number | null;
  kg: number;
  unit?: unknown;
}

/** What the buyer's card and product page say about stock: "Available: 12 heaps", "Sold out", "Next harvest from …". */
export function availability(product: StockFields): Availability {
  const status = statusOf(product);
  if (status === 'sold_out') return { kind: 'sold-out', text: 'Sold out' };
  if (status === 'next_harvest') {
    return {
      kind: 'next-harvest',
      text: product.next_harvest ? `Next harvest from ${calendarDayText(product.next_harvest)}` : 'Next harvest soon',
    };
  }
  const unit = unitOf(product);
  const quantity = typeof product.quantity === 'number' ? product.quantity : unit === 'kg' ? product.kg : null;
  return { kind: 'available', text: quantity === null ? null : `Available: ${quantityText(quantity, unit)}` };
}
