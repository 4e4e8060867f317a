// The sign-in check's first request, started by the entry module (index.ts) the moment the shell's first
// script has run, beside the shell's bootstrap chunk and the remote page, not after them (issue 13: on the
// feed the check was the longest chain before the first product). Only when this load may find a session
// (sessionHint.ts); a guest's public page asks nothing.
// - A returning person: the sign-in the auth service keeps for this browser (keptSignIn.ts, docs/adr/0050),
//   one request for an access token.
// - A login coming back from Keycloak (its answer in the address, or a login under way): keycloak-js and the
//   sign-in settings, which read the answer.
// No shared module here: this runs before the federation runtime has set up React and @tuber/ui.
import { askKeptToken, keptSignInHinted, type KeptAnswer } from './keptSignIn.js';
import { prefetchKeycloak } from './keycloakLoader.js';
import { LOGIN_STARTED, WAS_SIGNED_IN, hasKeycloakAnswer, sessionMayExist } from './sessionHint.js';
import { localStorageOrNull, sessionStorageOrNull } from '../storage.js';

const SETTINGS_URL = '/api/auth/oidc';

function stored(storage: Storage | null, key: string): boolean {
  try {
    return Boolean(storage?.getItem(key));
  } catch {
    return false;
  }
}

/** Whether this page load may find a Keycloak session (the hint, a login under way, a signed-in area). */
export function mayHaveSession(): boolean {
  return sessionMayExist({
    url: new URL(window.location.href),
    wasSignedIn: stored(localStorageOrNull(), WAS_SIGNED_IN),
    loginStarted: stored(sessionStorageOrNull(), LOGIN_STARTED),
  });
}

/** A login started here or coming back: keycloak-js must read Keycloak's answer (the kept sign-in may be an older one). */
export function loginComingBack(): boolean {
  return stored(sessionStorageOrNull(), LOGIN_STARTED) || hasKeycloakAnswer(new URL(window.location.href));
}

let earlySettings: Promise<Response> | null = null;
let earlyKept: Promise<KeptAnswer> | null = null;
let started = false;

/** Starts what the check will need; /login hands over to Keycloak at once, so it gets keycloak-js too. */
export function startEarlyCheck(): void {
  if (started) return;
  started = true;
  const session = mayHaveSession();
  if (session && !loginComingBack() && keptSignInHinted()) {
    earlyKept = askKeptToken();
    // Read (or failed) later by the store; an early failure must not be reported as unhandled.
    earlyKept.catch(() => undefined);
    return;
  }
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

/** The kept sign-in's answer asked for with the page, once; null when this load did not ask (a login coming back). */
export function keptTokenAnswer(): Promise<KeptAnswer> | null {
  const early = earlyKept;
  earlyKept = null;
  return early;
}
