// The sign-in check's first two requests, started by the entry module (index.ts) the moment the shell's first
// script has run: keycloak-js and the sign-in settings then download beside the shell's bootstrap chunk and
// the remote page, not after them (issue 13: on the feed they were one more round trip before the first
// product). Only when this load may find a session (sessionHint.ts); a guest's public page asks for neither.
// No shared module here: this runs before the federation runtime has set up React and @tuber/ui.
import { prefetchKeycloak } from './keycloakLoader.js';
import { LOGIN_STARTED, WAS_SIGNED_IN, sessionMayExist } from './sessionHint.js';

const SETTINGS_URL = '/api/auth/oidc';

function stored(kind: 'localStorage' | 'sessionStorage', key: string): boolean {
  try {
    return Boolean(window[kind].getItem(key));
  } catch {
    return false;
  }
}

/** Whether this page load may find a Keycloak session (the hint, a login under way, a signed-in area). */
export function mayHaveSession(): boolean {
  return sessionMayExist({
    url: new URL(window.location.href),
    wasSignedIn: stored('localStorage', WAS_SIGNED_IN),
    loginStarted: stored('sessionStorage', LOGIN_STARTED),
  });
}

let earlySettings: Promise<Response> | null = null;

/** Starts what the check will need; /login hands over to Keycloak at once, so it gets keycloak-js too. */
export function startEarlyCheck(): void {
  const session = mayHaveSession();
  if (session || window.location.pathname === '/login') prefetchKeycloak();
  if (session && !earlySettings) {
    earlySettings = fetch(SETTINGS_URL, { signal: AbortSignal.timeout(8_000) });
    // Read (or failed) later by the store; an early failure must not be reported as unhandled.
    earlySettings.catch(() => undefined);
  }
}

/** The settings request started early, once (a later check, e.g. a recovery, asks again). */
export function settingsResponse(): Promise<Response> {
  const early = earlySettings;
  earlySettings = null;
  return early ?? fetch(SETTINGS_URL, { signal: AbortSignal.timeout(8_000) });
}
