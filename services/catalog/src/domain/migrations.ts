// One-off data changes run at start-up, through the native `mongodb` driver (the connection's
// `db`), each idempotent and quick when there is nothing to do: once a pass has run to its end it
// is recorded in `migrations`, and later starts read only that record (by `_id`, which FerretDB
// pushes down to PostgreSQL).
//
// FerretDB 1.24 pushes only equality down (and `$ne` on a scalar); a filter on a missing field
// (`$exists`, `null`, `$size`) makes it read and decode every document of the collection before it
// answers the first batch. At 100 k products that is 21–36 s per query on an idle machine; on a
// busy one it passes the driver's 30 s socket timeout, the driver retries once and the start fails
// after a minute, while FerretDB goes on with both abandoned scans (it does not cancel them). So a
// pass reads the collection as a stream of small projected batches (productsWhere) and picks the
// documents here, and runs only until its record exists (once).
import type { Connection, mongo } from 'mongoose';
import { FEED_COUNTER, feedBucketOf } from './product.js';

/** Records of the start-up migrations that have run to their end: `{ _id: <name>, done_at }`. */
export const MIGRATIONS = 'migrations';

/** Documents per batch of a pass's read. */
const SCAN_BATCH = 1_000;

/**
 * Runs `pass` unless a record says it already ran to its end, then records it (a pass cut short
 * records nothing and runs again at the next start). Returns what the pass returned (0 when
 * skipped). Every writer of this version stores the fields the passes fill in, so a record stays
 * true; an older version writing again (a rollback) would need the record removed when rolling
 * forward (`db.migrations.deleteMany({})`: the passes are idempotent).
 */
export async function once(connection: Connection, name: string, pass: () => Promise<number>): Promise<number> {
  const records = connection.db!.collection<{ _id: string; done_at: Date }>(MIGRATIONS);
  if (await records.findOne({ _id: name })) return 0;
  const result = await pass();
  try {
    // An insert, not an upsert: the record is not an `update` command (the migration test counts those).
    await records.insertOne({ _id: name, done_at: new Date() });
  } catch (err) {
    if ((err as { code?: number }).code !== 11000) throw err; // another start recorded it first
  }
  return result;
}

/**
 * The products `wanted` picks, with `fields` (which must include what `wanted` looks at): the
 * whole collection read as a stream of projected batches, picked here rather than by a query
 * filter FerretDB would run in its own memory before answering at all (see the top of this file).
 * Read to the end before anything is written, so no cursor stays open while writing.
 */
export async function productsWhere(
  connection: Connection,
  fields: Record<string, 1>,
  wanted: (doc: mongo.Document) => boolean,
): Promise<mongo.Document[]> {
  const found: mongo.Document[] = [];
  const cursor = connection.db!.collection('product').find({}, { projection: { _id: 1, ...fields }, batchSize: SCAN_BATCH });
  for await (const doc of cursor) if (wanted(doc)) found.push(doc);
  return found;
}

/**
 * Products written before feed buckets (ADR 0023; they had an hour, ADR 0014) are numbered
 * oldest first and get their bucket. When the counter does not exist yet they take numbers
 * 1…n and the counter starts at n, so every later post lands in a newer bucket. Products still
 * without a bucket once the counter exists (a migration cut short) take the next numbers.
 */
export function assignFeedBuckets(connection: Connection): Promise<number> {
  return once(connection, 'feed-buckets', () => numberUnbucketed(connection));
}

async function numberUnbucketed(connection: Connection): Promise<number> {
  const db = connection.db!;
  const products = db.collection('product');
  const counter = db.collection<{ _id: string; seq: number }>(FEED_COUNTER);
  const missing = await productsWhere(connection, { created_at: 1, product_id: 1, feed_bucket: 1 }, (doc) => doc.feed_bucket === undefined);
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
export function assignSellingUnits(
  connection: Connection,
  options: {
    /** Updates per bulk write, at most SAFE_BULK_WRITE (tests use a smaller one). */
    batchSize?: number;
  } = {},
): Promise<number> {
  return once(connection, 'selling-units', () =>
    convertToUnits(connection, Math.min(options.batchSize ?? UNIT_MIGRATION_BATCH, SAFE_BULK_WRITE)),
  );
}

async function convertToUnits(connection: Connection, batchSize: number): Promise<number> {
  const products = connection.db!.collection('product');
  const old = await productsWhere(connection, { unit: 1, kg: 1, price_kobo: 1, revision: 1 }, (doc) => doc.unit === undefined);
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
