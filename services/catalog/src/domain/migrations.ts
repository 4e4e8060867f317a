// One-off data changes run at start-up, through the native `mongodb` driver (the connection's
// `db`), each idempotent and quick when there is nothing to do.
import type { Connection, mongo } from 'mongoose';
import { FEED_COUNTER, feedBucketOf } from './product.js';

/**
 * Products written before feed buckets (ADR 0023; they had an hour, ADR 0014) are numbered
 * oldest first and get their bucket. When the counter does not exist yet they take numbers
 * 1…n and the counter starts at n, so every later post lands in a newer bucket. Products still
 * without a bucket once the counter exists (a migration cut short) take the next numbers.
 */
export async function assignFeedBuckets(connection: Connection): Promise<number> {
  const db = connection.db!;
  const products = db.collection('product');
  const counter = db.collection<{ _id: string; seq: number }>(FEED_COUNTER);
  const missing = await products
    .find({ feed_bucket: { $exists: false } }, { projection: { _id: 1, created_at: 1, product_id: 1 } })
    .toArray();
  if (missing.length === 0) return 0;
  missing.sort((a, b) => {
    const at = (a.created_at as Date).getTime();
    const bt = (b.created_at as Date).getTime();
    return at !== bt ? at - bt : String(a.product_id) < String(b.product_id) ? -1 : 1;
  });
  let first: number;
  try {
    // Only the first migration creates the counter: a duplicate key says another start did.
    await counter.insertOne({ _id: 'feed', seq: missing.length });
    first = 1;
  } catch (err) {
    if ((err as { code?: number }).code !== 11000) throw err;
    const after = await counter.findOneAndUpdate({ _id: 'feed' }, { $inc: { seq: missing.length } }, { returnDocument: 'after' });
    first = after!.seq - missing.length + 1;
  }
  // One update per bucket (at most FEED_BUCKET_SIZE products each).
  const byBucket = new Map<number, unknown[]>();
  missing.forEach((product, i) => {
    const bucket = feedBucketOf(first + i);
    byBucket.set(bucket, [...(byBucket.get(bucket) ?? []), product._id]);
  });
  for (const [bucket, ids] of byBucket) {
    await products.updateMany({ _id: { $in: ids as never[] }, feed_bucket: { $exists: false } }, { $set: { feed_bucket: bucket } });
  }
  return missing.length;
}

/**
 * Statements in one bulk write, at most. FerretDB 1.24 holds a PostgreSQL connection for every
 * statement of an `update` command until the command ends: a bulk write of 50 statements or more
 * exhausts its pool of 50 and stalls the whole server (measured; ADR 0030). 20 leaves room for the
 * service's other requests. MongoDB takes any size.
 */
export const SAFE_BULK_WRITE = 20;

/** How many products one migration write converts at most. */
export const UNIT_MIGRATION_BATCH = SAFE_BULK_WRITE;

/**
 * Products from before selling units (issue 11, ADR 0030) become products sold per kg: unit 'kg',
 * unit weight 1, their `kg` as the quantity, available while it is above 0 (sold out otherwise), the
 * price per kg their price, revision 1. Idempotent (only documents without a unit are touched, each
 * update re-checks that), and bounded: the few fields needed are read first (no cursor stays open
 * while writing), then one bulk write of at most `batchSize` updates at a time. Returns how many
 * products it converted.
 */
export async function assignSellingUnits(
  connection: Connection,
  options: {
    /** Updates per bulk write, at most SAFE_BULK_WRITE (tests use a smaller one). */
    batchSize?: number;
  } = {},
): Promise<number> {
  const batchSize = Math.min(options.batchSize ?? UNIT_MIGRATION_BATCH, SAFE_BULK_WRITE);
  const products = connection.db!.collection('product');
  const old = await products.find({ unit: { $exists: false } }, { projection: { _id: 1, kg: 1, price_kobo: 1, revision: 1 } }).toArray();
  let converted = 0;
  for (let at = 0; at < old.length; at += batchSize) {
    const batch: mongo.AnyBulkWriteOperation[] = old.slice(at, at + batchSize).map((doc) => {
      const quantity = typeof doc.kg === 'number' && doc.kg >= 0 ? doc.kg : 0;
      const priceKobo = typeof doc.price_kobo === 'number' ? doc.price_kobo : 0;
      return {
        updateOne: {
          filter: { _id: doc._id, unit: { $exists: false } },
          update: {
            $set: {
              unit: 'kg',
              unit_weight_kg: 1,
              quantity,
              status: quantity > 0 ? 'available' : 'sold_out',
              price_per_kg_kobo: priceKobo,
              revision: typeof doc.revision === 'number' && doc.revision >= 1 ? doc.revision : 1,
            },
          },
        },
      };
    });
    converted += (await products.bulkWrite(batch, { ordered: false })).modifiedCount;
  }
  return converted;
}
