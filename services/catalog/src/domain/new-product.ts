// The rules a new product must meet beyond its schema (spec §5, enforced on the server).
import { IMAGE_COUNT_MESSAGE, IMAGES_PER_PRODUCT, type NewProduct } from '@tuber/contracts';
import { nairaToKobo } from './money.js';

export interface FarmerFacts {
  tuber: string[];
}

export interface ImageFacts {
  image_id: string;
  farmer_id: string;
}

/** Answered with 409 when another product already took one of the photos. */
export const IMAGES_IN_USE_MESSAGE = 'These photos already belong to another product. Upload new photos for this one.';

/** Returns the price in kobo, or a person-readable reason the product cannot be posted. */
export function checkNewProduct(
  product: NewProduct,
  farmer: FarmerFacts,
  farmerId: string,
  images: ImageFacts[],
): { priceKobo: number } | { problem: string } {
  const distinct = new Set(product.image_ids);
  if (distinct.size !== product.image_ids.length || distinct.size < IMAGES_PER_PRODUCT.min || distinct.size > IMAGES_PER_PRODUCT.max) {
    return { problem: IMAGE_COUNT_MESSAGE };
  }
  const priceKobo = nairaToKobo(product.price);
  if (priceKobo === undefined) return { problem: 'Price must be 0 or more, with at most 2 decimals.' };
  if (nairaToKobo(product.kg) === undefined) return { problem: 'KG must be 0 or more, with at most 2 decimals.' };
  if (!farmer.tuber.includes(product.tuber_type)) {
    const grown = farmer.tuber.length ? farmer.tuber.join(', ') : 'none yet';
    return { problem: `Choose a tuber type you grow (${grown}).` };
  }
  const known = new Map(images.map((image) => [image.image_id, image]));
  for (const id of product.image_ids) {
    const image = known.get(id);
    if (!image || image.farmer_id !== farmerId)
      return { problem: 'Use photos you uploaded yourself; upload them again if this keeps happening.' };
  }
  return { priceKobo };
}
