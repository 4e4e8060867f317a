// Sends one photo to the media service (POST /api/media/images, field "file") and reports upload progress.
// XMLHttpRequest rather than fetch: only XHR tells how many bytes of the request body have been sent.
import type { StoredImage } from '@tuber/contracts';
import { ApiError, type ApiClient } from '@tuber/shell-contract';
import { tr } from '../i18n/t.js';

export interface UploadOptions {
  /** The gateway's API prefix, e.g. "/api". */
  apiBaseUrl: string;
  /** Bearer token for the request; without it the upload goes through the shell's API client (no byte progress). */
  getAccessToken?: () => string | null | Promise<string | null>;
  api: ApiClient;
  onProgress: (loaded: number, total: number) => void;
  signal: AbortSignal;
}

const UPLOAD_PATH = '/media/images';

/** The services' error shape from a failed upload answer; a proxy's HTML page (e.g. nginx's 413) still gets a sentence. */
export function uploadError(status: number, statusText: string, responseText: string): ApiError {
  try {
    const body = JSON.parse(responseText) as { error?: unknown; message?: unknown; code?: unknown; params?: unknown };
    if (typeof body.message === 'string' && body.message) {
      // Its code and values too, so the photo's error is worded in the farmer's language (docs/adr/0064).
      const params = body.params && typeof body.params === 'object' ? (body.params as Record<string, string | number>) : undefined;
      return new ApiError(status, String(body.error ?? statusText), body.message, {
        ...(typeof body.code === 'string' ? { code: body.code } : {}),
        ...(params ? { params } : {}),
      });
    }
  } catch {
    // not JSON
  }
  if (status === 0) return new ApiError(0, 'Network Error', tr('photos.network_error'));
  if (status === 413) return new ApiError(413, 'Payload Too Large', tr('photos.too_large'));
  return new ApiError(status, statusText || 'Error', `Request failed with status ${status}`);
}

function xhrUpload(file: File, token: string, options: UploadOptions): Promise<StoredImage> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${options.apiBaseUrl.replace(/\/$/, '')}${UPLOAD_PATH}`);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => options.onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as StoredImage);
        } catch {
          reject(new ApiError(xhr.status, 'Bad Response', 'The media service answered with something that is not JSON'));
        }
      } else reject(uploadError(xhr.status, xhr.statusText, xhr.responseText));
    };
    xhr.onerror = () => reject(uploadError(0, '', ''));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
    if (options.signal.aborted) return reject(new DOMException('The upload was cancelled', 'AbortError'));
    options.signal.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

export async function uploadPhoto(file: File, options: UploadOptions): Promise<StoredImage> {
  const token = options.getAccessToken ? await options.getAccessToken() : null;
  if (token) return xhrUpload(file, token, options);
  const form = new FormData();
  form.append('file', file, file.name);
  const image = await options.api.post<StoredImage>(UPLOAD_PATH, form, { signal: options.signal });
  options.onProgress(file.size, file.size);
  return image;
}
