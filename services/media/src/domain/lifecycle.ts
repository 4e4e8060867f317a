// What happens to stored images over time: attached when a product takes them, removed with
// their product, and removed when no product took them within the grace period. Every removal
// tells the other services (ImageRemoved) so that nobody can use the image afterwards.
import { ImageRemoved, type EventPayload } from '@tuber/contracts';
import { flushOutbox, pendingEvent, type EventBus } from '@tuber/kit';
import type { ImageStore } from '../storage.js';
import type { ImageModel } from './images.js';
import { variantName } from './image.js';
import { objectNameOf } from './object-name.js';

type RemovalReason = EventPayload<typeof ImageRemoved>['reason'];

/** Removes an image's object and its variants from the bucket (by object name). */
export async function removeImageFiles(store: ImageStore, objectName: string): Promise<void> {
  await Promise.all([objectName, variantName(objectName, 'card'), variantName(objectName, 'thumb')].map((name) => store.remove(name)));
}

/** Photos the farmer uploaded that no product uses (and that are not on their way out). */
export const countUnattached = (Image: ImageModel, farmerId: string) =>
  Image.countDocuments({ farmer_id: farmerId, product_id: null, removing: { $ne: true } });

/** Attaching twice, or attaching images that are already attached to this product, changes nothing. */
export async function attachImages(Image: ImageModel, productId: string, farmerId: string, imageIds: string[]): Promise<number> {
  const result = await Image.updateMany(
    { image_id: { $in: imageIds }, farmer_id: farmerId, product_id: null },
    { $set: { product_id: productId } },
  );
  return result.modifiedCount;
}

/** The product id a swept image is claimed with, so that no product can take it meanwhile. */
const SWEEPING = '(removing)';

/**
 * Marks the images matching `filter` for removal and records their ImageRemoved events, one
 * atomic update per image; `finishRemovals` then does the rest.
 */
async function markForRemoval(
  Image: ImageModel,
  filter: Record<string, unknown>,
  set: Record<string, unknown>,
  reason: RemovalReason,
  limit: number,
): Promise<void> {
  const candidates = await Image.find({ ...filter, removing: { $ne: true } }, { image_id: 1, farmer_id: 1 })
    .limit(limit)
    .lean();
  for (const { image_id, farmer_id } of candidates) {
    const event = pendingEvent(
      ImageRemoved,
      { image_id, farmer_id, reason, removed_at: new Date().toISOString() },
      `image-removed:${image_id}`,
    );
    await Image.updateOne({ ...filter, image_id, removing: { $ne: true } }, { $set: { ...set, removing: true }, $push: { outbox: event } });
  }
}

/**
 * Removes the files of every image marked for removal, publishes its event, then drops the record.
 * Safe to repeat: missing files are fine, and a record goes only once its event is out.
 */
export async function finishRemovals(Image: ImageModel, store: ImageStore, bus: EventBus): Promise<number> {
  const marked = await Image.find({ removing: true }, { image_id: 1, file_name: 1, object_name: 1 }).lean();
  let removed = 0;
  for (const image of marked) {
    await removeImageFiles(store, objectNameOf(image));
    await flushOutbox(Image, { image_id: image.image_id }, bus);
    const gone = await Image.deleteOne({ image_id: image.image_id, removing: true, 'outbox.0': { $exists: false } });
    removed += gone.deletedCount;
  }
  return removed;
}

export async function removeProductImages(Image: ImageModel, store: ImageStore, bus: EventBus, productId: string): Promise<number> {
  await markForRemoval(Image, { product_id: productId }, {}, 'product-deleted', 50);
  return finishRemovals(Image, store, bus);
}

export async function sweepOrphans(Image: ImageModel, store: ImageStore, bus: EventBus, olderThan: Date): Promise<number> {
  // Claimed with a product id of its own: a product attaching it at the same moment finds nothing to attach.
  await markForRemoval(Image, { product_id: null, created_at: { $lt: olderThan } }, { product_id: SWEEPING }, 'never-attached', 500);
  return finishRemovals(Image, store, bus);
}
