// The photos of one product as the form holds them: each is a tile that goes from uploading (with byte
// progress) to done (with the media service's image) or failed (with its reason). A pick adds tiles to the
// ones already there (a phone's camera gives one photo at a time); a tile can be removed or moved first,
// and the first photo is the product's cover. On the edit page the product's posted photos come first,
// as done tiles.
import type { StoredImage } from '@tuber/contracts';

export type UploadStatus = 'uploading' | 'done' | 'failed';

/** What a tile needs of a stored photo (a posted product's photo has no more than this). */
export type PhotoImage = Pick<StoredImage, 'image_id' | 'thumb_url'> & Partial<Pick<StoredImage, 'width' | 'height'>>;

export interface PhotoUpload {
  /** Unique per tile, so late events of a removed photo can be recognised and dropped. */
  key: string;
  name: string;
  /** Bytes sent so far and in total (total is the file size until the browser knows the request size). */
  loaded: number;
  total: number;
  /** False until the first progress event: without one (no byte progress available) the bar is indeterminate. */
  measured: boolean;
  status: UploadStatus;
  image?: PhotoImage;
  error?: string;
  /** Already part of the product (edit page), not uploaded now. */
  posted?: boolean;
  /** Being made smaller in the browser before it is sent (issue 13); the bar waits meanwhile. */
  preparing?: boolean;
}

export interface UploadsState {
  photos: PhotoUpload[];
}

export type UploadsAction =
  | { type: 'chosen'; files: { key: string; name: string; size: number }[] }
  | { type: 'posted'; photos: { key: string; name: string; image: PhotoImage; posted?: boolean }[] }
  | { type: 'prepared'; key: string; size: number }
  | { type: 'progress'; key: string; loaded: number; total: number }
  | { type: 'uploaded'; key: string; image: PhotoImage }
  | { type: 'failed'; key: string; message: string }
  | { type: 'removed'; key: string }
  | { type: 'moved-first'; key: string }
  | { type: 'cleared' };

export const noUploads: UploadsState = { photos: [] };

function update(state: UploadsState, key: string, change: (photo: PhotoUpload) => PhotoUpload): UploadsState {
  if (!state.photos.some((photo) => photo.key === key)) return state; // a photo removed meanwhile
  return { photos: state.photos.map((photo) => (photo.key === key ? change(photo) : photo)) };
}

export function uploadsReducer(state: UploadsState, action: UploadsAction): UploadsState {
  switch (action.type) {
    case 'chosen':
      // Added after the photos already there: each pick adds, none replaces.
      return {
        photos: [
          ...state.photos,
          ...action.files.map(({ key, name, size }): PhotoUpload => ({
            key,
            name,
            loaded: 0,
            total: size,
            measured: false,
            status: 'uploading',
            preparing: true,
          })),
        ],
      };
    case 'posted':
      return {
        photos: action.photos.map(({ key, name, image, posted = true }) => ({
          key,
          name,
          loaded: 1,
          total: 1,
          measured: true,
          status: 'done',
          image,
          posted,
        })),
      };
    case 'prepared':
      // The bytes that will really be sent (the resized photo, or the original when it was small enough).
      return update(state, action.key, (photo) => ({ ...photo, preparing: false, total: action.size }));
    case 'progress':
      return update(state, action.key, (photo) =>
        photo.status === 'uploading'
          ? { ...photo, preparing: false, loaded: Math.min(action.loaded, action.total), total: action.total, measured: true }
          : photo,
      );
    case 'uploaded':
      return update(state, action.key, (photo) => ({
        ...photo,
        status: 'done',
        preparing: false,
        loaded: photo.total,
        image: action.image,
      }));
    case 'failed':
      return update(state, action.key, (photo) => ({ ...photo, status: 'failed', preparing: false, error: action.message }));
    case 'removed':
      return { photos: state.photos.filter((photo) => photo.key !== action.key) };
    case 'moved-first': {
      const moved = state.photos.find((photo) => photo.key === action.key);
      if (!moved || state.photos[0] === moved) return state;
      return { photos: [moved, ...state.photos.filter((photo) => photo !== moved)] };
    }
    case 'cleared':
      return noUploads;
  }
}

export const isUploading = (state: UploadsState): boolean => state.photos.some((photo) => photo.status === 'uploading');

/** Photos that will be part of the product once uploads end: done or still uploading (failed ones do not count). */
export const countedPhotos = (state: UploadsState): number => state.photos.filter((photo) => photo.status !== 'failed').length;

export const uploadingPhotos = (state: UploadsState): number => state.photos.filter((photo) => photo.status === 'uploading').length;
export const failedPhotos = (state: UploadsState): number => state.photos.filter((photo) => photo.status === 'failed').length;

/** Ids of the uploaded photos in the order shown (the first is the cover; the product keeps that order). */
export const uploadedImageIds = (state: UploadsState): string[] =>
  state.photos.flatMap((photo) => (photo.status === 'done' && photo.image ? [photo.image.image_id] : []));

/** Whole percent sent, 0–100. */
export function percentSent(photo: Pick<PhotoUpload, 'loaded' | 'total' | 'status'>): number {
  if (photo.status === 'done') return 100;
  if (photo.total <= 0) return 0;
  return Math.min(100, Math.floor((photo.loaded / photo.total) * 100));
}
