// The state of the photos being uploaded for one product: each chosen file is a tile that goes from
// uploading (with byte progress) to done (with the media service's image) or failed (with its reason).
import type { StoredImage } from '@tuber/contracts';

export type UploadStatus = 'uploading' | 'done' | 'failed';

export interface PhotoUpload {
  /** Unique per chosen file, so late events of a replaced selection can be recognised and dropped. */
  key: string;
  name: string;
  /** Bytes sent so far and in total (total is the file size until the browser knows the request size). */
  loaded: number;
  total: number;
  /** False until the first progress event: without one (no byte progress available) the bar is indeterminate. */
  measured: boolean;
  status: UploadStatus;
  image?: StoredImage;
  error?: string;
}

export interface UploadsState {
  photos: PhotoUpload[];
}

export type UploadsAction =
  | { type: 'chosen'; files: { key: string; name: string; size: number }[] }
  | { type: 'progress'; key: string; loaded: number; total: number }
  | { type: 'uploaded'; key: string; image: StoredImage }
  | { type: 'failed'; key: string; message: string }
  | { type: 'removed'; key: string }
  | { type: 'cleared' };

export const noUploads: UploadsState = { photos: [] };

function update(state: UploadsState, key: string, change: (photo: PhotoUpload) => PhotoUpload): UploadsState {
  if (!state.photos.some((photo) => photo.key === key)) return state; // from a selection that was replaced
  return { photos: state.photos.map((photo) => (photo.key === key ? change(photo) : photo)) };
}

export function uploadsReducer(state: UploadsState, action: UploadsAction): UploadsState {
  switch (action.type) {
    case 'chosen':
      // A new selection replaces the previous one, as choosing files in a file input does.
      return {
        photos: action.files.map(({ key, name, size }) => ({ key, name, loaded: 0, total: size, measured: false, status: 'uploading' })),
      };
    case 'progress':
      return update(state, action.key, (photo) =>
        photo.status === 'uploading'
          ? { ...photo, loaded: Math.min(action.loaded, action.total), total: action.total, measured: true }
          : photo,
      );
    case 'uploaded':
      return update(state, action.key, (photo) => ({ ...photo, status: 'done', loaded: photo.total, image: action.image }));
    case 'failed':
      return update(state, action.key, (photo) => ({ ...photo, status: 'failed', error: action.message }));
    case 'removed':
      return { photos: state.photos.filter((photo) => photo.key !== action.key) };
    case 'cleared':
      return noUploads;
  }
}

export const isUploading = (state: UploadsState): boolean => state.photos.some((photo) => photo.status === 'uploading');

/** Ids of the uploaded photos, in the order they were chosen (the product keeps that order). */
export const uploadedImageIds = (state: UploadsState): string[] =>
  state.photos.flatMap((photo) => (photo.status === 'done' && photo.image ? [photo.image.image_id] : []));

/** Whole percent sent, 0–100. */
export function percentSent(photo: Pick<PhotoUpload, 'loaded' | 'total' | 'status'>): number {
  if (photo.status === 'done') return 100;
  if (photo.total <= 0) return 0;
  return Math.min(100, Math.floor((photo.loaded / photo.total) * 100));
}
