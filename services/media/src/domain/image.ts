// Decides what an upload really is from its bytes (never its name or header) and re-encodes it,
// which drops EXIF/GPS and other metadata while applying the camera's orientation.
//
// Memory is bounded per upload (docs/adr/0020): JPEG and PNG are decoded and encoded as streams,
// so they may have up to `maxPixels` (24 MP); WebP and GIF decoders hold the whole picture, so
// those may have a quarter of it. Everything but PNG is stored as JPEG (the WebP and GIF encoders
// need hundreds of MB and seconds at these sizes); an animated GIF keeps its first frame. AVIF is
// refused: its decoder needs tens of bytes a pixel (two 8 MP AVIFs took the process to 1 GB).
import sharp from 'sharp';

// Each upload is decoded once: libvips' operation cache would only hold memory.
sharp.cache(false);

export const ACCEPTED_FORMATS = ['jpeg', 'png', 'webp', 'gif'] as const;
type AcceptedFormat = (typeof ACCEPTED_FORMATS)[number];
/** Formats whose decoder streams; the others (decoded whole) get a quarter of the pixel allowance. */
const STREAMED: readonly AcceptedFormat[] = ['jpeg', 'png'];

/** A file that is not a photo we take; `code` says why (contracts/src/problems.ts). */
export class RejectedImage extends Error {
  constructor(
    readonly code: 'PHOTO_UNREADABLE' | 'PHOTO_FORMAT' | 'PHOTO_TOO_MANY_PIXELS',
    message: string,
  ) {
    super(message);
  }
}

export interface CleanImage {
  data: Buffer;
  contentType: string;
  width: number;
  height: number;
}

const megapixels = (pixels: number) => `${Math.round(pixels / 1e6)} megapixels`;

/** The pixel allowance of one format. */
export const pixelLimit = (format: AcceptedFormat, maxPixels: number) =>
  STREAMED.includes(format) ? maxPixels : Math.floor(maxPixels / 4);

export async function inspectAndClean(bytes: Buffer, maxPixels: number): Promise<CleanImage> {
  let format: string | undefined;
  let width = 0;
  let height = 0;
  try {
    // Reading the header alone decodes no pixels, so the pixel limit is checked below with a clear message.
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    format = meta.format;
    width = meta.width ?? 0;
    // One frame of an animation (only the first is kept).
    height = meta.pageHeight ?? meta.height ?? 0;
  } catch {
    throw new RejectedImage('PHOTO_UNREADABLE', 'This file is not an image we can read. Upload a JPEG, PNG, WebP or GIF photo.');
  }
  if (!format || !(ACCEPTED_FORMATS as readonly string[]).includes(format)) {
    throw new RejectedImage('PHOTO_FORMAT', 'Only JPEG, PNG, WebP or GIF photos can be uploaded. Save the photo as JPEG and try again.');
  }
  const accepted = format as AcceptedFormat;
  const limit = pixelLimit(accepted, maxPixels);
  if (width * height > limit) {
    throw new RejectedImage(
      'PHOTO_TOO_MANY_PIXELS',
      STREAMED.includes(accepted)
        ? `This image is too large (${width}×${height} pixels). Use a photo of at most ${megapixels(limit)}.`
        : `This image is too large (${width}×${height} pixels). A ${accepted.toUpperCase()} image can have at most ${megapixels(limit)}; ` +
            `a JPEG photo can have ${megapixels(maxPixels)}.`,
    );
  }
  try {
    const pipeline = sharp(bytes, { limitInputPixels: limit, animated: false }).rotate();
    const { data, info } = await (
      accepted === 'png'
        ? pipeline.png()
        : // optimiseCoding would keep every coefficient of the picture in memory for a second pass.
          pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: 85, optimiseCoding: false })
    ).toBuffer({ resolveWithObject: true });
    return { data, contentType: accepted === 'png' ? 'image/png' : 'image/jpeg', width: info.width, height: info.height };
  } catch {
    throw new RejectedImage('PHOTO_UNREADABLE', 'This image could not be processed. It may be damaged; try another photo.');
  }
}

export interface Variant {
  suffix: 'card' | 'thumb';
  data: Buffer;
  contentType: string;
}

/** Smaller WebP copies for feed cards and list thumbnails. */
export const VARIANT_SIZES = { card: 640, thumb: 200 } as const;

/** One after the other: each reads the whole clean photo again. */
export async function makeVariants(clean: Buffer): Promise<Variant[]> {
  const variants: Variant[] = [];
  for (const [suffix, size] of Object.entries(VARIANT_SIZES) as [Variant['suffix'], number][]) {
    variants.push({
      suffix,
      contentType: 'image/webp',
      data: await sharp(clean)
        .resize({ width: size, height: size, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: suffix === 'card' ? 80 : 70 })
        .toBuffer(),
    });
  }
  return variants;
}

export const variantName = (fileName: string, suffix: Variant['suffix']) => `${fileName}.${suffix}.webp`;
