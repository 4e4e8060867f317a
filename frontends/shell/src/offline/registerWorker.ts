// Registers the shell's service worker (/sw.js, built from src/sw/sw.ts) once the page has loaded, so the
// worker's precache downloads do not compete with the first render. Production builds only.
export const WORKER_URL = '/sw.js';

export function registerServiceWorker(): void {
  if (process.env.NODE_ENV !== 'production' || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  const register = () =>
    navigator.serviceWorker.register(WORKER_URL, { scope: '/' }).catch((error: unknown) => {
      console.error('[shell] the offline service worker could not be registered', error);
    });
  if (document.readyState === 'complete') void register();
  else window.addEventListener('load', () => void register(), { once: true });
}

/** The web app manifest (install to the home screen). The shared page template has no link to it. */
export function linkManifest(): void {
  if (typeof document === 'undefined' || document.querySelector('link[rel="manifest"]')) return;
  const link = document.createElement('link');
  link.rel = 'manifest';
  link.href = '/manifest.webmanifest';
  document.head.appendChild(link);
}
