// Consumers that keep the catalog's projections current. Idempotent: farmers are replaced only
// by a newer revision, images are inserted once by id and marked when removed; a farmer's new
// name and place are copied onto their products.
import { FarmerProfileChanged, ImageRemoved, ImageStored } from '@tuber/contracts';
import type { EventBus } from '@tuber/kit';
import type { ProductModel } from '../domain/product.js';
import type { Projections } from '../domain/projections.js';

export async function followProjections(bus: EventBus, projections: Projections, Product: ProductModel): Promise<void> {
  await bus.consume(FarmerProfileChanged, { durable: 'catalog-farmers' }, async (event) => {
    const { farmer_id, business_name, location, tuber, revision } = event;
    const current = await projections.Farmer.findOne({ farmer_id }, { revision: 1 }).lean();
    if (current && current.revision >= revision) return; // stale or repeated
    if (current) {
      await projections.Farmer.updateOne({ farmer_id, revision: current.revision }, { $set: { business_name, location, tuber, revision } });
    } else {
      // A duplicate-key error here means another delivery won the insert; the redelivery re-checks.
      await projections.Farmer.create({ farmer_id, business_name, location, tuber, revision });
    }
    await Product.updateMany({ farmer_id }, { $set: { business_name, location } });
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
}
