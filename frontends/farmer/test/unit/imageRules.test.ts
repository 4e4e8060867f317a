import { describe, expect, it } from 'vitest';
import { checkUploadedCount, isImageFile, photoCount, pickPhotos, uploadFailureToast } from '../../src/add-product/imageRules.js';

const jpeg = (name: string) => ({ name, type: 'image/jpeg' });
const photos = (count: number) => Array.from({ length: count }, (_, i) => jpeg(`yam-${i + 1}.jpg`));

describe('a pick of photos adds to the ones already there (spec §5: 2 to 5 image files in all; issue 25)', () => {
  const taken = (files: { name: string; type: string }[], already: number) => pickPhotos(files, already).take.map((f) => f.name);
  it('takes a single photo (a phone’s camera gives one at a time)', () => {
    expect(pickPhotos(photos(1), 0)).toEqual({ take: photos(1), notice: null });
    expect(pickPhotos(photos(1), 1)).toEqual({ take: photos(1), notice: null });
  });
  it('takes picks up to 5 photos in all', () => {
    expect(pickPhotos(photos(1), 4).take).toHaveLength(1);
    expect(pickPhotos(photos(3), 2).take).toHaveLength(3);
    expect(pickPhotos(photos(5), 0)).toEqual({ take: photos(5), notice: null });
  });
  it('adds what fits of a pick that would make more than 5, in its order, and says how many were left out', () => {
    expect(taken(photos(5), 1)).toEqual(['yam-1.jpg', 'yam-2.jpg', 'yam-3.jpg', 'yam-4.jpg']);
    expect(pickPhotos(photos(5), 1).notice).toBe('4 photos added; 1 was left out: a product can have at most 5 photos.');
    expect(pickPhotos(photos(6), 0).notice).toBe('5 photos added; 1 was left out: a product can have at most 5 photos.');
    expect(pickPhotos(photos(2), 5)).toEqual({ take: [], notice: 'No photo was added; 2 were left out: a product can have at most 5 photos.' });
  });
  it('takes any image type (PNG, WebP, AVIF, GIF)', () => {
    const mixed = ['image/png', 'image/webp', 'image/avif', 'image/gif'].map((type, i) => ({ name: `p${i}`, type }));
    expect(pickPhotos(mixed, 0)).toEqual({ take: mixed, notice: null });
  });
  it('leaves out a file that is not an image, and says so, taking the photos beside it', () => {
    const pick = pickPhotos([jpeg('a.jpg'), { name: 'notes.pdf', type: 'application/pdf' }], 0);
    expect(pick.take.map((f) => f.name)).toEqual(['a.jpg']);
    expect(pick.notice).toBe('1 file was left out: only photos can be added.');
  });
  it('treats an unknown type as not an image', () => {
    expect(isImageFile({ name: 'mystery', type: '' })).toBe(false);
  });
  it('does nothing with an empty pick (the picker was closed)', () => {
    expect(pickPhotos([], 3)).toEqual({ take: [], notice: null });
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
