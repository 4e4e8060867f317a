import { linkManifest, registerServiceWorker } from './offline/registerWorker.js';
import { discoverRemotes, preloadRemotePage } from './remotes/registry.js';
import { routePage } from './remotes/routePages.js';
import { startEarlyCheck } from './session/earlyCheck.js';

// Read remotes.json while the shared modules load; a remote's slot waits for it (and shows the
// fallback if it cannot be read). The page this address shows starts loading at once, in parallel
// with the shell's own chunks (docs/adr/0025).
discoverRemotes().catch((error: unknown) => console.error('[shell] could not read /remotes.json', error));
const firstPage = routePage(window.location.pathname);
if (firstPage) preloadRemotePage(firstPage.remote, firstPage.expose).catch(() => undefined);
// Where a session may exist, keycloak-js and the sign-in settings start downloading now too (earlyCheck.ts).
startEarlyCheck();

// Installable and usable offline (issue 13, docs/adr/0042-offline.md): the web app manifest, and the service
// worker once the page has loaded.
linkManifest();
registerServiceWorker();

// Async boundary: lets the federation runtime negotiate shared singletons (react, router, @tuber/ui) first.
import('./bootstrap.js');
