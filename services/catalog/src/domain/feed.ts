// The buyer feed from the database, newest first, one page at a time (ADR 0023): the path taken
// while the Redis read model (read-model.ts) is away or being rebuilt, and what a MongoDB serves.
// Products are numbered as they are posted (one counter document, `$inc`) and grouped in buckets
// of at most FEED_BUCKET_SIZE; a page reads whole buckets with a plain equality filter — which
// FerretDB pushes down to PostgreSQL, and MongoDB serves from the (feed_bucket, created_at,
// product_id) index — newest bucket first, and settles the order inside them here. However
// crowded an hour, a page reads a few buckets of at most 100 products.
//
// Numbers follow posting order, created_at follows the clock read just after, so two posts a few
// milliseconds apart may sit in buckets in the other order. A page therefore starts one bucket
// above the cursor's and reads one bucket beyond the one that filled it, and sorts them together.
//
// Sold-out products come after all others (ADR 0029), so the feed has two parts: the buckets as
// above without the sold-out products, then the sold-out ones, newest first, read by their status
// (an equality FerretDB pushes down; MongoDB serves it from the status index).
import type { Connection } from 'mongoose';
import type { ProductDocument, ProductModel } from './product.js';
import { newestFeedBucket } from './product.js';
import type { FeedPosition } from './cursor.js';

/** Feed order: newest first, product id breaking ties. */
export function comesBefore(a: { created_at: Date; product_id: string }, b: { created_at: Date; product_id: string }): boolean {
  const at = a.created_at.getTime();
  const bt = b.created_at.getTime();
  return at !== bt ? at > bt : a.product_id > b.product_id;
}

export async function readFeedPage(
  models: { Product: ProductModel; connection: Connection },
  limit: number,
  position?: FeedPosition,
): Promise<{ items: ProductDocument[]; more: boolean }> {
  if (position?.soldOut) return readSoldOut(models.Product, limit, position);
  const after = position && { created_at: position.createdAt, product_id: position.productId };
  const newest = await newestFeedBucket(models.connection);
  const items: ProductDocument[] = [];
  let bucket = position ? Math.min(position.bucket + 1, newest) : newest;
  let filled = false;
  for (; bucket >= 0; bucket -= 1) {
    const inBucket = await models.Product.find({ feed_bucket: bucket }).lean();
    for (const product of inBucket) {
      if (product.deleting !== true && product.withheld !== true && product.status !== 'sold_out' && (!after || comesBefore(after, product))) items.push(product);
    }
    if (filled) break; // the one bucket beyond: stragglers of a near-simultaneous post
    filled = items.length > limit && (!position || bucket <= position.bucket);
  }
  items.sort((a, b) => (comesBefore(a, b) ? -1 : 1));
  if (items.length > limit) return { items: items.slice(0, limit), more: true };
  // The first part is over: the sold-out products follow.
  const soldOut = await readSoldOut(models.Product, limit - items.length);
  return { items: [...items, ...soldOut.items], more: soldOut.more };
}

/** Sold-out products, newest first, after a position among them. */
async function readSoldOut(
  Product: ProductModel,
  limit: number,
  position?: FeedPosition,
): Promise<{ items: ProductDocument[]; more: boolean }> {
  const after = position && {
    $or: [{ created_at: { $lt: position.createdAt } }, { created_at: position.createdAt, product_id: { $lt: position.productId } }],
  };
  const found = await Product.find({ status: 'sold_out', deleting: { $ne: true }, withheld: { $ne: true }, ...(after ?? {}) })
    .sort({ created_at: -1, product_id: -1 })
    .limit(limit + 1)
    .lean();
  return { items: found.slice(0, limit), more: found.length > limit };
}
