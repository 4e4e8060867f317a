// Follows the catalog: images are attached when a product is created and removed with it.
// Both handlers are idempotent (attach only unattached images; remove what is still there).
import { ProductCreated, ProductDeleted } from '@tuber/contracts';
import type { EventBus } from '@tuber/kit';
import type { ImageModel } from '../domain/images.js';
import { attachImages, removeProductImages } from '../domain/lifecycle.js';
import type { ImageStore } from '../storage.js';

export async function followProducts(bus: EventBus, Image: ImageModel, store: ImageStore): Promise<void> {
  await bus.consume(ProductCreated, { durable: 'media-attach-images' }, async (event) => {
    await attachImages(Image, event.product_id, event.farmer_id, event.image_ids);
  });
  await bus.consume(ProductDeleted, { durable: 'media-remove-images' }, async (event) => {
    // Images a deleted product had attached, plus any of its ids attach never reached.
    await attachImages(Image, event.product_id, event.farmer_id, event.image_ids);
    await removeProductImages(Image, store, bus, event.product_id);
  });
}
