// Whether the page should say it is offline: the browser's own flag (navigator.onLine and its online/offline
// events) or a request that just failed to reach the network (the API client's fetch, or the service
// worker answering from its cache). Read by the offline bar and the offline session (useSyncExternalStore).
import { FROM_CACHE_HEADER, MESSAGE_NETWORK_FAILED } from '../sw/policy.js';
import { keepAnswer, keepsAnswer } from './apiCache.js';

type Listener = () => void;

const listeners = new Set<Listener>();
/** A request failed although the browser believed it was online; cleared by the next answer from the network. */
let unreachable = false;
let watching = false;

function browserOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

function notify() {
  listeners.forEach((listener) => listener());
}

export function isOffline(): boolean {
  return browserOffline() || unreachable;
}

export function markUnreachable(): void {
  if (unreachable) return;
  unreachable = true;
  notify();
}

export function markReachable(): void {
  if (!unreachable) return;
  unreachable = false;
  notify();
}

function watch() {
  if (watching || typeof window === 'undefined') return;
  watching = true;
  window.addEventListener('online', () => {
    unreachable = false;
    notify();
  });
  window.addEventListener('offline', notify);
  navigator.serviceWorker?.addEventListener('message', (event: MessageEvent<unknown>) => {
    const data = event.data as { type?: unknown } | null;
    if (data?.type === MESSAGE_NETWORK_FAILED) markUnreachable();
  });
}

export function subscribeNetwork(listener: Listener): () => void {
  watch();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The API client's fetch: notes a request that could not reach the network, or an answer the service worker
 * took from its cache, and a real answer from the network; keeps a copy of the feed and product answers
 * for offline (apiCache.ts).
 */
export function networkAwareFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  return fetch(input, init).then(
    (response) => {
      if (response.headers.get(FROM_CACHE_HEADER)) {
        markUnreachable();
        return response;
      }
      markReachable();
      const kept = keepsAnswer(input, init);
      if (kept && response.status === 200) void keepAnswer(kept, response.clone());
      return response;
    },
    (error: unknown) => {
      const aborted = error instanceof DOMException && error.name === 'AbortError';
      if (!aborted) markUnreachable();
      throw error;
    },
  );
}
