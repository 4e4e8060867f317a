// Products written straight into a scratch catalog database, the way the catalog stores them, for
// the tests that need hundreds at once (search.test.ts, search-plan.test.ts): written without
// search words, which the catalog's start-up backfill computes.
import type mongoose from 'mongoose';

export interface StoredProductFields {
  product_id: string;
  farmer_id: string;
  product_name: string;
  tuber_type: string;
  price_kobo: number;
  price_per_kg_kobo: number;
  created_at: Date;
  business_name: string;
  location: string;
  status?: 'available' | 'sold_out' | 'next_harvest';
  next_harvest?: string;
  unit?: string;
  unit_weight_kg?: number;
  tuber_size?: string;
  description?: string;
  images?: string[];
}

/** The whole stored document of a product (quantity 10, or 0 when sold out). */
export function storedProduct(fields: StoredProductFields): Record<string, unknown> {
  const status = fields.status ?? 'available';
  return {
    description: 'Harvested this week.',
    unit: 'kg',
    unit_weight_kg: 1,
    images: ['http://localhost:8080/files/a.jpg'],
    ...fields,
    status,
    quantity: status === 'sold_out' ? 0 : 10,
    image_cards: [],
    image_thumbs: [],
    image_ids: [],
    cultural: 'Market day',
    revision: 1,
    feed_bucket: 0,
    deleting: false,
    outbox: [],
  };
}

/** Writes the products and the feed's counter (as if they had been posted one by one). */
export async function writeProducts(db: mongoose.Connection, docs: Record<string, unknown>[]): Promise<void> {
  await db.collection('product').insertMany(docs);
  await db.collection('feed_counter').insertOne({ _id: 'feed' as never, seq: docs.length });
}
