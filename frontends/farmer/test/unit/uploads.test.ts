import { describe, expect, it } from 'vitest';
import type { StoredImage } from '@tuber/contracts';
import {
  countedPhotos,
  isUploading,
  noUploads,
  percentSent,
  uploadedImageIds,
  uploadsReducer,
  type UploadsAction,
  type UploadsState,
} from '../../src/add-product/uploads.js';

const image = (id: string): StoredImage => ({
  image_id: id,
  file_name: `1700000000000_${id}.jpg`,
  url: `http://localhost:8080/files/${id}.jpg`,
  card_url: `http://localhost:8080/files/${id}-card.webp`,
  thumb_url: `http://localhost:8080/files/${id}-thumb.webp`,
  content_type: 'image/jpeg',
  bytes: 1000,
  width: 800,
  height: 600,
});

const run = (...actions: UploadsAction[]): UploadsState => actions.reduce(uploadsReducer, noUploads);
const chosen: UploadsAction = {
  type: 'chosen',
  files: [
    { key: 'a', name: 'yam-1.jpg', size: 3_000_000 },
    { key: 'b', name: 'yam-2.jpg', size: 3_000_000 },
  ],
};

describe('photo upload state', () => {
  it('starts every chosen photo as uploading, with nothing sent', () => {
    const state = run(chosen);
    expect(state.photos.map((p) => [p.key, p.status, p.loaded, p.measured])).toEqual([
      ['a', 'uploading', 0, false],
      ['b', 'uploading', 0, false],
    ]);
    expect(isUploading(state)).toBe(true);
  });

  it('records byte progress per photo', () => {
    const state = run(chosen, { type: 'progress', key: 'a', loaded: 1_500_000, total: 3_000_200 });
    const [a, b] = state.photos;
    expect(a).toMatchObject({ loaded: 1_500_000, total: 3_000_200, measured: true });
    expect(percentSent(a!)).toBe(49);
    expect(percentSent(b!)).toBe(0);
  });

  it('is still uploading until the last photo is done (Post Product stays disabled)', () => {
    const state = run(chosen, { type: 'uploaded', key: 'a', image: image('a') });
    expect(isUploading(state)).toBe(true);
    expect(uploadedImageIds(state)).toEqual(['a']);
  });

  it('gives the image ids in the order the photos were chosen, whatever order they finished in', () => {
    const state = run(chosen, { type: 'uploaded', key: 'b', image: image('img-b') }, { type: 'uploaded', key: 'a', image: image('img-a') });
    expect(isUploading(state)).toBe(false);
    expect(uploadedImageIds(state)).toEqual(['img-a', 'img-b']);
    expect(state.photos.every((p) => percentSent(p) === 100)).toBe(true);
  });

  it('keeps a failed photo with its reason and leaves it out of the ids', () => {
    const state = run(
      chosen,
      { type: 'uploaded', key: 'a', image: image('img-a') },
      { type: 'failed', key: 'b', message: 'This file is not an image' },
    );
    expect(state.photos[1]).toMatchObject({ status: 'failed', error: 'This file is not an image' });
    expect(isUploading(state)).toBe(false);
    expect(uploadedImageIds(state)).toEqual(['img-a']);
  });

  it('ignores progress after a photo is done', () => {
    const state = run(chosen, { type: 'uploaded', key: 'a', image: image('a') }, { type: 'progress', key: 'a', loaded: 10, total: 100 });
    expect(state.photos[0]).toMatchObject({ status: 'done', loaded: 3_000_000 });
  });

  it('adds a second pick after the photos already there (a phone gives one photo at a time)', () => {
    const first: UploadsAction = { type: 'chosen', files: [{ key: 'a', name: 'yam-1.jpg', size: 10 }] };
    const second: UploadsAction = { type: 'chosen', files: [{ key: 'b', name: 'yam-2.jpg', size: 10 }] };
    const state = run(first, { type: 'uploaded', key: 'a', image: image('img-a') }, second, {
      type: 'uploaded',
      key: 'b',
      image: image('img-b'),
    });
    expect(state.photos.map((p) => p.key)).toEqual(['a', 'b']);
    expect(uploadedImageIds(state)).toEqual(['img-a', 'img-b']);
  });

  it('moves a photo first (the cover) and posts the ids in the new order', () => {
    const third: UploadsAction = { type: 'chosen', files: [{ key: 'c', name: 'yam-3.jpg', size: 10 }] };
    const state = run(
      chosen,
      third,
      { type: 'uploaded', key: 'a', image: image('img-a') },
      { type: 'uploaded', key: 'b', image: image('img-b') },
      { type: 'uploaded', key: 'c', image: image('img-c') },
      { type: 'moved-first', key: 'c' },
    );
    expect(uploadedImageIds(state)).toEqual(['img-c', 'img-a', 'img-b']);
  });

  it('leaves the order alone when the first photo is moved first, or an unknown one', () => {
    const state = run(chosen);
    expect(uploadsReducer(state, { type: 'moved-first', key: 'a' })).toBe(state);
    expect(uploadsReducer(state, { type: 'moved-first', key: 'zz' })).toBe(state);
  });

  it('drops late news of a removed photo', () => {
    const state = run(chosen, { type: 'removed', key: 'a' }, { type: 'uploaded', key: 'a', image: image('img-a') });
    expect(state.photos.map((p) => p.key)).toEqual(['b']);
    expect(uploadedImageIds(state)).toEqual([]);
  });

  it('counts uploading and done photos toward 2–5, not failed ones', () => {
    const state = run(chosen, { type: 'failed', key: 'b', message: 'too big' });
    expect(countedPhotos(state)).toBe(1);
  });

  it('shows a posted product’s photos as done, in their order, before any new pick', () => {
    const state = run(
      {
        type: 'posted',
        photos: [
          { key: 'p1', name: 'Photo 1', image: { image_id: 'img-1', thumb_url: '/files/1-thumb.webp' } },
          { key: 'p2', name: 'Photo 2', image: { image_id: 'img-2', thumb_url: '/files/2-thumb.webp' } },
        ],
      },
      { type: 'chosen', files: [{ key: 'n', name: 'new.jpg', size: 10 }] },
    );
    expect(state.photos.map((p) => [p.key, p.status, p.posted ?? false])).toEqual([
      ['p1', 'done', true],
      ['p2', 'done', true],
      ['n', 'uploading', false],
    ]);
    expect(isUploading(state)).toBe(true);
    expect(uploadedImageIds(run({ type: 'posted', photos: [] }))).toEqual([]);
  });

  it('removes one photo', () => {
    const state = run(chosen, { type: 'removed', key: 'a' });
    expect(state.photos.map((p) => p.key)).toEqual(['b']);
  });

  it('clears everything when the form resets', () => {
    expect(run(chosen, { type: 'cleared' })).toEqual(noUploads);
    expect(isUploading(noUploads)).toBe(false);
  });

  it('never reports more than 100 % or divides by zero', () => {
    expect(percentSent({ loaded: 5, total: 0, status: 'uploading' })).toBe(0);
    expect(percentSent({ loaded: 500, total: 100, status: 'uploading' })).toBe(100);
  });
});
