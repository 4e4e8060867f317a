// What the service worker caches and under which names: shared by the worker (sw.ts) and the page
// (offline/privateCaches.ts clears the private ones at logout). docs/adr/0042-offline.md.

/** Prefix of every cache this product's worker makes (Workbox's precache is named by Workbox). */
export const CACHE_PREFIX = 'tuber-';

/** remotes.json, each remote's mf-manifest.json and remoteEntry.js: network first, the copy only offline. */
export const REMOTE_ENTRY_CACHE = `${CACHE_PREFIX}remote-entries`;
/** Content-hashed chunks and assets of the remotes (/mf/<remote>/…): they never change under one name. */
export const REMOTE_CHUNK_CACHE = `${CACHE_PREFIX}remote-chunks`;
/** Product photos (/files/<name>): a name is one photo variant for good. */
export const IMAGE_CACHE = `${CACHE_PREFIX}images`;
/** API answers a signed-in person saw (feed pages, product pages): private to that person, gone at logout. */
export const API_CACHE = `${CACHE_PREFIX}api`;

/** Caches that hold what one person saw; cleared at logout and when another person signs in. */
export const PRIVATE_CACHES = [API_CACHE, IMAGE_CACHE] as const;

/** Set by the worker on an API answer it took from its cache because the network failed. */
export const FROM_CACHE_HEADER = 'x-tuber-offline-copy';

/** Messages between page and worker. */
export const MESSAGE_CLEAR_PRIVATE = 'tuber:clear-private-caches';
export const MESSAGE_NETWORK_FAILED = 'tuber:network-failed';

/**
 * The API GETs kept for offline: the feed's pages and a product by id (with its nutrition, in the same answer),
 * and the price guide's public figures (the markers on the cards, the price field's line, the price pages: issue 27).
 */
export function isCachedApiPath(pathname: string): boolean {
  return (
    /^\/api\/catalog\/products$/.test(pathname) ||
    /^\/api\/catalog\/prices\/(?:now|[a-z-]+\/(?:now|history))$/.test(pathname) ||
    (/^\/api\/catalog\/products\/[^/]+$/.test(pathname) && pathname !== '/api/catalog/products/mine') ||
    /^\/api\/nutrition\/[^?]*$/.test(pathname)
  );
}

/**
 * remotes.json (the live pointer, which a release or a rollback rewrites) and each remote's manifest and entry,
 * at its unversioned prefix (the name stays across releases) or under a released version (/mf/<name>/<version>/,
 * docs/delivery.md: never changes, but network first keeps its pages kept together for offline use).
 */
export function isRemoteEntryPath(pathname: string): boolean {
  return pathname === '/remotes.json' || /^\/mf\/[^/]+\/(?:[0-9][^/]*\/)?(mf-manifest\.json|remoteEntry\.js)$/.test(pathname);
}

/** Navigations the single-page shell answers (not the APIs, sign-in, photos, remotes or the check-sso page). */
export function isShellNavigation(pathname: string): boolean {
  return !/^\/(api|auth|files|mf)\//.test(pathname) && pathname !== '/silent-check-sso.html';
}

/** Sends that go through the worker so a failed one gets an answer a person can read (uploads do not). */
export function isApiSend(method: string, pathname: string): boolean {
  return method !== 'GET' && method !== 'HEAD' && pathname.startsWith('/api/') && pathname !== '/api/media/images';
}

interface ManifestAssets {
  assets?: { js?: { sync?: unknown; async?: unknown }; css?: { sync?: unknown; async?: unknown } };
}

/**
 * The files of every page a remote exposes, as its mf-manifest.json lists them (relative to the manifest):
 * kept ahead once the remote is used, so its other pages (the cart after the feed) open offline too.
 */
export function exposedFiles(manifest: unknown): string[] {
  const exposes = (manifest as { exposes?: unknown } | null)?.exposes;
  if (!Array.isArray(exposes)) return [];
  const files = new Set<string>();
  for (const expose of exposes as ManifestAssets[]) {
    for (const list of [expose.assets?.js?.sync, expose.assets?.js?.async, expose.assets?.css?.sync, expose.assets?.css?.async]) {
      if (!Array.isArray(list)) continue;
      for (const file of list) if (typeof file === 'string' && /^[\w./-]+$/.test(file) && !file.includes('..')) files.add(file);
    }
  }
  return [...files];
}
