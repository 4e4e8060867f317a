import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { sanitiseFileName, storageFileName } from '../../src/domain/file-name.js';
import { inspectAndClean } from '../../src/domain/image.js';
import { pngBomb } from '../../../../test/support/api.js';

const MAX_PIXELS = 40_000_000;

describe('storage file name', () => {
  it('is timestamp, underscore, then the name with spaces as underscores and odd characters removed', () => {
    const now = new Date('2026-11-22T12:00:00Z');
    expect(storageFileName('My Yam (fresh)!.JPG', now)).toBe(`${now.getTime()}_My_Yam_fresh.JPG`);
    expect(sanitiseFileName('ìyán\tpounded  yam.png')).toBe('yn_pounded_yam.png');
  });
  it('never produces an empty name', () => {
    expect(storageFileName('***', new Date(0))).toBe('0_image');
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
