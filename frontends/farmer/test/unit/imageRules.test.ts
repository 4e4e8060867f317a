import { describe, expect, it } from 'vitest';
import { checkPhotoPick, checkUploadedCount, isImageFile, photoCount, uploadFailureToast } from '../../src/add-product/imageRules.js';

const jpeg = (name: string) => ({ name, type: 'image/jpeg' });
const photos = (count: number) => Array.from({ length: count }, (_, i) => jpeg(`yam-${i + 1}.jpg`));

describe('a pick of photos adds to the ones already there (spec §5: 2 to 5 image files in all)', () => {
  it('accepts a single photo (a phone’s camera gives one at a time)', () => {
    expect(checkPhotoPick(photos(1), 0)).toBeNull();
    expect(checkPhotoPick(photos(1), 1)).toBeNull();
  });
  it('accepts picks up to 5 photos in all', () => {
    expect(checkPhotoPick(photos(1), 4)).toBeNull();
    expect(checkPhotoPick(photos(3), 2)).toBeNull();
    expect(checkPhotoPick(photos(5), 0)).toBeNull();
  });
  it('rejects a pick that would make 6 photos with "Please select between 2 to 5 images."', () => {
    expect(checkPhotoPick(photos(1), 5)).toBe('Please select between 2 to 5 images.');
    expect(checkPhotoPick(photos(2), 4)).toBe('Please select between 2 to 5 images.');
    expect(checkPhotoPick(photos(6), 0)).toBe('Please select between 2 to 5 images.');
  });
  it('accepts any image type (PNG, WebP, AVIF, GIF)', () => {
    const mixed = ['image/png', 'image/webp', 'image/avif', 'image/gif'].map((type, i) => ({ name: `p${i}`, type }));
    expect(checkPhotoPick(mixed, 0)).toBeNull();
  });
  it('rejects a pick with a file that is not an image', () => {
    expect(checkPhotoPick([jpeg('a.jpg'), { name: 'notes.pdf', type: 'application/pdf' }], 0)).toBe('Please select between 2 to 5 images.');
  });
  it('treats an unknown type as not an image', () => {
    expect(isImageFile({ name: 'mystery', type: '' })).toBe(false);
  });
  it('does nothing with an empty pick (the picker was closed)', () => {
    expect(checkPhotoPick([], 3)).toBeNull();
  });
});

describe('uploaded photos when posting', () => {
  it.each([
    [0, false],
    [1, false],
    [2, true],
    [5, true],
    [6, false],
  ])('%i uploaded photos may be posted: %s', (count, ok) => {
    expect(checkUploadedCount(count) === null).toBe(ok);
  });
  it('refuses 1 photo with "Please select between 2 to 5 images."', () => {
    expect(checkUploadedCount(1)).toBe('Please select between 2 to 5 images.');
  });
});

describe('the count next to the picker', () => {
  it.each([
    [0, '0 of 2–5 photos', 'add 2 more', false],
    [1, '1 of 2–5 photos', 'add 1 more', false],
    [2, '2 of 2–5 photos', 'you can add 3 more', true],
    [4, '4 of 2–5 photos', 'you can add 1 more', true],
    [5, '5 of 2–5 photos', 'the most a product can have', true],
    [6, '6 of 2–5 photos', 'remove 1', false],
  ])('%i photos: "%s: %s"', (n, count, advice, enough) => {
    expect(photoCount(n)).toEqual({ count, advice, enough });
  });
});

describe('upload failure toasts (spec §8)', () => {
  it('says nothing when every photo arrived', () => {
    expect(uploadFailureToast([])).toBeNull();
  });
  it('shows "Failed to upload image: {message}" with the server\'s reason for one failed photo', () => {
    expect(uploadFailureToast(['This file is not an image'])).toBe('Failed to upload image: This file is not an image');
  });
  it('shows "Failed to upload images" when several failed', () => {
    expect(uploadFailureToast(['a', 'b'])).toBe('Failed to upload images');
  });
});
