// One callback URI for every sign-in (docs/adr/0018): Keycloak's client allows exactly
// `${PUBLIC_URL}/login/callback` (and the silent check's page), so the page to come back to cannot
// travel in the redirect URI. It waits in this tab's session storage instead, checked again on
// the way back so it can only ever be a path of this site.
import { safeReturnPath } from './redirects.js';

export const CALLBACK_PATH = '/login/callback';
const RETURN_TO = 'tuber:return-to';

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** Keeps the page to open after the sign-in that is about to start. */
export function rememberReturnPath(path: string, store: Pick<Storage, 'setItem'> | null = storage()): void {
  store?.setItem(RETURN_TO, safeReturnPath(path));
}

/**
 * The address to show instead of the callback URI: the remembered page (never a foreign one), with
 * Keycloak's answer (`#state=…&code=…`, or `?…` in query response mode) kept for keycloak-js.
 * Null when `href` is not the callback.
 */
export function callbackReplacement(href: string, returnTo: string | null): string | null {
  const url = new URL(href);
  if (url.pathname !== CALLBACK_PATH) return null;
  const target = new URL(safeReturnPath(returnTo).split('#')[0] ?? '/profile', url.origin);
  for (const [key, value] of url.searchParams) target.searchParams.append(key, value);
  return `${target.pathname}${target.search}${url.hash}`;
}

/** On the callback URI, puts the remembered page in the address bar (no reload, no history entry). */
export function takeLoginCallback(location: Location = window.location, history: History = window.history, store = storage()): void {
  const replacement = callbackReplacement(location.href, store?.getItem(RETURN_TO) ?? null);
  if (replacement === null) return;
  store?.removeItem(RETURN_TO);
  history.replaceState(history.state, '', replacement);
}
