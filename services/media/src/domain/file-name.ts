// The spec's storage file name: "<timestamp>_<original name>", whitespace turned to underscores,
// anything but letters, digits, underscore and dot removed.
import type { ImageModel } from './images.js';

export function sanitiseFileName(original: string): string {
  return original.replace(/\s+/g, '_').replace(/[^A-Za-z0-9_.]/g, '');
}

/** The longest file name kept (bytes; the names are ASCII once cleaned), as most file systems allow. */
export const MAX_FILE_NAME_BYTES = 255;
/** An ending kept when a long name is cut: ".jpeg", ".webp". */
const EXTENSION = /\.[A-Za-z0-9]{1,8}$/;

/**
 * "<timestamp>_<cleaned name>", at most MAX_FILE_NAME_BYTES: a longer name loses the end of its stem
 * and keeps its extension (a phone or a script may send a name of many kilobytes).
 */
export function storageFileName(original: string, now: Date = new Date()): string {
  const prefix = `${now.getTime()}_`;
  let cleaned = sanitiseFileName(original) || 'image';
  const room = MAX_FILE_NAME_BYTES - prefix.length;
  if (cleaned.length > room) {
    const extension = EXTENSION.exec(cleaned)?.[0] ?? '';
    cleaned = cleaned.slice(0, room - extension.length) + extension;
  }
  return prefix + cleaned;
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
