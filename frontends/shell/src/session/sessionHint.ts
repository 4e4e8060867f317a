// Whether this page load may find a Keycloak session, decided from what the browser already holds (no
// network): only then does the shell download keycloak-js and run the silent check-sso. A first-time
// guest on a public page gets neither (issue 13: a cheap phone on a slow network).

/** Whether this browser's last session was signed in (localStorage): set when signed in, removed when a check finds nobody. */
export const WAS_SIGNED_IN = 'tuber:was-signed-in';
/** A login started with login() in this tab (sessionStorage), until the page back from Keycloak reads it. */
export const LOGIN_STARTED = 'tuber:login-started';

/** The signed-in areas (RequireSignedIn in routes.tsx): a guest there is sent to /login anyway. */
const SIGNED_IN_AREA = /^\/(dashboard(\/|$)|profile\/?$)/;

/**
 * Keycloak's answer in the address (OIDC response: `#state=…&code=…` or `#error=…&state=…`, or in the
 * query in query response mode), as loginCallback.ts leaves it for keycloak-js.
 */
export function hasKeycloakAnswer(url: URL): boolean {
  const fragment = new URLSearchParams(url.hash.replace(/^#/, ''));
  if (['code', 'state', 'error'].some((key) => fragment.has(key))) return true;
  // The query is the app's too (filters, ?tuber=yam): only Keycloak's pair counts there.
  return url.searchParams.has('state') && (url.searchParams.has('code') || url.searchParams.has('error'));
}

export interface SessionClues {
  url: URL;
  /** The was-signed-in hint is set. */
  wasSignedIn: boolean;
  /** A login was started in this tab and not yet read back. */
  loginStarted: boolean;
}

/**
 * True when a session may exist: the last session here was signed in, a login is under way or coming
 * back, or the address is a signed-in area (where a silent check spares a person with a live Keycloak
 * session but no hint the detour through /login). Otherwise the visitor is a guest, without asking Keycloak.
 */
export function sessionMayExist({ url, wasSignedIn, loginStarted }: SessionClues): boolean {
  return wasSignedIn || loginStarted || hasKeycloakAnswer(url) || SIGNED_IN_AREA.test(url.pathname);
}
