// Money and quantities as people read them in messages and e-mails.
import type { SellingUnit } from '@tuber/contracts';

const NAIRA = new Intl.NumberFormat('en-NG', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 250000 → "₦2,500.00" */
export const formatKobo = (kobo: number): string => `₦${NAIRA.format(kobo / 100)}`;

/** Naira with at most 2 decimals → kobo (rounded to the kobo). */
export const toKobo = (naira: number): number => Math.round(naira * 100);
export const toNaira = (kobo: number): number => Math.round(kobo) / 100;

const NUMBER = new Intl.NumberFormat('en-NG', { maximumFractionDigits: 2 });

const UNIT_WORDS: Record<SellingUnit, [string, string]> = {
  kg: ['kg', 'kg'],
  tuber: ['tuber', 'tubers'],
  heap: ['heap', 'heaps'],
  bag_50kg: ['50 kg bag', '50 kg bags'],
  lot_100: ['lot of 100 tubers', 'lots of 100 tubers'],
};

/** 4, 'kg' → "4 kg"; 3, 'heap' → "3 heaps"; 1, 'bag_50kg' → "1 50 kg bag". */
export function formatQuantity(quantity: number, unit: string): string {
  const words = UNIT_WORDS[unit as SellingUnit] ?? [unit, unit];
  return `${NUMBER.format(quantity)} ${quantity === 1 ? words[0] : words[1]}`;
}

/** "per kg", "per heap", … */
export function perUnit(unit: string): string {
  const words = UNIT_WORDS[unit as SellingUnit];
  return words ? `per ${words[0]}` : `per ${unit}`;
}
