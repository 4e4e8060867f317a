// The text of a product card, from the shared formatters: 10-word preview (spec §9), the price per selling
// unit in NGN with 2 decimals and the ₦ per kg it makes ("₦2,000.00 per heap · ₦400.00/kg"), the stock in
// the unit ("12 heaps"), the status ("Sold out", "Next harvest from 12 Jan 2027"), and the short age without
// "ago" (spec §2: "ago" removed on cards).
import type { Product } from '@tuber/contracts';
import { firstWords, statusOf, unitOf, type ProductStatus } from '@tuber/ui';
import { perKgText, priceWithUnit, quantityText, shortAgeText, statusText } from '../i18n/words.js';

export const LIST_PREVIEW_WORDS = 10;

export interface ProductCardText {
  descriptionPreview: string;
  descriptionCut: boolean;
  /** "₦2,000.00 per heap". */
  price: string;
  /** "₦400.00/kg", or null for a product sold per kg (its price already says it). */
  perKg: string | null;
  /** "12 heaps", "12.5 kg". */
  quantity: string;
  status: ProductStatus;
  /** "Available", "Sold out", "Next harvest from 12 Jan 2027". */
  statusText: string;
  age: string;
}

export type CardProduct = Pick<Product, 'description' | 'price' | 'kg' | 'created_at'> &
  Partial<Pick<Product, 'unit' | 'tuber_size' | 'unit_weight_kg' | 'price_per_kg' | 'quantity' | 'status' | 'next_harvest'>>;

export function productCardText(product: CardProduct, now: Date = new Date()): ProductCardText {
  const preview = firstWords(product.description, LIST_PREVIEW_WORDS);
  const unit = unitOf(product);
  const status = statusOf(product);
  return {
    descriptionPreview: preview.text,
    descriptionCut: preview.isCut,
    price: priceWithUnit(product.price, unit, product.tuber_size),
    perKg: unit !== 'kg' && typeof product.price_per_kg === 'number' ? perKgText(product.price_per_kg) : null,
    quantity: quantityText(typeof product.quantity === 'number' ? product.quantity : product.kg, unit, 'short'),
    status,
    statusText: statusText(status, product.next_harvest),
    age: shortAgeText(product.created_at, now),
  };
}
