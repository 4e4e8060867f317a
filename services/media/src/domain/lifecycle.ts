// What happens to stored images over time: attached when a product takes them, removed with
// their product, and removed when no product took them within the grace period.
import type { ImageStore } from '../storage.js';
import type { ImageModel } from './images.js';
import { variantName } from './image.js';

export async function removeImageFiles(store: ImageStore, fileName: string): Promise<void> {
  await Promise.all([fileName, variantName(fileName, 'card'), variantName(fileName, 'thumb')].map((name) => store.remove(name)));
}

/** Attaching twice, or attaching images that are already attached to this product, changes nothing. */
export async function attachImages(Image: ImageModel, productId: string, farmerId: string, imageIds: string[]): Promise<number> {
  const result = await Image.updateMany({ image_id: { $in: imageIds }, farmer_id: farmerId, product_id: null }, { $set: { product_id: productId } });
  return result.modifiedCount;
}

/** Removes files first, then metadata, so a failure leaves a record to retry from, never an orphaned file. */
export async function removeProductImages(Image: ImageModel, store: ImageStore, productId: string): Promise<number> {
  const images = await Image.find({ product_id: productId }, { image_id: 1, file_name: 1 }).lean();
  for (const image of images) {
    await removeImageFiles(store, image.file_name);
    await Image.deleteOne({ image_id: image.image_id });
  }
  return images.length;
}

/** Marks an image being removed, so a product can no longer take it. */
const SWEEPING = '(removing)';

export async function sweepOrphans(Image: ImageModel, store: ImageStore, olderThan: Date): Promise<number> {
  const candidates = await Image.find({ product_id: null, created_at: { $lt: olderThan } }, { image_id: 1 }).limit(500).lean();
  let removed = 0;
  for (const { image_id } of candidates) {
    // Claim it first: a product attaching it at the same moment then finds nothing to attach.
    const claimed = await Image.findOneAndUpdate({ image_id, product_id: null }, { $set: { product_id: SWEEPING } }).lean();
    if (!claimed) continue;
    await removeImageFiles(store, claimed.file_name);
    await Image.deleteOne({ image_id });
    removed += 1;
  }
  // A sweep interrupted after claiming is finished by the next one.
  const stuck = await Image.find({ product_id: SWEEPING }, { image_id: 1, file_name: 1 }).lean();
  for (const image of stuck) {
    await removeImageFiles(store, image.file_name);
    await Image.deleteOne({ image_id: image.image_id });
  }
  return removed;
}
