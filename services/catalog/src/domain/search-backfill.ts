// Start-up backfill of the search words (ADR 0029): products written before search, or by a
// version that did not store them, get `search_terms` and `location_terms` computed from their
// own fields. Idempotent (only documents without words are touched, each update re-checks that)
// and bounded (one bulk write of at most `batchSize` updates at a time).
import type { Connection, mongo } from 'mongoose';
import { SAFE_BULK_WRITE } from './migrations.js';
import { searchTermsOf } from './search-terms.js';

const MISSING = { $or: [{ search_terms: { $exists: false } }, { search_terms: { $size: 0 } }] };

// At most SAFE_BULK_WRITE statements per bulk write: FerretDB 1.24 stalls on 50 or more (ADR 0030).
export async function backfillSearchTerms(connection: Connection, batchSize = SAFE_BULK_WRITE): Promise<number> {
  const products = connection.db!.collection('product');
  const cursor = products.find(MISSING, {
    projection: { _id: 1, product_name: 1, description: 1, tuber_type: 1, business_name: 1, location: 1 },
    batchSize,
  });
  let updated = 0;
  let batch: mongo.AnyBulkWriteOperation[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const result = await products.bulkWrite(batch, { ordered: false });
    updated += result.modifiedCount;
    batch = [];
  };
  for await (const doc of cursor) {
    const text = (v: unknown) => (typeof v === 'string' ? v : '');
    const terms = searchTermsOf({
      product_name: text(doc.product_name),
      description: text(doc.description),
      tuber_type: text(doc.tuber_type),
      business_name: text(doc.business_name),
      location: text(doc.location),
    });
    batch.push({ updateOne: { filter: { _id: doc._id, ...MISSING }, update: { $set: terms } } });
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return updated;
}
