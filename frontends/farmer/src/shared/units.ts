// How a product is sold, in the farmer's words (issue 11, ADR 0030): the selling units with their labels,
// stock quantities ("12 heaps"), prices with the unit ("₦2,000.00 per heap · ₦400.00/kg") and the status line
// ("Sold out", "Next harvest from 12 Jan 2027"). The remote imports @tuber/contracts for types only (its
// runtime pulls in TypeBox), so the labels are copied here; a unit test holds them equal to the contract's.
import type { ProductStatus, SellingUnit, TuberSize } from '@tuber/contracts';
import { formatNaira, koboToNaira, nairaToKobo } from '@tuber/ui';

export type { ProductStatus, SellingUnit, TuberSize };

export const SELLING_UNITS = ['kg', 'tuber', 'heap', 'bag_50kg', 'lot_100'] as const satisfies readonly SellingUnit[];
export const TUBER_SIZES = ['small', 'medium', 'large'] as const satisfies readonly TuberSize[];
export const PRODUCT_STATUSES = ['available', 'sold_out', 'next_harvest'] as const satisfies readonly ProductStatus[];

/** The words after a price, as contracts' SELLING_UNIT_LABELS has them. */
export const SELLING_UNIT_LABELS = {
  kg: 'per kg',
  tuber: 'per tuber',
  heap: 'per heap',
  bag_50kg: 'per 50 kg bag',
  lot_100: 'per lot of 100 tubers',
} as const satisfies Record<SellingUnit, string>;

/** One and several of a unit, for stock quantities and the quantity field's label. */
const UNIT_NOUNS = {
  kg: ['kg', 'kg'],
  tuber: ['tuber', 'tubers'],
  heap: ['heap', 'heaps'],
  bag_50kg: ['50 kg bag', '50 kg bags'],
  lot_100: ['lot of 100 tubers', 'lots of 100 tubers'],
} as const satisfies Record<SellingUnit, readonly [string, string]>;

export const STATUS_LABELS = {
  available: 'Available',
  sold_out: 'Sold out',
  next_harvest: 'Next harvest',
} as const satisfies Record<ProductStatus, string>;

export const TUBER_SIZE_LABELS = { small: 'Small', medium: 'Medium', large: 'Large' } as const satisfies Record<TuberSize, string>;

export const isSellingUnit = (value: unknown): value is SellingUnit =>
  typeof value === 'string' && (SELLING_UNITS as readonly string[]).includes(value);
export const isTuberSize = (value: unknown): value is TuberSize =>
  typeof value === 'string' && (TUBER_SIZES as readonly string[]).includes(value);
export const isProductStatus = (value: unknown): value is ProductStatus =>
  typeof value === 'string' && (PRODUCT_STATUSES as readonly string[]).includes(value);

/** A product posted before units existed is sold per kg. */
export const unitOf = (product: { unit?: unknown }): SellingUnit => (isSellingUnit(product.unit) ? product.unit : 'kg');
export const statusOf = (product: { status?: unknown }): ProductStatus => (isProductStatus(product.status) ? product.status : 'available');

/** The plural noun of a unit, for "Quantity available (heaps)". */
export const unitPlural = (unit: SellingUnit): string => UNIT_NOUNS[unit][1];

const amount = new Intl.NumberFormat('en-NG', { maximumFractionDigits: 2 });

/** "12 heaps", "1 heap", "12.5 kg", "3 50 kg bags". */
export function quantityText(quantity: number, unit: SellingUnit): string {
  const [one, many] = UNIT_NOUNS[unit];
  return `${amount.format(quantity)} ${quantity === 1 ? one : many}`;
}

/** "per heap", "per large tuber". */
export function unitLabel(unit: SellingUnit, tuberSize?: TuberSize | null): string {
  return unit === 'tuber' && tuberSize ? `per ${tuberSize} tuber` : SELLING_UNIT_LABELS[unit];
}

/** "₦2,000.00 per heap". */
export const priceWithUnit = (price: number, unit: SellingUnit, tuberSize?: TuberSize | null): string =>
  `${formatNaira(nairaToKobo(price))} ${unitLabel(unit, tuberSize)}`;

/** "₦400.00/kg". */
export const perKgText = (pricePerKg: number): string => `${formatNaira(nairaToKobo(pricePerKg))}/kg`;

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

/** "Available", "Sold out", "Next harvest from 12 Jan 2027". */
export function statusText(status: ProductStatus, nextHarvest?: string | null): string {
  if (status === 'next_harvest') return nextHarvest ? `Next harvest from ${calendarDayText(nextHarvest)}` : 'Next harvest';
  return STATUS_LABELS[status];
}

/** Today as YYYY-MM-DD in the browser's own calendar (the farmer's day, for the next-harvest date). */
export function todayCalendarDay(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
