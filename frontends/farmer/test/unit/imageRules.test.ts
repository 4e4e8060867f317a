import { describe, expect, it } from 'vitest';
import { checkImageSelection, checkUploadedCount, isImageFile, uploadFailureToast } from '../../src/add-product/imageRules.js';

const jpeg = (name: string) => ({ name, type: 'image/jpeg' });
const photos = (count: number) => Array.from({ length: count }, (_, i) => jpeg(`yam-${i + 1}.jpg`));

describe('image selection (spec §5: 2 to 5 image files)', () => {
  it('rejects 1 image with "Please select between 2 to 5 images."', () => {
    expect(checkImageSelection(photos(1))).toBe('Please select between 2 to 5 images.');
  });
  it('rejects 6 images with "Please select between 2 to 5 images."', () => {
    expect(checkImageSelection(photos(6))).toBe('Please select between 2 to 5 images.');
  });
  it('rejects an empty selection', () => {
    expect(checkImageSelection([])).toBe('Please select between 2 to 5 images.');
  });
  it.each([2, 3, 4, 5])('accepts %i images', (count) => {
    expect(checkImageSelection(photos(count))).toBeNull();
  });
  it('accepts any image type (PNG, WebP, AVIF, GIF)', () => {
    const mixed = ['image/png', 'image/webp', 'image/avif', 'image/gif'].map((type, i) => ({ name: `p${i}`, type }));
    expect(checkImageSelection(mixed)).toBeNull();
  });
  it('rejects a selection with a file that is not an image', () => {
    expect(checkImageSelection([jpeg('a.jpg'), { name: 'notes.pdf', type: 'application/pdf' }])).toBe(
      'Please select between 2 to 5 images.',
    );
  });
  it('treats an unknown type as not an image', () => {
    expect(isImageFile({ name: 'mystery', type: '' })).toBe(false);
  });
});

describe('uploaded photos before posting', () => {
  it.each([
    [0, false],
    [1, false],
    [2, true],
    [5, true],
    [6, false],
  ])('%i uploaded photos may be posted: %s', (count, ok) => {
    expect(checkUploadedCount(count) === null).toBe(ok);
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
