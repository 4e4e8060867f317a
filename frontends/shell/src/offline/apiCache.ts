// The page keeps a copy of each feed page and product it read (issue 13, docs/adr/0042-offline.md), in the
// cache the service worker answers from when the browser is offline. Kept by the page rather than the
// worker so that, online, API reads are the page's own requests (interception, errors and timing as
// without a worker). Only the reads isCachedApiPath names, only 200 answers, at most MAX_ENTRIES.
import { API_CACHE, isCachedApiPath } from '../sw/policy.js';

const MAX_ENTRIES = 120;

/** Whether this request's answer is one to keep (a GET of the feed or a product, on this origin). */
export function keepsAnswer(input: RequestInfo | URL, init?: RequestInit): URL | null {
  if (typeof window === 'undefined' || typeof caches === 'undefined') return null;
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  if (method !== 'GET') return null;
  const url = new URL(input instanceof Request ? input.url : String(input), window.location.href);
  return url.origin === window.location.origin && isCachedApiPath(url.pathname) ? url : null;
}

/** Stores `response` (a clone the caller does not read) for `url`; drops the oldest beyond MAX_ENTRIES. */
export async function keepAnswer(url: URL, response: Response): Promise<void> {
  if (response.status !== 200) return;
  try {
    const cache = await caches.open(API_CACHE);
    await cache.put(url.href, response);
    const keys = await cache.keys();
    for (const old of keys.slice(0, Math.max(0, keys.length - MAX_ENTRIES))) await cache.delete(old);
  } catch {
    // Storage full or unavailable: the page works as before, only without this copy offline.
  }
}
