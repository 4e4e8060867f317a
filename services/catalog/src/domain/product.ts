// The product document (spec §3) as the catalog stores it: price in kobo, created_at a Date.
// Issue 11 (ADR 0030): a product is sold in a unit (kg, tuber, heap, 50 kg bag, lot of 100) with
// the average weight of one unit; its stock is a quantity in that unit and it has a status. The
// price per unit in kobo stays the truth (ADR 0010); the price per kg is kept beside it, computed
// on every write, so the feed can filter and sort on it. `kg` is no longer stored: the API
// computes it (quantity × unit weight) for clients that know only kg.
import { Schema, type Connection, type InferSchemaType } from 'mongoose';
import { OutboxField } from '@tuber/kit';
import {
  PRODUCT_STATUSES,
  SELLING_UNITS,
  TUBER_SIZES,
  type Product,
  ratingOf,
  type ProductStatus,
  type SellingUnit,
  type TuberSize,
} from '@tuber/contracts';
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
    /** Price of one selling unit, in kobo: the truth (ADR 0010). */
    price_kobo: { type: Number, required: true, min: 0 },
    unit: { type: String, enum: SELLING_UNITS, required: true },
    /** Only with unit `tuber`. */
    tuber_size: { type: String, enum: TUBER_SIZES },
    /** Average kg of one unit (1 for kg), at most 2 decimals. */
    unit_weight_kg: { type: Number, required: true, min: 0.01 },
    /** Stock in the selling unit, at most 2 decimals (the spec's "Number of KG" for a product sold per kg). */
    quantity: { type: Number, required: true, min: 0 },
    status: { type: String, enum: PRODUCT_STATUSES, required: true },
    /** YYYY-MM-DD (Africa/Lagos), only with status `next_harvest`. */
    next_harvest: { type: String },
    /** price_kobo / unit_weight_kg rounded to a kobo: what the feed's price filter and sort use. */
    price_per_kg_kobo: { type: Number, required: true, min: 0 },
    tuber_type: { type: String, required: true },
    images: { type: [String], default: [] },
    image_cards: { type: [String], default: [] },
    image_thumbs: { type: [String], default: [] },
    image_ids: { type: [String], default: [] },
    location: { type: String, default: '' },
    business_name: { type: String, default: '' },
    /** The farmer's rating, copied from the farmer's projection (issue 26): shown on the cards. */
    farmer_rating_count: { type: Number },
    farmer_rating_stars_sum: { type: Number },
    cultural: { type: String, required: true },
    health: { type: String },
    nutrition: { type: NutritionSchema },
    created_at: { type: Date, required: true },
    updated_at: { type: Date },
    /** 1 when posted, +1 on every edit; an edit is conditional on the revision it read. */
    revision: { type: Number, required: true, default: 1 },
    /** Normalised words of the product for the feed's search (domain/search-terms.ts). */
    search_terms: { type: [String], default: [] },
    /** Normalised words of the location, for the feed's location filter (domain/search-terms.ts). */
    location_terms: { type: [String], default: [] },
    /** The feed bucket: products are numbered as posted and grouped FEED_BUCKET_SIZE at a time (see feed.ts, ADR 0023). */
    feed_bucket: { type: Number, required: true },
    /**
     * Keys of the stock changes order requests made ("<request_id>:take" / "<request_id>:give"), the
     * most recent STOCK_OPS_KEPT: a change whose key is here was applied (ADR 0033).
     */
    stock_ops: { type: [String], default: undefined },
    /**
     * What each recent take really took off the stock (the most recent STOCK_OPS_KEPT), in the unit
     * the product was sold in then: a give returns exactly that, never more (ADR 0033).
     */
    stock_taken: { type: [new Schema({ request_id: String, quantity: Number, unit: String }, { _id: false })], default: undefined },
    /** The product went sold out because a take brought it to 0: a give may make it available again. */
    sold_out_by_order: { type: Boolean },
    /** Its whole state was announced to other services (ProductCreated with every field, or a snapshot). */
    announced: { type: Boolean },
    /** Set while a deletion's event is being published; the document goes right after. */
    deleting: { type: Boolean, default: false },
    /**
     * Moderation (issue 26, docs/adr/0071): a listing a moderator hid (with the reason shown to its farmer), and a
     * farmer whose account is suspended. `withheld` is either: out of the feed, search, the farm page and carts
     * (404 to buyers), still in the farmer's own list with the reason. Each source moves forward by its revision.
     */
    moderation_hidden: { type: Boolean },
    moderation_reason: { type: String },
    moderation_revision: { type: Number },
    farmer_suspended: { type: Boolean },
    withheld: { type: Boolean },
    outbox: OutboxField,
  },
  { collection: 'product', versionKey: false },
);
ProductSchema.index({ product_id: 1 }, { unique: true });
ProductSchema.index({ created_at: -1, product_id: -1 });
ProductSchema.index({ feed_bucket: 1, created_at: -1, product_id: -1 });
ProductSchema.index({ farmer_id: 1, created_at: -1 });
// The feed's search, filters and sorts on the database path (ADR 0029).
ProductSchema.index({ search_terms: 1 });
ProductSchema.index({ location_terms: 1 });
ProductSchema.index({ tuber_type: 1, created_at: -1 });
ProductSchema.index({ status: 1, created_at: -1, product_id: -1 });
ProductSchema.index({ price_per_kg_kobo: 1, product_id: 1 });
ProductSchema.index({ price_kobo: 1, product_id: 1 });

