// The shell's service worker (Workbox, built by InjectManifest in webpack.config.ts into /sw.js).
// What is kept and for how long, per route, and why: docs/adr/0042-offline.md.
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { clientsClaim } from 'workbox-core';
import type { WorkboxPlugin } from 'workbox-core/types.js';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { CacheFirst, CacheOnly, NetworkFirst } from 'workbox-strategies';
import { OFFLINE_SEND_MESSAGE } from '../offline/copy.js';
import {
  API_CACHE,
  exposedFiles,
  FROM_CACHE_HEADER,
  IMAGE_CACHE,
  isApiSend,
  isCachedApiPath,
  isRemoteEntryPath,
  isShellNavigation,
  MESSAGE_CLEAR_PRIVATE,
  MESSAGE_NETWORK_FAILED,
  PRIVATE_CACHES,
  REMOTE_CHUNK_CACHE,
  REMOTE_ENTRY_CACHE,
} from './policy.js';

/** The parts of the worker's global scope used here (the shell compiles against the DOM library). */
interface WorkerScope {
  __WB_MANIFEST: (string | PrecacheEntry)[];
  navigator: { onLine: boolean };
  skipWaiting(): Promise<void>;
  clients: { matchAll(options?: { type?: string }): Promise<{ postMessage(message: unknown): void }[]> };
  addEventListener(type: 'message', listener: (event: { data: unknown; waitUntil(promise: Promise<unknown>): void }) => void): void;
}
const worker = self as unknown as WorkerScope;

// A new worker takes over at once: the next start of the app runs the new shell (its files are in the new
// precache), and remotes are asked for their manifests again anyway.
void worker.skipWaiting();
clientsClaim();

// ---------- the shell: its page and scripts, precached at install (revisioned by content) ----------
// InjectManifest puts in place of the manifest placeholder the list of the shell's built files.
precacheAndRoute((self as unknown as WorkerScope).__WB_MANIFEST);
cleanupOutdatedCaches();
// Every address of the single-page shell opens its page from the precache, online or not: the router
// decides the rest. (A new shell arrives with a new worker, see above.)
const shellPage = createHandlerBoundToURL('/index.html');
registerRoute(({ request, url, sameOrigin }) => sameOrigin && request.mode === 'navigate' && isShellNavigation(url.pathname), shellPage);

const okOnly = new CacheableResponsePlugin({ statuses: [200] });

/** Tells the open pages that the network failed, so they show the offline bar. */
async function tellPagesNetworkFailed(): Promise<void> {
  const pages = await worker.clients.matchAll({ type: 'window' });
  pages.forEach((page) => page.postMessage({ type: MESSAGE_NETWORK_FAILED }));
}

/** Marks an answer taken from the cache after the network failed, and tells the pages. */
const markOfflineCopy: WorkboxPlugin = {
  cachedResponseWillBeUsed: async ({ cachedResponse }) => {
    if (!cachedResponse) return cachedResponse;
    void tellPagesNetworkFailed();
    const headers = new Headers(cachedResponse.headers);
    headers.set(FROM_CACHE_HEADER, '1');
    return new Response(await cachedResponse.blob(), { status: cachedResponse.status, statusText: cachedResponse.statusText, headers });
  },
};

/**
 * A remote in use is kept whole: when its mf-manifest.json is stored, the files of all the pages it exposes
 * that are not yet kept are fetched into the chunk cache (hashed names: each release's files once).
 */
const keepRemotePages: WorkboxPlugin = {
  cacheDidUpdate: async ({ request, newResponse }) => {
    const manifestUrl = new URL(request.url);
    if (!manifestUrl.pathname.endsWith('/mf-manifest.json')) return;
    const files = exposedFiles(
      await newResponse
        .clone()
        .json()
        .catch(() => null),
    );
    const cache = await caches.open(REMOTE_CHUNK_CACHE);
    for (const file of files) {
      const url = new URL(file, manifestUrl).href;
      if (!url.startsWith(`${manifestUrl.origin}/mf/`) || (await cache.match(url))) continue;
      try {
        const response = await fetch(url);
        if (response.status === 200) await cache.put(url, response);
      } catch {
        return; // the network went: the rest waits for the next start
      }
    }
  },
};

// ---------- remotes: entries network first (a redeployed remote is used on the next start), chunks by hash ----------
registerRoute(
  ({ url, sameOrigin }) => sameOrigin && isRemoteEntryPath(url.pathname),
  new NetworkFirst({ cacheName: REMOTE_ENTRY_CACHE, networkTimeoutSeconds: 6, plugins: [okOnly, keepRemotePages] }),
);
registerRoute(
  ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/mf/') && !isRemoteEntryPath(url.pathname),
  new CacheFirst({
    cacheName: REMOTE_CHUNK_CACHE,
    plugins: [okOnly, new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 60 * 60 * 24 * 60, purgeOnQuotaError: true })],
  }),
);

// ---------- what a person saw: feed pages and product pages, their photos (cache first) ----------
// Online, API reads go to the network untouched by the worker: the page's API client keeps a copy of each
// feed and product answer (offline/apiCache.ts), so request interception in tests, devtools and the
// services' error answers behave as without a worker. Offline, the worker answers them from that copy.
const offline = () => !worker.navigator.onLine;
registerRoute(
  ({ url, sameOrigin, request }) => sameOrigin && request.method === 'GET' && isCachedApiPath(url.pathname) && offline(),
  new CacheOnly({ cacheName: API_CACHE, plugins: [markOfflineCopy] }),
);
registerRoute(
  ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/files/'),
  new CacheFirst({
    cacheName: IMAGE_CACHE,
    plugins: [okOnly, new ExpirationPlugin({ maxEntries: 200, maxAgeSeconds: 60 * 60 * 24 * 30, purgeOnQuotaError: true })],
  }),
);

// ---------- sends: never cached or queued; offline, answered in words without trying ----------
// Online the worker leaves them alone. Offline, the shell's API client refuses first; this answers the
// remotes that send with a fetch of their own (the buyer's order request).
for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
  registerRoute(
    ({ url, sameOrigin, request }) => sameOrigin && isApiSend(request.method, url.pathname) && offline(),
    async () => {
      void tellPagesNetworkFailed();
      // Problem details (docs/adr/0064): code OFFLINE, which every front end words in the reader's language.
      const body = {
        type: 'urn:tuber-market:problem:offline',
        title: 'Service Unavailable',
        status: 503,
        detail: OFFLINE_SEND_MESSAGE,
        code: 'OFFLINE',
        statusCode: 503,
        error: 'Service Unavailable',
        message: OFFLINE_SEND_MESSAGE,
      };
      return new Response(JSON.stringify(body), { status: 503, headers: { 'content-type': 'application/json; charset=utf-8' } });
    },
    method,
  );
}

// ---------- logout on a shared phone: the page asks, the private caches go ----------
worker.addEventListener('message', (event) => {
  const data = event.data as { type?: unknown } | null;
  if (data?.type !== MESSAGE_CLEAR_PRIVATE) return;
  event.waitUntil(Promise.all(PRIVATE_CACHES.map((name) => caches.delete(name))));
});
