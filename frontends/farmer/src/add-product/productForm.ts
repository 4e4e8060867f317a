// The Add Product form's values and how they become the catalog's request (POST /api/catalog/products).
import type { NewProduct, Nutrition } from '@tuber/contracts';
import { koboToNaira, nairaToKobo } from '@tuber/ui';

/** What the inputs hold: text, exactly as typed. */
export interface ProductFormValues {
  productName: string;
  description: string;
  price: string;
  kg: string;
  cultural: string;
  health: string;
  /** '' is the "none" choice. */
  tuberType: string;
}

export const emptyProductForm: ProductFormValues = {
  productName: '',
  description: '',
  price: '',
  kg: '',
  cultural: '',
  health: '',
  tuberType: '',
};

/**
 * A typed amount as a number with at most 2 decimals, rounded half up on the decimal text itself: the inputs
 * step by 0.01, and "1.005" must not become 1.00 through binary floating point (1.005 * 100 = 100.4999…).
 */
export function twoDecimals(typed: string): number {
  const text = typed.trim();
  const plain = /^(\d*)(?:\.(\d*))?$/.exec(text);
  if (plain && (plain[1] || plain[2])) {
    const fraction = (plain[2] ?? '').padEnd(3, '0');
    const kobo = Number(plain[1] || '0') * 100 + Number(fraction.slice(0, 2)) + (Number(fraction[2]) >= 5 ? 1 : 0);
    return koboToNaira(kobo);
  }
  const value = Number(text);
  if (text === '' || !Number.isFinite(value)) throw new RangeError(`not a number: "${typed}"`);
  return koboToNaira(nairaToKobo(value)); // e.g. "1e3", which number inputs also accept
}

export function toNewProduct(values: ProductFormValues, imageIds: readonly string[], nutrition: Nutrition | null): NewProduct {
  const health = values.health.trim();
  return {
    product_name: values.productName.trim(),
    description: values.description.trim(),
    price: twoDecimals(values.price),
    kg: twoDecimals(values.kg),
    tuber_type: values.tuberType,
    image_ids: [...imageIds],
    cultural: values.cultural.trim(),
    ...(health ? { health } : {}),
    ...(nutrition ? { nutrition } : {}),
  };
}
