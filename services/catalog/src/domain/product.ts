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
    /** UTC hour of created_at ("2026-11-22T09"): the feed reads one hour at a time (see feed.ts). */
    feed_hour: { type: String, required: true },
    /** Set while a deletion's event is being published; the document goes right after. */
    deleting: { type: Boolean, default: false },
    outbox: OutboxField,
  },
  { collection: 'product', versionKey: false },
);
ProductSchema.index({ product_id: 1 }, { unique: true });
ProductSchema.index({ created_at: -1, product_id: -1 });
ProductSchema.index({ feed_hour: 1, created_at: -1, product_id: -1 });
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

/** Days that have (or had) products, each listing its hours with products: one small document per day. */
const FeedDaySchema = new Schema(
  { day: { type: String, required: true }, hours: { type: [String], default: [] } },
  { collection: 'feed_day', versionKey: false },
);
FeedDaySchema.index({ day: 1 }, { unique: true });

export function feedDayModel(connection: Connection) {
  return connection.model('FeedDay', FeedDaySchema);
}
export type FeedDayModel = ReturnType<typeof feedDayModel>;

export const feedHourOf = (date: Date) => date.toISOString().slice(0, 13);

/** Lists the product's hour before the product is written, so the feed never misses it. */
export async function listFeedHour(FeedDay: FeedDayModel, createdAt: Date): Promise<string> {
  const hour = feedHourOf(createdAt);
  await FeedDay.updateOne({ day: hour.slice(0, 10) }, { $addToSet: { hours: hour.slice(11, 13) } }, { upsert: true });
  return hour;
}
