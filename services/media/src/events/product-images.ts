// Follows the catalog: images are attached when a product is created or an edit adds them, and
// removed with their product or when an edit takes them off it (issue 11). Every handler is
// idempotent (attach only unattached images; remove what is still there), and the order of
// deliveries does not matter: a photo taken off a product is never put back on one.
import { ProductChanged, ProductCreated, ProductDeleted } from '@tuber/contracts';
import type { EventBus } from '@tuber/kit';
import type { ImageModel } from '../domain/images.js';
import { attachImages, removeDetachedImages, removeProductImages } from '../domain/lifecycle.js';
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
  await bus.consume(ProductChanged, { durable: 'media-product-changed' }, async (event) => {
    await attachImages(Image, event.product_id, event.farmer_id, event.image_ids);
    const kept = new Set(event.image_ids);
    const detached = event.removed_image_ids.filter((id) => !kept.has(id));
    await removeDetachedImages(Image, store, bus, event.product_id, event.farmer_id, detached);
  });
}
