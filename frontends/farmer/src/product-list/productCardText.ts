// The text of a product card, from the shared formatters: 10-word preview (spec §9), NGN with 2 decimals,
// and the short age without "ago" (spec §2: "ago" removed on cards).
import type { Product } from '@tuber/contracts';
import { firstWords, formatNaira, nairaToKobo, shortAge } from '@tuber/ui';

export const LIST_PREVIEW_WORDS = 10;

export interface ProductCardText {
  descriptionPreview: string;
  descriptionCut: boolean;
  price: string;
  kg: string;
  age: string;
}

export function productCardText(
  product: Pick<Product, 'description' | 'price' | 'kg' | 'created_at'>,
  now: Date = new Date(),
): ProductCardText {
  const preview = firstWords(product.description, LIST_PREVIEW_WORDS);
  return {
    descriptionPreview: preview.text,
    descriptionCut: preview.isCut,
    price: formatNaira(nairaToKobo(product.price)),
    kg: String(product.kg),
    age: shortAge(product.created_at, { now, suffix: false }),
  };
}
