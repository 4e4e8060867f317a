// What insights need from the orders service's product projection (built from catalog events):
// whose a product is, and the names of a farmer's products.
import type { ProductModel } from '../domain/products.js';
import type { ProductName } from './summary.js';

export interface ProductOwner {
  product_id: string;
  farmer_id: string;
}

export interface ProductDirectory {
  /** A product buyers can still see (not deleted), or null. */
  listedById(productId: string): Promise<ProductOwner | null>;
  /** Every product of the farmer the projection knows, deleted ones marked as not listed. */
  namesOf(farmerId: string): Promise<ProductName[]>;
}

/** A product posted before product events carried names (issue 12) has none in the projection. */
export const UNNAMED_PRODUCT = 'Unnamed product';

export function productDirectory(products: ProductModel): ProductDirectory {
  return {
    async listedById(productId) {
      const product = await products.findOne({ product_id: productId }, { _id: 0, product_id: 1, farmer_id: 1, deleted: 1 }).lean();
      return product && !product.deleted ? { product_id: product.product_id, farmer_id: product.farmer_id } : null;
    },
    async namesOf(farmerId) {
      const found = await products.find({ farmer_id: farmerId }, { _id: 0, product_id: 1, product_name: 1, deleted: 1 }).lean();
      return found.map((p) => ({ product_id: p.product_id, product_name: p.product_name || UNNAMED_PRODUCT, listed: !p.deleted }));
    },
  };
}
