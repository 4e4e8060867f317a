// A moderator's decisions, enforced in the catalog (issue 26, docs/adr/0071). A hidden listing, or any listing of
// a suspended farmer, is withheld: out of the feed, search, the farm page and carts (the product answers 404),
// still in the farmer's own list with the reason. Each source moves forward by its own revision; the product
// is written under its lock (an edit or a stock take may be writing it), then its read-model copy follows.
import { AccountModerated, ListingModerated } from '@tuber/contracts';
import type { EventBus, RedisClient } from '@tuber/kit';
import type { FastifyBaseLogger } from 'fastify';
import { productDocumentLock } from '../domain/product-lock.js';
import type { ProductModel } from '../domain/product.js';
import type { Projections } from '../domain/projections.js';
import type { ReadModel } from '../domain/read-model.js';

export async function followModeration(
  bus: EventBus,
  deps: { projections: Projections; Product: ProductModel; readModel: ReadModel; redis: RedisClient; log: FastifyBaseLogger },
): Promise<void> {
  const { projections, Product, readModel, log } = deps;
  const lock = productDocumentLock(deps.redis);
  await projections.FarmerStanding.init();

  /** Sets the product's flags from `change` and recomputes `withheld`, under its lock. */
  const apply = (productId: string, change: (doc: { moderation_hidden?: boolean | null; farmer_suspended?: boolean | null; moderation_revision?: number | null }) => Record<string, unknown> | null) =>
    lock({ product_id: productId }, async () => {
      const doc = await Product.findOne({ product_id: productId }, { moderation_hidden: 1, farmer_suspended: 1, moderation_revision: 1, farmer_id: 1, deleting: 1 }).lean();
      if (!doc || doc.deleting) return undefined;
      const set = change(doc);
      if (!set) return undefined;
      const next = { ...doc, ...set } as { moderation_hidden?: boolean; farmer_suspended?: boolean };
      await Product.updateOne({ product_id: productId }, { $set: { ...set, withheld: Boolean(next.moderation_hidden || next.farmer_suspended) } });
      return doc.farmer_id;
    });

  await bus.consume(ListingModerated, { durable: 'catalog-listing-moderated' }, async (event) => {
    const farmerId = await apply(event.product_id, (doc) =>
      (doc.moderation_revision ?? 0) >= event.revision
        ? null
        : { moderation_hidden: event.hidden, moderation_reason: event.reason ?? undefined, moderation_revision: event.revision },
    );
    if (farmerId === undefined) return;
    await readModel.refresh(event.product_id, farmerId);
    log.info({ productId: event.product_id, hidden: event.hidden }, event.hidden ? 'listing hidden by a moderator' : 'listing shown again by a moderator');
  });

  await bus.consume(AccountModerated, { durable: 'catalog-account-moderated' }, async (event) => {
    const farmerId = event.user_id;
    const current = await projections.FarmerStanding.findOne({ farmer_id: farmerId }, { revision: 1 }).lean();
    if (current && current.revision >= event.revision) return;
    if (!current) await projections.FarmerStanding.create({ farmer_id: farmerId, suspended: event.suspended, revision: event.revision });
    else await projections.FarmerStanding.updateOne({ farmer_id: farmerId, revision: current.revision }, { $set: { suspended: event.suspended, revision: event.revision } });
    // A buyer's account has no products: nothing else to do.
    const products = await Product.find({ farmer_id: farmerId, deleting: { $ne: true } }, { product_id: 1 }).lean();
    for (const { product_id } of products) await apply(product_id, () => ({ farmer_suspended: event.suspended }));
    if (products.length) await readModel.refreshFarmer(farmerId);
    log.info({ farmerId, suspended: event.suspended, products: products.length }, event.suspended ? 'a suspended farmer’s listings withheld' : 'a restored farmer’s listings back');
  });
}
