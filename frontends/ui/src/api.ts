// The API client the shell hands to remotes (ShellContract.api): JSON over fetch to the gateway's /api, bearer
// token attached, every failure turned into an ApiError (the shell contract's, so one class on the page).
import { ApiError, type ApiClient, type ApiFieldProblem, type ApiProblem } from '@tuber/shell-contract';

export { ApiError, type ApiClient, type ApiErrorBody, type ApiFieldProblem, type ApiProblem } from '@tuber/shell-contract';

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

/** What a read answers while the browser is offline (code OFFLINE_READ): it is tried again when the network is back. */
export const OFFLINE_READ_MESSAGE = 'You are offline. This will load when you are back online.';

/** statusCode of an ApiError for a request that never reached a server (offline or the network failed). */
export const NO_ANSWER = 0;

function browserOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

interface ErrorBody {
  statusCode: number;
  error?: string;
  message: string;
  code?: unknown;
  params?: unknown;
  errors?: unknown;
}

function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as Record<string, unknown>;
  return typeof body.statusCode === 'number' && typeof body.message === 'string';
}

/** The problem-details part of an error body (contracts/src/problems.ts), kept only where it has the right shape. */
function problemOf(body: ErrorBody): ApiProblem {
  const problem: { -readonly [K in keyof ApiProblem]: ApiProblem[K] } = {};
  if (typeof body.code === 'string') problem.code = body.code;
  if (body.params && typeof body.params === 'object' && !Array.isArray(body.params)) problem.params = body.params as Record<string, string | number>;
  if (Array.isArray(body.errors)) {
    problem.errors = body.errors.filter(
      (e): e is ApiFieldProblem => !!e && typeof e === 'object' && typeof e.field === 'string' && typeof e.code === 'string',
    );
  }
  return problem;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const { baseUrl, getAccessToken = () => null } = options;
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  async function request<T>(method: string, path: string, body: unknown, init: RequestInit = {}): Promise<T> {
    const sends = method !== 'GET' && method !== 'HEAD';
    // A send while offline would only fail later with the browser's words; say why now, and send nothing.
    if (sends && browserOffline()) throw new ApiError(NO_ANSWER, 'Offline', OFFLINE_SEND_MESSAGE, { code: 'OFFLINE' });
    const headers = new Headers(init.headers);
    // Problem details for errors (docs/adr/0064); a service that predates them answers JSON either way.
    headers.set('accept', 'application/json, application/problem+json');
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
      if (sends && browserOffline()) throw new ApiError(NO_ANSWER, 'Offline', OFFLINE_SEND_MESSAGE, { code: 'OFFLINE' });
      if (browserOffline()) throw new ApiError(NO_ANSWER, 'Offline', OFFLINE_READ_MESSAGE, { code: 'OFFLINE_READ' });
      throw new ApiError(NO_ANSWER, 'Network Error', cause instanceof Error ? cause.message : 'The server could not be reached', {
        code: 'NETWORK_FAILED',
      });
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
      if (isErrorBody(parsed)) throw new ApiError(parsed.statusCode, parsed.error ?? response.statusText, parsed.message, problemOf(parsed));
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
