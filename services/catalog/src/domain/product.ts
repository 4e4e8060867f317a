// The product document (spec §3) as the catalog stores it: price in kobo, created_at a Date.
import { Schema, type Connection, type InferSchemaType } from 'mongoose';
import { OutboxField } from '@tuber/kit';
import type { Product } from '@tuber/contracts';
import { koboToNaira } from './money.js';

const NutritionSchema = new Schema(
  {
    serving_weight_grams: Number,
    serving_qty: Number,
    calories: Number,
    dietary_fiber: Number,
    protein: Number,
    saturated_fat: Number,
    sugars: Number,
    potassium: Number,
    sodium: Number,
    total_fat: Number,
  },
  { _id: false },
);

export const ProductSchema = new Schema(
  {
    product_id: { type: String, required: true },
    farmer_id: { type: String, required: true },
    product_name: { type: String, required: true },
    description: { type: String, required: true },
    price_kobo: { type: Number, required: true, min: 0 },
    kg: { type: Number, required: true, min: 0 },
    tuber_type: { type: String, required: true },
    images: { type: [String], default: [] },
    image_cards: { type: [String], default: [] },
    image_thumbs: { type: [String], default: [] },
    image_ids: { type: [String], default: [] },
    location: { type: String, default: '' },
    business_name: { type: String, default: '' },
    cultural: { type: String, required: true },
    health: { type: String },
    nutrition: { type: NutritionSchema },
    created_at: { type: Date, required: true },
    /** The feed bucket: products are numbered as posted and grouped FEED_BUCKET_SIZE at a time (see feed.ts, ADR 0023). */
    feed_bucket: { type: Number, required: true },
    /** Set while a deletion's event is being published; the document goes right after. */
    deleting: { type: Boolean, default: false },
    outbox: OutboxField,
  },
  { collection: 'product', versionKey: false },
);
ProductSchema.index({ product_id: 1 }, { unique: true });
ProductSchema.index({ created_at: -1, product_id: -1 });
ProductSchema.index({ feed_bucket: 1, created_at: -1, product_id: -1 });
ProductSchema.index({ farmer_id: 1, created_at: -1 });

export type ProductDocument = InferSchemaType<typeof ProductSchema>;

export function productModel(connection: Connection) {
  return connection.model('Product', ProductSchema);
}
export type ProductModel = ReturnType<typeof productModel>;

export function toApiProduct(doc: ProductDocument): Product {
  return {
    product_id: doc.product_id,
    farmer_id: doc.farmer_id,
    product_name: doc.product_name,
    description: doc.description,
    price: koboToNaira(doc.price_kobo),
    kg: doc.kg,
    tuber_type: doc.tuber_type,
    images: doc.images,
    image_cards: doc.image_cards,
    image_thumbs: doc.image_thumbs,
    location: doc.location,
    business_name: doc.business_name,
    cultural: doc.cultural,
    ...(doc.health ? { health: doc.health } : {}),
    ...(doc.nutrition ? { nutrition: doc.nutrition as NonNullable<Product['nutrition']> } : {}),
    created_at: doc.created_at.toISOString(),
  };
}

/** At most this many products share a feed bucket (more only if the counter ever handed out a number twice). */
export const FEED_BUCKET_SIZE = 100;

export const feedBucketOf = (seq: number) => Math.floor(seq / FEED_BUCKET_SIZE);

/** The collection holding the feed counter: one document, `{ _id: 'feed', seq }`, incremented atomically. */
export const FEED_COUNTER = 'feed_counter';

type CounterDoc = { _id: string; seq: number };
const counterOf = (connection: Connection) => connection.db!.collection<CounterDoc>(FEED_COUNTER);

/** The next product's feed number: one atomic `$inc` on one document (by _id). */
export async function nextFeedSeq(connection: Connection): Promise<number> {
  const counter = await counterOf(connection).findOneAndUpdate(
    { _id: 'feed' },
    { $inc: { seq: 1 } },
    { upsert: true, returnDocument: 'after' },
  );
  return counter!.seq;
}

/** The newest bucket (-1 while nothing was ever posted). */
export async function newestFeedBucket(connection: Connection): Promise<number> {
  const counter = await counterOf(connection).findOne({ _id: 'feed' });
  return counter ? feedBucketOf(counter.seq) : -1;
}
