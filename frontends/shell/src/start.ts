// The page's first work, before React: discovery, the first page's files, the sign-in check,
// the web app manifest and the service worker. Imported by index.ts ahead of the bootstrap (ES modules run in
// import order), so all of it is on its way before React renders anything.
import { linkManifest, registerServiceWorker } from './offline/registerWorker.js';
import { discoverRemotes, preloadRemotePage } from './remotes/registry.js';
import { routePage } from './remotes/routePages.js';
import { startEarlyCheck } from './session/earlyCheck.js';

/**
 * Sets up the engine's number data while the page waits for its remote's files (a throwaway format, not
 * @tuber/ui's prepareNumberFormats: importing @tuber/ui here would run React's and @tuber/ui's modules before this
 * module's requests leave, ES imports being evaluated first): a page's first Intl.NumberFormat
 * costs 15–30 ms on a fast machine (several times that on a cheap phone), and the remote pages show prices,
 * quantities and counts, so otherwise the first render that shows one pays it (issue 13: on the feed, inside
 * the render before the first photo is asked for). A task of its own once the remote's manifest has been asked
 * for (so it does not hold that request back), while its answer and the page's files travel: waiting for idle
 * time does not work on a slow phone, whose main thread is busy until the cards render.
 */
function warmNumberData(): void {
  window.setTimeout(() => void new Intl.NumberFormat('en-NG').format(0), 0);
}

// Read remotes.json (preloaded by the page) before React starts; a remote's slot waits for it (and shows the
// fallback if it cannot be read). The page this address shows starts loading at once (docs/adr/0025).
const discovered = discoverRemotes();
discovered.catch((error: unknown) => console.error('[shell] could not read /remotes.json', error));
const firstPage = routePage(window.location.pathname);
if (firstPage) {
  preloadRemotePage(firstPage.remote, firstPage.expose).catch(() => undefined);
  // Registered after the preload's own continuation, so it runs once the manifest request has left.
  discovered.then(warmNumberData, () => undefined);
}
// Where a session may exist, keycloak-js and the sign-in settings start downloading now too (earlyCheck.ts).
startEarlyCheck();

// Installable and usable offline (issue 13, docs/adr/0042-offline.md): the web app manifest and the service
// worker, both once the page has loaded (afterPageLoad.ts).
linkManifest();
registerServiceWorker();
