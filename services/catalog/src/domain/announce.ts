// Announce once (issue 12, ADR 0033): the orders service keeps its own copy of every product
// (name, price, unit, stock, status, farmer), filled from ProductCreated and ProductChanged. Products
// posted before those events carried all of it are announced once, at start-up: each gets a
// ProductChanged with `changed: ['snapshot']` through its own outbox, and is marked `announced`
// in the same document update so no later start repeats it. Products posted since are announced by
// their ProductCreated.
import { ProductChanged, type EventPayload } from '@tuber/contracts';
import { pendingEvent, type RedisClient } from '@tuber/kit';
import type { FastifyBaseLogger } from 'fastify';
import { SAFE_BULK_WRITE } from './migrations.js';
import { tryProductLock } from './product-lock.js';
import { toApiProduct, type ProductModel } from './product.js';

/** The message id of a product's snapshot: one per (product, revision), so a repeat is de-duplicated. */
export const snapshotMessageId = (productId: string, revision: number) => `product-snapshot:${productId}:${revision}`;

/**
 * Records the snapshot of every product not yet announced, at most SAFE_BULK_WRITE per bulk write
 * (FerretDB 1.24 stalls on 50 statements or more, ADR 0030). Each product is written under its
 * write lock (FerretDB 1.x could lose an edit made at the same moment); one held by a write now is
 * left for the next pass. The outbox relay publishes what is recorded. Returns how many it recorded.
 */
export async function announceProducts(
  Product: ProductModel,
  redis: RedisClient,
  log: FastifyBaseLogger,
  options: { batchSize?: number; passes?: number } = {},
): Promise<number> {
  const batchSize = Math.min(options.batchSize ?? SAFE_BULK_WRITE, SAFE_BULK_WRITE);
  let recorded = 0;
  for (let pass = 0; pass < (options.passes ?? 5); pass++) {
    const ids = (await Product.find({ announced: { $ne: true }, deleting: { $ne: true } }, { product_id: 1 }).lean()).map(
      (p) => p.product_id,
    );
    if (ids.length === 0) break;
    let busy = 0;
    for (let at = 0; at < ids.length; at += batchSize) {
      const releases: (() => Promise<void>)[] = [];
      try {
        const locked: string[] = [];
        for (const id of ids.slice(at, at + batchSize)) {
          const release = await tryProductLock(redis, id);
          if (release) {
            releases.push(release);
            locked.push(id);
          } else busy += 1;
        }
        if (locked.length === 0) continue;
        // Read under the lock: the snapshot is the product as it is now.
        const products = await Product.find({ product_id: { $in: locked }, announced: { $ne: true }, deleting: { $ne: true } }).lean();
        if (products.length === 0) continue;
        const at_ = new Date().toISOString();
        const result = await Product.bulkWrite(
          products.map((doc) => {
            const api = toApiProduct(doc);
            const payload: EventPayload<typeof ProductChanged> = {
              product_id: doc.product_id,
              farmer_id: doc.farmer_id,
              revision: api.revision,
              changed: ['snapshot'],
              price_kobo: doc.price_kobo,
              unit: api.unit,
              quantity: api.quantity,
              status: api.status,
              image_ids: doc.image_ids ?? [],
              removed_image_ids: [],
              changed_at: at_,
              product_name: doc.product_name,
              ...(doc.stock_ops?.length ? { stock_ops: doc.stock_ops } : {}),
              tuber_type: doc.tuber_type,
              unit_weight_kg: api.unit_weight_kg,
            };
            return {
              updateOne: {
                filter: { product_id: doc.product_id, announced: { $ne: true }, deleting: { $ne: true } },
                update: {
                  $set: { announced: true },
                  $push: { outbox: pendingEvent(ProductChanged, payload, snapshotMessageId(doc.product_id, api.revision)) },
                },
              },
            };
          }) as never,
          { ordered: false },
        );
        recorded += result.modifiedCount;
      } finally {
        await Promise.all(releases.map((release) => release()));
      }
    }
    if (busy === 0) break;
    log.info({ busy }, 'products being written now are announced on the next pass');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return recorded;
}
