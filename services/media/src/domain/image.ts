// Decides what an upload really is from its bytes (never its name or header) and re-encodes it,
// which drops EXIF/GPS and other metadata while applying the camera's orientation.
import sharp from 'sharp';

// Each upload is decoded once: libvips' operation cache would only hold memory.
sharp.cache(false);

export const ACCEPTED_FORMATS = ['jpeg', 'png', 'webp', 'avif', 'gif'] as const;
type AcceptedFormat = (typeof ACCEPTED_FORMATS)[number];

const CONTENT_TYPES: Record<AcceptedFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
};

export class RejectedImage extends Error {}

export interface CleanImage {
  data: Buffer;
  contentType: string;
  width: number;
  height: number;
}

export async function inspectAndClean(bytes: Buffer, maxPixels: number): Promise<CleanImage> {
  let format: string | undefined;
  let width = 0;
  let height = 0;
  let frames = 1;
  try {
    // Reading the header alone decodes no pixels, so the pixel limit is checked below with a clear message.
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    format = meta.format === 'heif' ? 'avif' : meta.format;
    width = meta.width ?? 0;
    height = meta.pageHeight ?? meta.height ?? 0;
    // An animated GIF is decoded whole: every frame counts.
    if (format === 'gif') frames = meta.pages ?? 1;
  } catch {
    throw new RejectedImage('This file is not an image we can read. Upload a JPEG, PNG, WebP, AVIF or GIF photo.');
  }
  if (!format || !(ACCEPTED_FORMATS as readonly string[]).includes(format)) {
    throw new RejectedImage('Only JPEG, PNG, WebP, AVIF or GIF photos can be uploaded.');
  }
  if (width * height > maxPixels) {
    throw new RejectedImage(
      `This image is too large (${width}×${height} pixels). Use a photo of at most ${Math.round(maxPixels / 1e6)} megapixels.`,
    );
  }
  if (width * height * frames > maxPixels) {
    throw new RejectedImage(
      `This animation is too large (${frames} frames of ${width}×${height} pixels). Use a photo, or an animation of at most ${Math.round(maxPixels / 1e6)} megapixels in all.`,
    );
  }
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: maxPixels, animated: format === 'gif' })
      .rotate()
      .toFormat(format as AcceptedFormat)
      .toBuffer({ resolveWithObject: true });
    return { data, contentType: CONTENT_TYPES[format as AcceptedFormat], width: info.width, height: info.height };
  } catch {
    throw new RejectedImage('This image could not be processed. It may be damaged; try another photo.');
  }
}

export interface Variant {
  suffix: 'card' | 'thumb';
  data: Buffer;
  contentType: string;
}

/** Smaller WebP copies for feed cards and list thumbnails. */
export const VARIANT_SIZES = { card: 640, thumb: 200 } as const;

export async function makeVariants(clean: Buffer): Promise<Variant[]> {
  return Promise.all(
    (Object.entries(VARIANT_SIZES) as [Variant['suffix'], number][]).map(async ([suffix, size]) => ({
      suffix,
      contentType: 'image/webp',
      data: await sharp(clean, { animated: false })
        .resize({ width: size, height: size, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: suffix === 'card' ? 80 : 70 })
        .toBuffer(),
    })),
  );
}

export const variantName = (fileName: string, suffix: Variant['suffix']) => `${fileName}.${suffix}.webp`;
