// What happens to stored images over time: attached when a product takes them, removed with
// their product, and removed when no product took them within the grace period. Every removal
// tells the other services (ImageRemoved) so that nobody can use the image afterwards.
import { ImageRemoved, type EventPayload } from '@tuber/contracts';
import { flushOutbox, pendingEvent, withDocumentLock, type EventBus } from '@tuber/kit';
import type { ImageStore } from '../storage.js';
import type { ImageModel } from './images.js';
import { variantName } from './image.js';
import { objectNameOf } from './object-name.js';

type RemovalReason = EventPayload<typeof ImageRemoved>['reason'];

/** Removes an image's object and its variants from the bucket (by object name). */
export async function removeImageFiles(store: ImageStore, objectName: string): Promise<void> {
  await Promise.all([objectName, variantName(objectName, 'card'), variantName(objectName, 'thumb')].map((name) => store.remove(name)));
}

/**
 * Photos the farmer uploaded that no product uses (and that are not on their way out), uploads
 * under way included: the cap is checked again after an upload's own record exists.
 */
export const countUnattached = (Image: ImageModel, farmerId: string) =>
  Image.countDocuments({ farmer_id: farmerId, product_id: null, removing: { $ne: true } });

/**
 * Attaching twice, or attaching images that are already attached to this product, changes nothing.
 * One image at a time under its lock: a removal or the outbox may be writing the same record.
 */
export async function attachImages(Image: ImageModel, productId: string, farmerId: string, imageIds: string[]): Promise<number> {
  let attached = 0;
  for (const image_id of new Set(imageIds)) {
    attached += await withDocumentLock(Image, { image_id }, async () => {
      const result = await Image.updateOne(
        // Only photos whose files are all in the bucket: an upload that failed half-way is no photo.
        { image_id, farmer_id: farmerId, product_id: null, stored: { $ne: false } },
        { $set: { product_id: productId } },
      );
      return result.modifiedCount;
    });
  }
  return attached;
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
    await withDocumentLock(Image, { image_id }, () =>
      Image.updateOne({ ...filter, image_id, removing: { $ne: true } }, { $set: { ...set, removing: true }, $push: { outbox: event } }),
    );
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

/**
 * Removes the photos an edit took off a product (ImageRemoved, reason 'removed-from-product'). Taken
 * are only this farmer's photos that are this product's, or not yet attached (the edit that added
 * one may be delivered after the edit that removed it); they are claimed for the product while they
 * go, so that a late attach finds nothing to attach.
 */
export async function removeDetachedImages(
  Image: ImageModel,
  store: ImageStore,
  bus: EventBus,
  productId: string,
  farmerId: string,
  imageIds: string[],
): Promise<number> {
  if (imageIds.length === 0) return 0;
  await markForRemoval(
    Image,
    { image_id: { $in: imageIds }, farmer_id: farmerId, product_id: { $in: [null, productId] } },
    { product_id: productId },
    'removed-from-product',
    imageIds.length,
  );
  return finishRemovals(Image, store, bus);
}

export async function sweepOrphans(Image: ImageModel, store: ImageStore, bus: EventBus, olderThan: Date): Promise<number> {
  // Claimed with a product id of its own: a product attaching it at the same moment finds nothing to attach.
  // Uploads never stored were never announced either: cleanIncompleteUploads takes those, without an event.
  await markForRemoval(
    Image,
    { product_id: null, stored: { $ne: false }, created_at: { $lt: olderThan } },
    { product_id: SWEEPING },
    'never-attached',
    500,
  );
  return finishRemovals(Image, store, bus);
}

/**
 * Uploads whose files did not all reach the bucket (MinIO away mid-upload, or the process died
 * between reserving the name and storing the files): their files are removed, then the record.
 * Taken are records marked failed, and records still not stored at `staleBefore` (an upload under
 * way is younger). Nothing was announced for them, so no event goes out. While MinIO is away the
 * removal fails and the record stays for the next run: the record goes only once its files have.
 */
export async function cleanIncompleteUploads(Image: ImageModel, store: ImageStore, staleBefore: Date): Promise<number> {
  const incomplete = await Image.find(
    { stored: false, $or: [{ failed_at: { $exists: true } }, { created_at: { $lt: staleBefore } }] },
    { image_id: 1, file_name: 1, object_name: 1 },
  )
    .limit(500)
    .lean();
  let removed = 0;
  for (const image of incomplete) {
    await removeImageFiles(store, objectNameOf(image));
    removed += (await Image.deleteOne({ image_id: image.image_id, stored: false })).deletedCount;
  }
  return removed;
}

export interface Reconciliation {
  /** Objects in the bucket that no record names (removed). */
  strayObjects: number;
  /** Stored records whose original is not in the bucket and that no product uses (removed, with ImageRemoved). */
  lostUnattached: number;
  /** Stored records whose original is not in the bucket although a product uses them (logged for a person; kept). */
  lostAttached: string[];
  /** Stored records with the original but without a variant (logged; kept). */
  missingVariants: string[];
}

const VARIANT = /\.(card|thumb)\.webp$/;

/**
 * Compares the bucket with the records, judging only objects and records older than `olderThan`
 * (uploads under way have a record before their first byte is stored, but may be younger than the
 * listing): objects no record names are removed; unattached records without their original are
 * removed like unused uploads (ImageRemoved); an attached one is kept and reported, since taking a
 * photo from a product is for a person to decide.
 */
export async function reconcileBucket(Image: ImageModel, store: ImageStore, bus: EventBus, olderThan: Date): Promise<Reconciliation> {
  // Records first: an object listed afterwards whose record is not in this list was either made
  // after the list (young, so not judged) or belongs to a record removed meanwhile (may go).
  const records = await Image.find(
    {},
    { image_id: 1, file_name: 1, object_name: 1, product_id: 1, stored: 1, removing: 1, created_at: 1 },
  ).lean();
  const objects = await store.list();
  const inBucket = new Set(objects.map((o) => o.name));
  const named = new Set(records.map((r) => objectNameOf(r)));
  const result: Reconciliation = { strayObjects: 0, lostUnattached: 0, lostAttached: [], missingVariants: [] };

  for (const object of objects) {
    if (object.lastModified >= olderThan) continue;
    const base = object.name.replace(VARIANT, '');
    if (named.has(base)) continue;
    await store.remove(object.name);
    result.strayObjects += 1;
  }

  const lostUnattached: string[] = [];
  for (const record of records) {
    if (record.stored === false || record.removing || record.created_at >= olderThan) continue;
    const name = objectNameOf(record);
    if (!inBucket.has(name)) {
      if (record.product_id) result.lostAttached.push(record.image_id);
      else lostUnattached.push(record.image_id);
    } else if (!inBucket.has(variantName(name, 'card')) || !inBucket.has(variantName(name, 'thumb'))) {
      result.missingVariants.push(record.image_id);
    }
  }
  if (lostUnattached.length) {
    await markForRemoval(
      Image,
      { image_id: { $in: lostUnattached }, product_id: null },
      { product_id: SWEEPING },
      'never-attached',
      lostUnattached.length,
    );
    result.lostUnattached = await finishRemovals(Image, store, bus);
  }
  return result;
}