export type ProductDocument = InferSchemaType<typeof ProductSchema>;

export function productModel(connection: Connection) {
  return connection.model('Product', ProductSchema);
}
export type ProductModel = ReturnType<typeof productModel>;

/** Rounds to 2 decimals (kg figures, naira). */
export const round2 = (value: number): number => Math.round(value * 100) / 100;

/** ₦ per kg in kobo: the price of one unit over its weight, rounded to a kobo. */
export const pricePerKgKobo = (priceKobo: number, unitWeightKg: number): number => Math.round(priceKobo / unitWeightKg);

/**
 * A product document of any age as the API shows it. A document from before selling units (not
 * yet migrated, see migrations.ts) reads as sold per kg, its `kg` the quantity.
 */
export function toApiProduct(doc: ProductDocument): Product {
  const legacy = doc as { kg?: number };
  const unit = (doc.unit ?? 'kg') as SellingUnit;
  const unitWeight = doc.unit_weight_kg ?? 1;
  const quantity = doc.quantity ?? legacy.kg ?? 0;
  const status = (doc.status ?? (quantity > 0 ? 'available' : 'sold_out')) as ProductStatus;
  return {
    product_id: doc.product_id,
    farmer_id: doc.farmer_id,
    product_name: doc.product_name,
    description: doc.description,
    price: koboToNaira(doc.price_kobo),
    unit,
    ...(doc.tuber_size ? { tuber_size: doc.tuber_size as TuberSize } : {}),
    unit_weight_kg: unitWeight,
    price_per_kg: koboToNaira(doc.price_per_kg_kobo ?? pricePerKgKobo(doc.price_kobo, unitWeight)),
    quantity,
    kg: round2(quantity * unitWeight),
    status,
    ...(status === 'next_harvest' && doc.next_harvest ? { next_harvest: doc.next_harvest } : {}),
    tuber_type: doc.tuber_type,
    images: doc.images,
    image_cards: doc.image_cards,
    image_thumbs: doc.image_thumbs,
    image_ids: doc.image_ids,
    location: doc.location,
    business_name: doc.business_name,
    ...(doc.farmer_rating_count ? { farmer_rating: ratingOf(doc.farmer_rating_count, doc.farmer_rating_stars_sum ?? 0) } : {}),
    cultural: doc.cultural,
    ...(doc.health ? { health: doc.health } : {}),
    ...(doc.nutrition ? { nutrition: doc.nutrition as NonNullable<Product['nutrition']> } : {}),
    created_at: doc.created_at.toISOString(),
    ...(doc.updated_at ? { updated_at: doc.updated_at.toISOString() } : {}),
    revision: doc.revision ?? 1,
    // Only the farmer's own list shows a withheld product (every other read leaves it out).
    ...(doc.withheld
      ? {
          withheld: {
            hidden: Boolean(doc.moderation_hidden),
            suspended: Boolean(doc.farmer_suspended),
            ...(doc.moderation_hidden && doc.moderation_reason ? { reason: doc.moderation_reason } : {}),
          },
        }
      : {}),
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
