// How a product's price, unit, stock and status read to a buyer (issue 11, ADR 0030): "₦2,000.00 per heap",
// "₦400.00 per kg", "Available: 12 heaps", "Sold out", "Next harvest from 12 Jan 2027".
import { formatNaira, nairaToKobo } from '@tuber/ui';
import type { Product, ProductStatus, SellingUnit, TuberSize } from './types.js';

/** The words after a price, as the contract's SELLING_UNIT_LABELS has them (kept here: contracts carry TypeBox). */
export const SELLING_UNIT_LABELS = {
  kg: 'per kg',
  tuber: 'per tuber',
  heap: 'per heap',
  bag_50kg: 'per 50 kg bag',
  lot_100: 'per lot of 100 tubers',
} as const satisfies Record<SellingUnit, string>;

const UNIT_NOUNS = {
  kg: ['kg', 'kg'],
  tuber: ['tuber', 'tubers'],
  heap: ['heap', 'heaps'],
  bag_50kg: ['bag of 50 kg', 'bags of 50 kg'],
  lot_100: ['lot of 100 tubers', 'lots of 100 tubers'],
} as const satisfies Record<SellingUnit, readonly [string, string]>;

const isSellingUnit = (value: unknown): value is SellingUnit => typeof value === 'string' && value in SELLING_UNIT_LABELS;

/** A product without a unit (posted before units existed) is sold per kg. */
export const unitOf = (product: { unit?: unknown }): SellingUnit => (isSellingUnit(product.unit) ? product.unit : 'kg');

export function statusOf(product: Pick<Product, 'status'>): ProductStatus {
  return product.status === 'sold_out' || product.status === 'next_harvest' ? product.status : 'available';
}

const amount = new Intl.NumberFormat('en-NG', { maximumFractionDigits: 2 });

/** "12 heaps", "1 heap", "12.5 kg", "2 bags of 50 kg". */
export function quantityText(quantity: number, unit: SellingUnit): string {
  const [one, many] = UNIT_NOUNS[unit];
  return `${amount.format(quantity)} ${quantity === 1 ? one : many}`;
}

/** "per heap", "per large tuber". */
export function unitLabel(unit: SellingUnit, tuberSize?: TuberSize | null): string {
  return unit === 'tuber' && tuberSize ? `per ${tuberSize} tuber` : SELLING_UNIT_LABELS[unit];
}

/** "₦2,000.00 per heap". */
export function priceText(price: number, unit: SellingUnit, tuberSize?: TuberSize | null): string {
  return `${formatNaira(nairaToKobo(price))} ${unitLabel(unit, tuberSize)}`;
}

export const productPriceText = (product: Pick<Product, 'price' | 'unit' | 'tuber_size'>) =>
  priceText(product.price, unitOf(product), product.tuber_size);

/** "₦400.00 per kg" for a product not sold per kg; null when the price already is per kg (or unknown). */
export function pricePerKgText(product: Pick<Product, 'unit' | 'price_per_kg'>): string | null {
  if (unitOf(product) === 'kg' || typeof product.price_per_kg !== 'number') return null;
  return `${formatNaira(nairaToKobo(product.price_per_kg))} per kg`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "2027-01-12" → "12 Jan 2027" (the calendar day as given, whatever the buyer's time zone). */
export function calendarDayText(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  const month = match ? MONTHS[Number(match[2]) - 1] : undefined;
  return match && month ? `${Number(match[3])} ${month} ${match[1]}` : day;
}

export type Availability =
  { kind: 'available'; text: string | null } | { kind: 'sold-out'; text: 'Sold out' } | { kind: 'next-harvest'; text: string };

/** What the card and the product page say about stock: "Available: 12 heaps", "Sold out", "Next harvest from …". */
export function availability(product: Pick<Product, 'status' | 'next_harvest' | 'quantity' | 'kg' | 'unit'>): Availability {
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
