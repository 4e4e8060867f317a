import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { MAX_FILE_NAME_BYTES, sanitiseFileName, storageFileName } from '../../src/domain/file-name.js';
import { inspectAndClean } from '../../src/domain/image.js';
import { pngBomb } from '../../../../test/support/api.js';

const MAX_PIXELS = 24_000_000;

describe('storage file name', () => {
  it('is timestamp, underscore, then the name with spaces as underscores and odd characters removed', () => {
    const now = new Date('2026-11-22T12:00:00Z');
    expect(storageFileName('My Yam (fresh)!.JPG', now)).toBe(`${now.getTime()}_My_Yam_fresh.JPG`);
    expect(sanitiseFileName('ìyán\tpounded  yam.png')).toBe('yn_pounded_yam.png');
  });
  it('never produces an empty name', () => {
    expect(storageFileName('***', new Date(0))).toBe('0_image');
  });
  it('keeps at most 255 bytes of an 80 KB name, with its extension (issue 24)', () => {
    const now = new Date('2026-11-22T12:00:00Z');
    const kept = storageFileName(`${'yam'.repeat(27_000)}.jpeg`, now);
    expect(Buffer.byteLength(kept)).toBe(MAX_FILE_NAME_BYTES);
    expect(kept.startsWith(`${now.getTime()}_yamyam`)).toBe(true);
    expect(kept.endsWith('.jpeg')).toBe(true);
    const short = storageFileName('yam.jpg', now);
    expect(short).toBe(`${now.getTime()}_yam.jpg`);
  });
});

describe('image inspection', () => {
  it('accepts a real JPEG and drops its EXIF metadata', async () => {
    const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#7a4' } })
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: 'GPS test', Artist: 'farmer' } } })
      .toBuffer();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const clean = await inspectAndClean(photo, MAX_PIXELS);
    expect(clean.contentType).toBe('image/jpeg');
    expect([clean.width, clean.height]).toEqual([64, 48]);
    expect((await sharp(clean.data).metadata()).exif).toBeUndefined();
  });

  it('rejects a text file whatever its name says', async () => {
    await expect(inspectAndClean(Buffer.from('hello, this is not a photo'), MAX_PIXELS)).rejects.toThrow('not an image we can read');
  });

  it('rejects a decompression bomb by its pixel count', async () => {
    await expect(inspectAndClean(pngBomb(50_000, 50_000), MAX_PIXELS)).rejects.toThrow('This image is too large (50000×50000 pixels)');
  });
});

describe('stored formats and pixel allowances (bounded memory)', () => {
  const picture = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 4, background: { r: 120, g: 80, b: 40, alpha: 0.5 } } });

  it('keeps PNG as PNG and JPEG as JPEG', async () => {
    expect((await inspectAndClean(await picture(40, 30).png().toBuffer(), 24e6)).contentType).toBe('image/png');
    expect((await inspectAndClean(await picture(40, 30).jpeg().toBuffer(), 24e6)).contentType).toBe('image/jpeg');
  });

  it('stores WebP and GIF as JPEG (transparency on white, an animation by its first frame)', async () => {
    for (const input of [await picture(40, 30).webp().toBuffer(), await picture(40, 30).gif().toBuffer()]) {
      const clean = await inspectAndClean(input, 24e6);
      expect(clean.contentType).toBe('image/jpeg');
      expect((await sharp(clean.data).metadata()).format).toBe('jpeg');
      expect([clean.width, clean.height]).toEqual([40, 30]);
    }
  });

  it('refuses AVIF (its decoder needs tens of bytes a pixel) with a message saying what to do', async () => {
    await expect(inspectAndClean(await picture(40, 30).avif().toBuffer(), 24e6)).rejects.toThrow(
      'Only JPEG, PNG, WebP or GIF photos can be uploaded. Save the photo as JPEG and try again.',
    );
  });

  it('gives formats decoded whole (WebP, GIF) a quarter of the pixels, with a message saying so', async () => {
    const webp = await sharp({ create: { width: 3000, height: 2001, channels: 3, background: '#964' } })
      .webp()
      .toBuffer();
    await expect(inspectAndClean(webp, 24e6)).rejects.toThrow(
      'This image is too large (3000×2001 pixels). A WEBP image can have at most 6 megapixels; a JPEG photo can have 24 megapixels.',
    );
    const jpeg = await sharp({ create: { width: 6000, height: 4000, channels: 3, background: '#964' } })
      .jpeg()
      .toBuffer();
    expect((await inspectAndClean(jpeg, 24e6)).width).toBe(6000);
  });
});
