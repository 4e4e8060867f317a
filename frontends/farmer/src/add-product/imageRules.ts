// Which photos a product may have (spec §5, §9: 2 to 5 image files), checked when photos are picked (nothing
// that cannot fit is sent) and when the product is posted; and the count shown next to the picker.
import { tr } from '../i18n/t.js';
import { imageCountMessage, uploadFailedMessage, uploadsFailedMessage } from '../shared/messages.js';

export const IMAGES_PER_PRODUCT = { min: 2, max: 5 } as const;

/** The part of a File the rule looks at (lets tests use plain objects). */
export interface ChosenFile {
  name: string;
  type: string;
}

/** Browsers report an image's MIME type from its extension; an empty type means "unknown", not "image". */
export const isImageFile = (file: ChosenFile): boolean => file.type.startsWith('image/');

export interface PhotoPick<F extends ChosenFile> {
  /** The photos to upload: the images of the pick, in its order, up to the room left. */
  take: F[];
  /** Why some were not taken, to say next to the picker and in a toast; null when all were. */
  notice: string | null;
}

/**
 * What of a pick is added next to the `already` photos the product has (issue 25): every image that still
 * fits, in the pick's order, up to the 5 a product can have, and a sentence saying how many were left out
 * and why. Before, a pick that did not fit whole was dropped whole. One photo is fine (a phone gives one at
 * a time); the 2-photo minimum is checked when posting.
 */
export function pickPhotos<F extends ChosenFile>(files: readonly F[], already: number): PhotoPick<F> {
  const images = files.filter(isImageFile);
  const room = Math.max(0, IMAGES_PER_PRODUCT.max - already);
  const take = images.slice(0, room);
  const notImages = files.length - images.length;
  const overLimit = images.length - take.length;
  const notices: string[] = [];
  if (overLimit > 0) notices.push(tr('photos.left_out_limit', { added: take.length, left: overLimit, max: IMAGES_PER_PRODUCT.max }));
  if (notImages > 0) notices.push(tr('photos.left_out_type', { left: notImages }));
  return { take, notice: notices.length ? notices.join(' ') : null };
}

/** null when the uploaded photos may be posted, otherwise the toast to show. */
export function checkUploadedCount(count: number): string | null {
  return count >= IMAGES_PER_PRODUCT.min && count <= IMAGES_PER_PRODUCT.max ? null : imageCountMessage();
}

export interface PhotoCount {
  /** "1 of 2–5 photos". */
  count: string;
  /** What is missing or still possible: "add 1 more", "you can add 3 more", "the most a product can have". */
  advice: string;
  /** True when this many photos may be posted. */
  enough: boolean;
}

/** The count next to the picker, from the photos that will be part of the product (uploaded or uploading). */
export function photoCount(photos: number): PhotoCount {
  const { min, max } = IMAGES_PER_PRODUCT;
  const count = tr('photos.count', { count: photos, min, max });
  if (photos < min) return { count, advice: tr('photos.advice.add', { count: min - photos }), enough: false };
  if (photos > max) return { count, advice: tr('photos.advice.remove', { count: photos - max }), enough: false };
  if (photos === max) return { count, advice: tr('photos.advice.full'), enough: true };
  return { count, advice: tr('photos.advice.can_add', { count: max - photos }), enough: true };
}

/** One toast for a finished pick: the server's reason when one photo failed, a summary when several did. */
export function uploadFailureToast(failures: readonly string[]): string | null {
  if (failures.length === 0) return null;
  if (failures.length === 1) return uploadFailedMessage(failures[0]!);
  return uploadsFailedMessage();
}
