// Consumers that keep the catalog's projections current. Idempotent: farmers are replaced only
// by a newer revision, images are inserted once by id and marked when removed; a farmer's new
// name and place are copied onto their products. A deleted account takes its farmer and products.
import { AccountDeleted, FarmerProfileChanged, FarmerRatingChanged, ImageRemoved, ImageStored, ProductCreated, ProductDeleted } from '@tuber/contracts';
import { flushOutbox, pendingEvent, type EventBus, type RedisClient } from '@tuber/kit';
import { productDocumentLock } from '../domain/product-lock.js';
import type { ProductModel } from '../domain/product.js';
import type { Projections } from '../domain/projections.js';
import type { ReadModel } from '../domain/read-model.js';
import { searchTermsOf } from '../domain/search-terms.js';

export async function followProjections(
  bus: EventBus,
  projections: Projections,
  Product: ProductModel,
  readModel: ReadModel,
  redis: RedisClient,
): Promise<void> {
  const lock = productDocumentLock(redis);
  await projections.RemovedFarmer.init();
  await bus.consume(FarmerProfileChanged, { durable: 'catalog-farmers' }, async (event) => {
    const { farmer_id, business_name, location, tuber, revision } = event;
    if (await projections.RemovedFarmer.exists({ farmer_id })) return; // the account is gone
    const current = await projections.Farmer.findOne({ farmer_id }, { revision: 1 }).lean();
    if (current && current.revision > revision) return; // stale
    if (!current) {
      // A duplicate-key error here means another delivery won the insert; the redelivery re-checks.
      await projections.Farmer.create({ farmer_id, business_name, location, tuber, revision });
    } else if (current.revision < revision) {
      await projections.Farmer.updateOne({ farmer_id, revision: current.revision }, { $set: { business_name, location, tuber, revision } });
    }
    // The name and place are search words too (ADR 0029): the words of each product that does not
    // carry them yet are computed again (a repeated delivery finishes what a stopped one left). One
    // product at a time under its lock: a delete or an edit of it may be writing at this moment.
    const behind = await Product.find(
      { farmer_id, deleting: { $ne: true }, $or: [{ business_name: { $ne: business_name } }, { location: { $ne: location } }] },
      { product_id: 1 },
    ).lean();
    for (const { product_id } of behind) {
      await lock({ product_id }, async () => {
        const p = await Product.findOne({ product_id, deleting: { $ne: true } }, { product_name: 1, description: 1, tuber_type: 1 }).lean();
        if (!p) return; // deleted meanwhile
        const words = searchTermsOf({
          product_name: p.product_name,
          description: p.description,
          tuber_type: p.tuber_type,
          business_name,
          location,
        });
        await Product.updateOne({ product_id, deleting: { $ne: true } }, { $set: { business_name, location, ...words } });
      });
    }
    await readModel.refreshFarmer(farmer_id);
  });

  // A farmer's rating (issue 26): kept with the farmer and copied onto their products for the cards. A late
  // delivery of an older rating changes nothing (its revision is behind).
  await bus.consume(FarmerRatingChanged, { durable: 'catalog-farmer-rating' }, async (event) => {
    const { farmer_id, count, stars_sum, revision } = event;
    if (await projections.RemovedFarmer.exists({ farmer_id })) return; // the account is gone
    const current = await projections.FarmerRating.findOne({ farmer_id }, { revision: 1 }).lean();
    if (current && current.revision >= revision) return;
    if (!current) {
      // A duplicate-key error here means another delivery won the insert; the redelivery re-checks.
      await projections.FarmerRating.create({ farmer_id, count, stars_sum, revision });
    } else {
      await projections.FarmerRating.updateOne({ farmer_id, revision: current.revision }, { $set: { count, stars_sum, revision } });
    }
    // Onto each product under its lock: an edit of it may be writing at this moment.
    const products = await Product.find({ farmer_id, deleting: { $ne: true } }, { product_id: 1 }).lean();
    for (const { product_id } of products) {
      await lock({ product_id }, async () => {
        await Product.updateOne({ product_id, deleting: { $ne: true } }, { $set: { farmer_rating_count: count, farmer_rating_stars_sum: stars_sum } });
      });
    }
    await readModel.refreshFarmer(farmer_id);
  });

  // The read model (ADR 0023) follows the catalog's own events too: each re-reads the product
  // from MongoDB and copies what it finds (or removes it), so a write-through that did not happen
  // (a crash, Redis away) is made good, and a late or repeated event changes nothing.
  await bus.consume(ProductCreated, { durable: 'catalog-read-model-created' }, async (event) => {
    await readModel.refresh(event.product_id, event.farmer_id);
  });
  await bus.consume(ProductDeleted, { durable: 'catalog-read-model-deleted' }, async (event) => {
    await readModel.refresh(event.product_id, event.farmer_id);
  });

  await bus.consume(ImageStored, { durable: 'catalog-images' }, async (event) => {
    await projections.Image.updateOne(
      { image_id: event.image_id },
      { $setOnInsert: { farmer_id: event.farmer_id, url: event.url, card_url: event.card_url, thumb_url: event.thumb_url } },
      { upsert: true },
    );
  });

  // A removed image can no longer be posted. A tombstone rather than a delete: the two events travel
  // on different consumers, and an ImageStored handled late must not bring the image back.
  await bus.consume(ImageRemoved, { durable: 'catalog-images-removed' }, async (event) => {
    await projections.Image.updateOne(
      { image_id: event.image_id },
      { $set: { removed: true }, $setOnInsert: { farmer_id: event.farmer_id, url: '', card_url: '', thumb_url: '' } },
      { upsert: true },
    );
  });

  // A deleted account's products go as if the farmer had deleted each (ProductDeleted, so the media
  // service removes their photos), and the farmer can no longer post. Each step is one document
  // write and can be repeated: a redelivery marks nothing new and finishes what was left.
  await bus.consume(AccountDeleted, { durable: 'catalog-account-deleted' }, async (event) => {
    const farmer_id = event.user_id;
    await projections.RemovedFarmer.updateOne(
      { farmer_id },
      { $setOnInsert: { farmer_id, deleted_at: new Date(event.deleted_at) } },
      { upsert: true },
    );
    await projections.Farmer.deleteOne({ farmer_id });
    await projections.FarmerRating.deleteOne({ farmer_id });
    const deletedAt = new Date().toISOString();
    for (const product of await Product.find({ farmer_id, deleting: { $ne: true } }, { product_id: 1, image_ids: 1 }).lean()) {
      const { product_id } = product;
      await lock({ product_id }, async () => {
        // Read again under the lock: an edit may have changed its photos since.
        const now = await Product.findOne({ product_id, deleting: { $ne: true } }, { image_ids: 1 }).lean();
        if (!now) return;
        await Product.updateOne(
          { product_id, deleting: { $ne: true } },
          {
            $set: { deleting: true },
            $push: {
              outbox: pendingEvent(
                ProductDeleted,
                { product_id, farmer_id, image_ids: now.image_ids, deleted_at: deletedAt },
                `product-deleted:${product_id}`,
              ),
            },
          },
        );
      });
    }
    for (const product of await Product.find({ farmer_id, deleting: true }, { product_id: 1 }).lean()) {
      // Throws if the bus is away: the event is redelivered (and the outbox relay publishes meanwhile).
      await flushOutbox(Product, { product_id: product.product_id }, bus);
      await Product.deleteOne({ product_id: product.product_id, deleting: true, 'outbox.0': { $exists: false } });
    }
    await readModel.refreshFarmer(farmer_id);
  });
}
