// POST /api/orders/requests (issue 12). A refusal (409) carries one problem per line, which the shell's API
// client does not pass on (its errors keep only statusCode, error and message), so the request goes through
// fetch with the shell's access token; without one (a stand-in shell) the API client is used and a refusal
// shows its message only.
import { BUYER_BLOCKED } from '@tuber/contracts';
import { ApiError, type ApiClient } from '@tuber/shell-contract';
import { asOrderRefused } from './problems.js';
import { REQUESTS_PATH, type NewOrderRequest, type OrderRefused, type OrderRequest } from './types.js';
import { problemText } from '@tuber/ui';

export type SendOutcome =
  | { kind: 'sent'; request: OrderRequest }
  | { kind: 'refused'; refused: OrderRefused }
  /** 403 BUYER_BLOCKED (issue 24): this farmer blocked the buyer; nothing was kept. `message` is the service's. */
  | { kind: 'blocked'; message: string }
  /** `definite`: the server answered and kept nothing (4xx), so the next try may use a new request id. */
  | { kind: 'failed'; message: string; definite: boolean };

export interface SendDeps {
  api: ApiClient;
  getAccessToken?: () => Promise<string | null>;
  fetch?: typeof fetch;
  /** The API client's base, for the direct fetch. */
  baseUrl?: string;
}

/** The answer's problem (its code, else its status) in the reader's words (docs/adr/0064). */
function messageOf(body: unknown, status: number): string {
  return problemText({ ...(typeof body === 'object' && body !== null ? body : {}), statusCode: status });
}

export async function sendOrderRequest(deps: SendDeps, body: NewOrderRequest): Promise<SendOutcome> {
  if (!deps.getAccessToken) {
    try {
      return { kind: 'sent', request: await deps.api.post<OrderRequest>(REQUESTS_PATH, body) };
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 409) {
        return { kind: 'refused', refused: { statusCode: 409, error: error.error, message: problemText(error), problems: [] } };
      }
      const status = error instanceof ApiError ? error.statusCode : 0;
      return { kind: 'failed', message: problemText(error), definite: status >= 400 && status < 500 };
    }
  }
  const doFetch = deps.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  let response: Response;
  try {
    const token = await deps.getAccessToken();
    const headers: Record<string, string> = { accept: 'application/json, application/problem+json', 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    response = await doFetch(`${deps.baseUrl ?? '/api'}${REQUESTS_PATH}`, { method: 'POST', headers, body: JSON.stringify(body) });
  } catch (error) {
    return { kind: 'failed', message: problemText(error), definite: false };
  }
  const text = await response.text().catch(() => '');
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (response.ok) return { kind: 'sent', request: parsed as OrderRequest };
  if (response.status === 403 && (parsed as { code?: unknown } | undefined)?.code === BUYER_BLOCKED) {
    return { kind: 'blocked', message: messageOf(parsed, response.status) };
  }
  const refused = asOrderRefused(response.status, parsed);
  if (refused) return { kind: 'refused', refused };
  return { kind: 'failed', message: messageOf(parsed, response.status), definite: response.status >= 400 && response.status < 500 };
}

/** A v4 UUID for request_id; crypto.randomUUID needs a secure page, getRandomValues does not. */
export function newRequestId(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === 'function') {
    try {
      return c.randomUUID();
    } catch {
      // not a secure context: build one below
    }
  }
  const bytes = new Uint8Array(16);
  c.getRandomValues(bytes);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
