// Where an image's bytes live in the bucket: a random name, so that nobody can guess the address
// of a photo not yet shown to them (the spec's file name, made of a timestamp and the name the
// farmer's device gave it, is easy to guess). The spec's name stays in the image's record.
import { randomBytes } from 'node:crypto';

const EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png' };

/** 128 random bits, hex, with the extension of the stored type: e.g. 3f9c…e1.jpg */
export function randomObjectName(contentType: string): string {
  return `${randomBytes(16).toString('hex')}.${EXTENSIONS[contentType] ?? 'img'}`;
}

/** Records stored before object names were random have their bytes under the spec file name. */
export const objectNameOf = (image: { object_name?: string | null; file_name: string }): string => image.object_name || image.file_name;
