// Start-up backfill of the search words (ADR 0029): products written before search, or by a
// version that did not store them, get `search_terms` and `location_terms` computed from their
// own fields. Idempotent (only documents without words are touched, each update re-checks that),
// bounded (one bulk write of at most `batchSize` updates at a time) and run until one pass has
// gone to its end (`once`): the products without words are picked from a streamed read, not by a
// `$or`/`$exists`/`$size` filter FerretDB 1.24 would run over the whole collection in its own
// memory before answering (see migrations.ts).
import type { Connection, mongo } from 'mongoose';
import { SAFE_BULK_WRITE, once, productsWhere } from './migrations.js';
import { searchTermsOf } from './search-terms.js';

const MISSING = { $or: [{ search_terms: { $exists: false } }, { search_terms: { $size: 0 } }] };
const missing = (doc: mongo.Document) => !Array.isArray(doc.search_terms) || doc.search_terms.length === 0;

// At most SAFE_BULK_WRITE statements per bulk write: FerretDB 1.24 stalls on 50 or more (ADR 0030).
export function backfillSearchTerms(connection: Connection, batchSize = SAFE_BULK_WRITE): Promise<number> {
  return once(connection, 'search-terms', () => backfill(connection, Math.min(batchSize, SAFE_BULK_WRITE)));
}

async function backfill(connection: Connection, batchSize: number): Promise<number> {
  const products = connection.db!.collection('product');
  const docs = await productsWhere(
    connection,
    { search_terms: 1, product_name: 1, description: 1, tuber_type: 1, business_name: 1, location: 1 },
    missing,
  );
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  let updated = 0;
  for (let at = 0; at < docs.length; at += batchSize) {
    const batch: mongo.AnyBulkWriteOperation[] = docs.slice(at, at + batchSize).map((doc) => {
      const terms = searchTermsOf({
        product_name: text(doc.product_name),
        description: text(doc.description),
        tuber_type: text(doc.tuber_type),
        business_name: text(doc.business_name),
        location: text(doc.location),
      });
      // The filter is `_id` (pushed down) and the same test again, on that one document.
      return { updateOne: { filter: { _id: doc._id, ...MISSING }, update: { $set: terms } } };
    });
    updated += (await products.bulkWrite(batch, { ordered: false })).modifiedCount;
  }
  return updated;
}
