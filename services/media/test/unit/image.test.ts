import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { deflateSync } from 'node:zlib';
import { sanitiseFileName, storageFileName } from '../../src/domain/file-name.js';
import { inspectAndClean } from '../../src/domain/image.js';

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

/** A PNG whose header claims a huge canvas while its data is tiny: a decompression bomb. */
function pngBomb(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crcInput = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(crcInput));
    return Buffer.concat([length, crcInput, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

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
