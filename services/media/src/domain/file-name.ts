// The spec's storage file name: "<timestamp>_<original name>", whitespace turned to underscores,
// anything but letters, digits, underscore and dot removed.
import type { ImageModel } from './images.js';

export function sanitiseFileName(original: string): string {
  return original.replace(/\s+/g, '_').replace(/[^A-Za-z0-9_.]/g, '');
}

export function storageFileName(original: string, now: Date = new Date()): string {
  const cleaned = sanitiseFileName(original) || 'image';
  return `${now.getTime()}_${cleaned}`;
}

const isDuplicateKey = (err: unknown) => (err as { code?: number }).code === 11000;

/**
 * Creates the image's record under a spec file name no other image has: photos picked together
 * often share a name (a phone calls them all image.jpg), so on a clash the timestamp moves on by
 * a millisecond. The unique index on file_name makes the reservation atomic.
 */
export async function reserveFileName(
  Image: ImageModel,
  original: string,
  now: Date,
  record: Record<string, unknown>,
  attempts = 20,
): Promise<string> {
  for (let step = 0; step < attempts; step += 1) {
    const fileName = storageFileName(original, new Date(now.getTime() + step));
    try {
      await Image.create({ ...record, file_name: fileName });
      return fileName;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }
  throw new Error(`no free file name for ${original} after ${attempts} tries`);
}
