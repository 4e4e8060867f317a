// Photos are made smaller in the browser before they are sent, when they are larger than anything the
// product ever shows (issue 13, docs/adr/0043-browser-resize.md): a farmer's phone takes 12–50 megapixel
// photos of 3–10 MB, on costly mobile data. The media service keeps the cleaned photo, the largest image a
// buyer is shown (the product page's big picture), and makes a 640 px card and a 200 px thumbnail from it
// (services/media/src/domain/image.ts, VARIANT_SIZES). A long edge of 1280 px (twice the card) covers the
// product page on a 1280 px screen and a 360 px phone at three device pixels per CSS pixel.
// Small photos are sent untouched: those within 1280 px, and those whose file is already as light as a
// resized copy would be (a real photo at 1280 px and JPEG quality 85 weighs 150–350 KB; a lighter file
// saves nothing worth the decoding on a low-end phone). So is anything the browser cannot resize well
// (GIF, HEIC, …): the media service still decides what it accepts.

/** The longest side a sent photo needs. */
export const PHOTO_LONG_EDGE = 1280;
/** JPEG quality of a resized photo: the media service stores JPEG at 85 too, so nothing is lost twice. */
export const JPEG_QUALITY = 0.85;
/** A file this light is sent as it is, whatever its pixels: a resized copy would weigh about as much. */
export const LIGHT_ENOUGH_BYTES = 300 * 1024;

/** Types resized here, and what each is sent as (the media service stores PNG as PNG and everything else as JPEG). */
const OUTPUT_TYPE: Record<string, 'image/jpeg' | 'image/png'> = {
  'image/jpeg': 'image/jpeg',
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/webp': 'image/jpeg',
  'image/png': 'image/png',
};

export type ResizePlan =
  | { resize: false; reason: 'small-enough' | 'light-enough' | 'not-resizable' }
  | { resize: true; width: number; height: number; type: 'image/jpeg' | 'image/png' };

/** Whether a file is worth decoding at all: a type resized here, heavier than a resized copy would be. */
export function worthDecoding(file: { type: string; bytes: number }): ResizePlan | null {
  if (!OUTPUT_TYPE[file.type.toLowerCase()]) return { resize: false, reason: 'not-resizable' };
  if (file.bytes <= LIGHT_ENOUGH_BYTES) return { resize: false, reason: 'light-enough' };
  return null;
}

/**
 * Whether a photo of this type, file size and pixel size (as displayed: after its EXIF orientation) is
 * resized before sending, and to what: the long edge brought to PHOTO_LONG_EDGE, the proportions kept.
 */
export function resizePlan(photo: { type: string; bytes: number; width: number; height: number }, longEdge = PHOTO_LONG_EDGE): ResizePlan {
  const skip = worthDecoding(photo);
  if (skip) return skip;
  const type = OUTPUT_TYPE[photo.type.toLowerCase()]!;
  if (!(photo.width > 0) || !(photo.height > 0)) return { resize: false, reason: 'not-resizable' };
  const longest = Math.max(photo.width, photo.height);
  if (longest <= longEdge) return { resize: false, reason: 'small-enough' };
  const scale = longEdge / longest;
  return {
    resize: true,
    width: Math.max(1, Math.round(photo.width * scale)),
    height: Math.max(1, Math.round(photo.height * scale)),
    type,
  };
}

/** "IMG_2024.HEIC.webp" sent as JPEG is named "IMG_2024.HEIC.jpg". */
export function sentName(name: string, type: 'image/jpeg' | 'image/png'): string {
  const extension = type === 'image/png' ? '.png' : '.jpg';
  const base = name.replace(/\.[^./\\]{1,5}$/, '');
  return `${base || 'photo'}${extension}`;
}

type PicaInstance = {
  resize: (from: ImageBitmap, to: HTMLCanvasElement, options?: object) => Promise<HTMLCanvasElement>;
  toBlob: (canvas: HTMLCanvasElement, type: string, quality?: number) => Promise<Blob>;
};
let resizer: Promise<PicaInstance> | null = null;

/** pica, loaded on the first photo that needs it (its own chunk: nothing on the form's first load). */
function loadResizer(): Promise<PicaInstance> {
  // No web workers or WebAssembly: the gateway's CSP allows neither blob: workers nor wasm. The browser's
  // own high-quality createImageBitmap resize ("cib") when it has one, pica's JavaScript lanczos otherwise.
  resizer ??= import('pica').then(({ default: pica }) => pica({ features: ['js', 'cib'] }) as unknown as PicaInstance);
  return resizer;
}

/**
 * The file to send for a photo: a resized copy when it is larger than needed, else the file itself. The
 * browser decodes it with its EXIF orientation applied (createImageBitmap's imageOrientation "from-image"),
 * so a photo taken sideways arrives upright, and the copy carries no EXIF (no GPS position) at all. Any
 * failure (no createImageBitmap, out of memory, a format the browser cannot decode) sends the original.
 */
export async function preparePhoto(file: File, signal?: AbortSignal): Promise<File> {
  if (worthDecoding({ type: file.type, bytes: file.size }) || typeof createImageBitmap !== 'function' || typeof document === 'undefined')
    return file;
  let bitmap: ImageBitmap | null = null;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
    const plan = resizePlan({ type: file.type, bytes: file.size, width: bitmap.width, height: bitmap.height });
    if (!plan.resize || signal?.aborted) return file;
    const canvas = document.createElement('canvas');
    canvas.width = plan.width;
    canvas.height = plan.height;
    const pica = await loadResizer();
    await pica.resize(bitmap, canvas, { filter: 'lanczos3', unsharpAmount: 80, unsharpRadius: 0.6, unsharpThreshold: 2 });
    const blob = await pica.toBlob(canvas, plan.type, plan.type === 'image/jpeg' ? JPEG_QUALITY : undefined);
    canvas.width = canvas.height = 0;
    // A copy is only worth sending when it is smaller.
    if (blob.size >= file.size) return file;
    return new File([blob], sentName(file.name, plan.type), { type: plan.type, lastModified: file.lastModified });
  } catch {
    return file;
  } finally {
    bitmap?.close();
  }
}
