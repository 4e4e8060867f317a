import { describe, expect, it } from 'vitest';
import { LIGHT_ENOUGH_BYTES, PHOTO_LONG_EDGE, resizePlan, sentName } from '../../src/add-product/resizePhoto.js';

const MB = 1024 * 1024;

describe('which photos are made smaller before upload (issue 13)', () => {
  it('brings a big phone photo down to the long edge, proportions kept', () => {
    expect(PHOTO_LONG_EDGE).toBe(1280);
    expect(resizePlan({ type: 'image/jpeg', bytes: 3 * MB, width: 4000, height: 3000 })).toEqual({
      resize: true,
      width: 1280,
      height: 960,
      type: 'image/jpeg',
    });
  });

  it('measures the long edge whichever way the photo stands (portrait, after EXIF orientation)', () => {
    expect(resizePlan({ type: 'image/jpeg', bytes: 3 * MB, width: 3024, height: 4032 })).toEqual({
      resize: true,
      width: 960,
      height: 1280,
      type: 'image/jpeg',
    });
    expect(resizePlan({ type: 'image/jpeg', bytes: 3 * MB, width: 1281, height: 200 })).toMatchObject({
      resize: true,
      width: 1280,
      height: 200,
    });
  });

  it('sends a light file untouched whatever its pixels: a resized copy would weigh as much', () => {
    expect(LIGHT_ENOUGH_BYTES).toBe(300 * 1024);
    expect(resizePlan({ type: 'image/jpeg', bytes: LIGHT_ENOUGH_BYTES, width: 1600, height: 1200 })).toEqual({
      resize: false,
      reason: 'light-enough',
    });
    expect(resizePlan({ type: 'image/jpeg', bytes: LIGHT_ENOUGH_BYTES + 1, width: 1600, height: 1200 })).toMatchObject({
      resize: true,
      width: 1280,
    });
  });

  it('sends small photos untouched, up to and including the limit', () => {
    expect(resizePlan({ type: 'image/jpeg', bytes: 3 * MB, width: 1280, height: 960 })).toEqual({ resize: false, reason: 'small-enough' });
    expect(resizePlan({ type: 'image/jpeg', bytes: 3 * MB, width: 800, height: 600 })).toEqual({ resize: false, reason: 'small-enough' });
    expect(resizePlan({ type: 'image/png', bytes: 3 * MB, width: 960, height: 1280 })).toEqual({ resize: false, reason: 'small-enough' });
  });

  it('sends WebP as JPEG and keeps PNG as PNG, the way the media service stores them', () => {
    expect(resizePlan({ type: 'image/webp', bytes: 3 * MB, width: 2000, height: 2000 })).toMatchObject({
      resize: true,
      type: 'image/jpeg',
    });
    expect(resizePlan({ type: 'image/png', bytes: 3 * MB, width: 2560, height: 1440 })).toEqual({
      resize: true,
      width: 1280,
      height: 720,
      type: 'image/png',
    });
  });

  it('leaves what the browser cannot resize well to the media service (GIF, HEIC, unknown, no size)', () => {
    for (const type of ['image/gif', 'image/heic', 'image/avif', '', 'text/plain']) {
      expect(resizePlan({ type, bytes: 3 * MB, width: 4000, height: 3000 }), type).toEqual({ resize: false, reason: 'not-resizable' });
    }
    expect(resizePlan({ type: 'image/jpeg', bytes: 3 * MB, width: 0, height: 0 })).toEqual({ resize: false, reason: 'not-resizable' });
  });

  it('names the resized file after the original, with the extension of what is sent', () => {
    expect(sentName('yam harvest 1.JPEG', 'image/jpeg')).toBe('yam harvest 1.jpg');
    expect(sentName('cassava.webp', 'image/jpeg')).toBe('cassava.jpg');
    expect(sentName('heap.png', 'image/png')).toBe('heap.png');
    expect(sentName('photo', 'image/jpeg')).toBe('photo.jpg');
  });
});
