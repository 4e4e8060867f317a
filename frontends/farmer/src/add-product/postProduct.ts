// POST /api/catalog/products with an Idempotency-Key (issue 24, ADR 0059). The key is made once for what
// the farmer submits and goes with every try of that submission: the page's own tries after no answer or a
// gateway failure, and the farmer pressing Post again on the same form after an error. The catalog answers
// every try with the one product the first made, so a post whose answer was lost is never made twice. A
// changed form is another product, with a key of its own.
import { ApiError, type ApiClient } from '@tuber/shell-contract';
import type { NewProduct, Product } from '@tuber/contracts';

export const PRODUCTS_PATH = '/catalog/products';
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** A submission of the form: its key and the body it was made for. */
export interface Submission {
  key: string;
  body: string;
}

/** 32 hex characters of the browser's random source (getRandomValues works on any page, randomUUID on secure ones only). */
export function newPostKey(fill: (bytes: Uint8Array) => Uint8Array = (bytes) => globalThis.crypto.getRandomValues(bytes)): string {
  return Array.from(fill(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The submission of `body`: the last one again when the body is the same (a retry of it), else a new key. */
export function submissionOf(last: Submission | null, body: NewProduct, makeKey: () => string = newPostKey): Submission {
  const json = JSON.stringify(body);
  return last && last.body === json ? last : { key: makeKey(), body: json };
}

/**
 * Failures after which the post may have been made, or not, and nobody said: no answer from a browser
 * that is online, or the gateway's or a server's 502/503/504. Sent again with the same key.
 */
export function worthAnotherTry(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.statusCode === 0) return error.error !== 'Offline'; // offline: nothing was sent
  return error.statusCode === 502 || error.statusCode === 503 || error.statusCode === 504;
}

export interface PostOptions {
  /** Tries in all (default 3). */
  tries?: number;
  wait?: (ms: number) => Promise<void>;
}

/** Posts the product under the submission's key; tries again (1 s, then 2 s later) while that may help. */
export async function postProduct(api: ApiClient, body: NewProduct, key: string, options: PostOptions = {}): Promise<Product | null> {
  const tries = options.tries ?? 3;
  const wait = options.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  // The IETF draft's form of the header: a String, quoted.
  const init = { headers: { [IDEMPOTENCY_KEY_HEADER]: `"${key}"` } };
  for (let attempt = 1; ; attempt++) {
    try {
      return await api.post<Product | null>(PRODUCTS_PATH, body, init);
    } catch (error) {
      if (attempt >= tries || !worthAnotherTry(error)) throw error;
      await wait(1_000 * attempt);
    }
  }
}
