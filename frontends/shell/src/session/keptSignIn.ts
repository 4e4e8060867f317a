// The sign-in the auth service keeps for this browser (docs/adr/0050): it holds the refresh token, found by an
// HttpOnly cookie the page's scripts cannot read, and hands the page a fresh access token in one same-origin
// request. A returning person's page load then needs no keycloak-js, no hidden iframe to Keycloak and no token
// exchange before its first API call (issue 13: the feed's first product waited for that whole chain).
// No shared module here: earlyCheck.ts asks before the federation runtime has set up React and @tuber/ui.
import { localStorageOrNull } from '../storage.js';
import type { TuberClaims } from './claims.js';

const SESSION_URL = '/api/auth/session';
const TIMEOUT_MS = 8_000;
/** Sent with every call: a page of another site cannot add it to a request (besides the cookie's SameSite=Strict). */
const MARK = { 'x-tuber-session': '1' } as const;

/** An access token from the kept sign-in, with when it expires by this browser's clock. */
export interface KeptToken {
  accessToken: string;
  /** For Keycloak's logout page (id_token_hint); may be empty. */
  idToken: string;
  /** Milliseconds since the epoch, this browser's clock (from expires_in, so clock skew does not matter). */
  expiresAt: number;
}

/** `none`: the auth service keeps no sign-in for this browser (never handed over, ended, or refused). */
export type KeptAnswer = { kind: 'token'; token: KeptToken } | { kind: 'none'; status: number };

interface TokenBody {
  access_token?: unknown;
  id_token?: unknown;
  expires_in?: unknown;
}

/**
 * Set (localStorage) while this browser is known to hold a kept sign-in; a page load asks the auth service only
 * then. Without it (a sign-in from before the service kept them, or a page left before the hand-over was
 * answered) the page goes straight to Keycloak's silent check instead of a request sure to answer 401.
 */
export const KEPT_HINT = 'tuber:kept-sign-in';

function hint(kept: boolean): void {
  try {
    if (kept) localStorageOrNull()?.setItem(KEPT_HINT, '1');
    else localStorageOrNull()?.removeItem(KEPT_HINT);
  } catch {
    // Storage refused (private mode, quota): the page then asks Keycloak, as without a kept sign-in.
  }
}

/** Whether this browser is known to hold a kept sign-in. */
export function keptSignInHinted(): boolean {
  return localStorageOrNull()?.getItem(KEPT_HINT) === '1';
}

/** Thrown when the auth service could not answer (offline, restarting, Keycloak down): try again later. */
export class KeptSignInUnavailable extends Error {}

async function answerOf(response: Response): Promise<KeptAnswer> {
  const answer = await readAnswer(response);
  hint(answer.kind === 'token');
  return answer;
}

async function readAnswer(response: Response): Promise<KeptAnswer> {
  if (response.status === 401 || response.status === 403) return { kind: 'none', status: response.status };
  const body = (await response.json().catch(() => null)) as (TokenBody & { message?: unknown }) | null;
  if (!response.ok) {
    const said = typeof body?.message === 'string' ? body.message : `the auth service answered ${response.status}`;
    throw new KeptSignInUnavailable(said);
  }
  if (typeof body?.access_token !== 'string' || typeof body.expires_in !== 'number') {
    throw new KeptSignInUnavailable('the auth service sent no token');
  }
  return {
    kind: 'token',
    token: {
      accessToken: body.access_token,
      idToken: typeof body.id_token === 'string' ? body.id_token : '',
      expiresAt: Date.now() + body.expires_in * 1000,
    },
  };
}

async function send(path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(`${SESSION_URL}${path}`, {
      credentials: 'same-origin',
      cache: 'no-store',
      signal: AbortSignal.timeout(TIMEOUT_MS),
      ...init,
      headers: { ...MARK, ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers },
    });
  } catch (error) {
    throw new KeptSignInUnavailable(error instanceof Error ? error.message : String(error));
  }
}

/** A fresh access token from the kept sign-in; `fresh` makes the auth service ask Keycloak again (new claims). */
export async function askKeptToken({ fresh = false }: { fresh?: boolean } = {}): Promise<KeptAnswer> {
  return answerOf(await send('/token', { method: 'POST', body: JSON.stringify(fresh ? { fresh: true } : {}) }));
}

/**
 * Hands a sign-in keycloak-js has just obtained to the auth service, which refreshes it at once: from then on
 * the browser's refresh token is spent and only the auth service refreshes (one holder, so tabs cannot race
 * each other's rotation).
 */
export async function keepSignIn(accessToken: string, refreshToken: string): Promise<KeptAnswer> {
  return answerOf(
    await send('', {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({ refresh_token: refreshToken }),
    }),
  );
}

/** Forgets the kept sign-in (logout, the session ended); best effort. */
export async function forgetKeptSignIn(): Promise<void> {
  hint(false);
  const response = await send('', { method: 'DELETE' });
  if (!response.ok && response.status !== 401) throw new KeptSignInUnavailable(`the auth service answered ${response.status}`);
}

/** The claims of an access token (its payload; the services check its signature, the page only reads it). */
export function claimsOf(token: string): TuberClaims | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=')), (c) => c.charCodeAt(0));
    // UTF-8: names such as Adéwálé must keep their letters.
    const claims: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return claims && typeof claims === 'object' && !Array.isArray(claims) ? (claims as TuberClaims) : undefined;
  } catch {
    return undefined;
  }
}
