// Which photo selections the Add Product form accepts (spec §5, §9: 2 to 5 image files).
import { IMAGE_COUNT_MESSAGE, UPLOADS_FAILED_MESSAGE, uploadFailedMessage } from '../shared/messages.js';

export const IMAGES_PER_PRODUCT = { min: 2, max: 5 } as const;

/** The part of a File the rule looks at (lets tests use plain objects). */
export interface ChosenFile {
  name: string;
  type: string;
}

/** Browsers report an image's MIME type from its extension; an empty type means "unknown", not "image". */
export const isImageFile = (file: ChosenFile): boolean => file.type.startsWith('image/');

/** null when the selection may be uploaded, otherwise the toast to show. */
export function checkImageSelection(files: readonly ChosenFile[]): string | null {
  const { min, max } = IMAGES_PER_PRODUCT;
  if (files.length < min || files.length > max) return IMAGE_COUNT_MESSAGE;
  if (!files.every(isImageFile)) return IMAGE_COUNT_MESSAGE;
  return null;
}

/** null when the uploaded photos may be posted (the same rule once uploads are done). */
export function checkUploadedCount(count: number): string | null {
  return count >= IMAGES_PER_PRODUCT.min && count <= IMAGES_PER_PRODUCT.max ? null : IMAGE_COUNT_MESSAGE;
}

/** One toast for a finished batch: the server's reason when one photo failed, a summary when several did. */
export function uploadFailureToast(failures: readonly string[]): string | null {
  if (failures.length === 0) return null;
  if (failures.length === 1) return uploadFailedMessage(failures[0]!);
  return UPLOADS_FAILED_MESSAGE;
}
