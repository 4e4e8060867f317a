// The API client the shell hands to remotes (ShellContract.api): JSON over fetch to the gateway's /api, bearer
// token attached, every failure turned into an ApiError (the shell contract's, so one class on the page).
import { ApiError, type ApiClient } from '@tuber/shell-contract';

export { ApiError, type ApiClient, type ApiErrorBody } from '@tuber/shell-contract';

export interface ApiClientOptions {
  /** Prefix of every path, e.g. "/api". */
  baseUrl: string;
  /** Current access token, or null when anonymous. */
  getAccessToken?: () => string | null | Promise<string | null>;
  fetch?: typeof fetch;
}

/**
 * What a send (POST/PUT/PATCH/DELETE) answers while the browser is offline: it is not attempted, so nothing
 * reached the server (issue 13). The shell's service worker answers a send whose network fails with the same
 * words (frontends/shell/src/offline/copy.ts).
 */
export const OFFLINE_SEND_MESSAGE = 'You are offline. Sending needs the network — nothing was sent; try again when you are back online.';

/** statusCode of an ApiError for a request that never reached a server (offline or the network failed). */
export const NO_ANSWER = 0;

function browserOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

function isErrorBody(value: unknown): value is { statusCode: number; error?: string; message: string } {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as Record<string, unknown>;
  return typeof body.statusCode === 'number' && typeof body.message === 'string';
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const { baseUrl, getAccessToken = () => null } = options;
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  async function request<T>(method: string, path: string, body: unknown, init: RequestInit = {}): Promise<T> {
    const sends = method !== 'GET' && method !== 'HEAD';
    // A send while offline would only fail later with the browser's words; say why now, and send nothing.
    if (sends && browserOffline()) throw new ApiError(NO_ANSWER, 'Offline', OFFLINE_SEND_MESSAGE);
    const headers = new Headers(init.headers);
    headers.set('accept', 'application/json');
    const token = await getAccessToken();
    if (token) headers.set('authorization', `Bearer ${token}`);
    let payload: BodyInit | undefined;
    if (body instanceof FormData || body instanceof Blob) payload = body;
    else if (body !== undefined) {
      headers.set('content-type', 'application/json');
      payload = JSON.stringify(body);
    }

    let response: Response;
    try {
      response = await doFetch(`${baseUrl.replace(/\/$/, '')}${path}`, { ...init, method, headers, body: payload ?? null });
    } catch (cause) {
      if (sends && browserOffline()) throw new ApiError(NO_ANSWER, 'Offline', OFFLINE_SEND_MESSAGE);
      throw new ApiError(NO_ANSWER, 'Network Error', cause instanceof Error ? cause.message : 'The server could not be reached');
    }
    const text = await response.text();
    let parsed: unknown = undefined;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
    }
    if (!response.ok) {
      if (isErrorBody(parsed)) throw new ApiError(parsed.statusCode, parsed.error ?? response.statusText, parsed.message);
      throw new ApiError(response.status, response.statusText || 'Error', `Request failed with status ${response.status}`);
    }
    return parsed as T;
  }

  return {
    get: (path, init) => request('GET', path, undefined, init),
    post: (path, body, init) => request('POST', path, body, init),
    put: (path, body, init) => request('PUT', path, body, init),
    patch: (path, body, init) => request('PATCH', path, body, init),
    delete: (path, init) => request('DELETE', path, undefined, init),
  };
}
