// Sends one photo to the media service (POST /api/media/images, field "file") and reports upload progress.
// XMLHttpRequest rather than fetch: only XHR tells how many bytes of the request body have been sent.
import type { StoredImage } from '@tuber/contracts';
import { ApiError, type ApiClient } from '@tuber/ui';

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

function errorFromXhr(xhr: XMLHttpRequest): ApiError {
  try {
    const body = JSON.parse(xhr.responseText) as { statusCode?: unknown; error?: unknown; message?: unknown };
    if (typeof body.message === 'string') return new ApiError(xhr.status, String(body.error ?? xhr.statusText), body.message);
  } catch {
    // not JSON (e.g. a proxy's HTML error page)
  }
  if (xhr.status === 413) return new ApiError(413, 'Payload Too Large', 'The photo is too large');
  return new ApiError(xhr.status, xhr.statusText || 'Error', `Request failed with status ${xhr.status}`);
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
      } else reject(errorFromXhr(xhr));
    };
    xhr.onerror = () => reject(new ApiError(0, 'Network Error', 'The server could not be reached'));
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
