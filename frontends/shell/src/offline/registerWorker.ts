// Registers the shell's service worker (/sw.js, built from src/sw/sw.ts) once the page has loaded, so the
// worker's precache downloads do not compete with the first render. Production builds only.
import { afterPageLoad } from '../afterPageLoad.js';
import { isRemoteEntryPath } from '../sw/policy.js';

export const WORKER_URL = '/sw.js';

/**
 * The first time a worker takes control of this page (the first visit), what the page loaded before it
 * did never went through it: remotes.json and the manifests and entries of the remotes in use are asked for again,
 * now through the worker, so they (and the pages those remotes expose) are kept for an offline start.
 */
function keepWhatLoadedBeforeTheWorker(): void {
  const url = (name: string) => new URL(name, window.location.href);
  const entries = performance
    .getEntriesByType('resource')
    .map((entry) => url(entry.name))
    .filter((seen) => seen.origin === window.location.origin && isRemoteEntryPath(seen.pathname));
  for (const path of new Set(['/remotes.json', ...entries.map((seen) => seen.pathname)])) {
    void fetch(path, { cache: 'no-cache' }).catch(() => undefined);
  }
}

export function registerServiceWorker(): void {
  if (process.env.NODE_ENV !== 'production' || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  if (!navigator.serviceWorker.controller) {
    navigator.serviceWorker.addEventListener('controllerchange', keepWhatLoadedBeforeTheWorker, { once: true });
  }
  const register = () =>
    navigator.serviceWorker.register(WORKER_URL, { scope: '/' }).catch((error: unknown) => {
      console.error('[shell] the offline service worker could not be registered', error);
    });
  afterPageLoad(() => void register());
}

/**
 * The web app manifest (install to the home screen). The shared page template has no link to it. Linked once the
 * page has loaded: the browser fetches the manifest and its icon as soon as the link is in the page.
 */
export function linkManifest(): void {
  if (typeof document === 'undefined') return;
  afterPageLoad(() => {
    if (document.querySelector('link[rel="manifest"]')) return;
    const link = document.createElement('link');
    link.rel = 'manifest';
    link.href = '/manifest.webmanifest';
    document.head.appendChild(link);
  });
}
