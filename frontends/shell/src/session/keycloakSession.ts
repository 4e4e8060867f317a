// The browser's session with Keycloak (keycloak-js, OIDC code + PKCE S256): a silent check on load,
// refresh before expiry, recovery when the tab becomes visible again, and the spec's session events.
// React reads it through useSyncExternalStore; the API client asks it for a fresh token.
import Keycloak from 'keycloak-js';
import { getLocale, translate, type SessionEvent, type ShellSession } from '@tuber/ui';
import { shellCatalogue } from '../i18n/catalogue.js';
import { userChanged, userFromClaims, type TuberClaims } from './claims.js';
import { CALLBACK_PATH, rememberReturnPath, takeLoginCallback } from './loginCallback.js';
import { API_MIN_VALIDITY_SECONDS, REFRESH_MARGIN_SECONDS, REFRESH_RETRY_MS, refreshDelayMs, shouldRetryRefresh } from './timing.js';

// Keycloak knows one sign-in callback URI (docs/adr/0018). Coming back on it, the page the user
// wanted takes its place before the router reads the address (this module is imported before the
// router is made), keeping Keycloak's answer in the fragment for keycloak-js.
if (typeof window !== 'undefined') takeLoginCallback();

export interface OidcSettings {
  url: string;
  realm: string;
  client_id: string;
}

export interface SessionStore {
  getSnapshot(): ShellSession;
  subscribe(listener: () => void): () => void;
  onEvent(listener: (event: SessionEvent) => void): () => void;
  /** Reads /api/auth/oidc and runs the silent check; resolves once the session is known. */
  start(): Promise<void>;
  /** True when this page load finished a login started with login() (first page after Keycloak). */
  readonly justSignedIn: boolean;
  /** Why a login started with login() came back without a session (Keycloak's error description), if it did. */
  readonly loginError: string | null;
  login(redirectTo: string): Promise<void>;
  /** Keycloak's verified e-mail update (application-initiated action UPDATE_EMAIL), back to `redirectTo`. */
  changeEmail?(redirectTo: string): Promise<void>;
  logout(redirectTo: string): Promise<void>;
  endSession(): Promise<void>;
  /** The access token, refreshed first when it is about to expire; null when anonymous. */
  accessToken(): Promise<string | null>;
  /** Re-reads the token's claims from Keycloak (e.g. after the profile was created). */
  refreshUser(): Promise<void>;
  /** Remembers that this user's profile exists, whatever a not-yet-refreshed token says. */
  markProfileReady(): void;
}

const LOGIN_STARTED = 'tuber:login-started';
const PROFILE_READY = 'tuber:profile-ready:';

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** Whether this browser's last session was signed in: a layout hint for the next page load (ShellSession). */
const WAS_SIGNED_IN = 'tuber:was-signed-in';

function lastingStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function createSessionStore(fetchSettings: () => Promise<OidcSettings> = defaultSettings): SessionStore {
  let session: ShellSession = { status: 'loading', expected: lastingStorage()?.getItem(WAS_SIGNED_IN) ? 'signed-in' : 'anonymous' };
  let keycloak: Keycloak | null = null;
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;
  let justSignedIn = false;
  let loginError: string | null = null;
  let callbackError: string | null = null;
  let settings: OidcSettings | null = null;
  let recovering: Promise<void> | null = null;
  const listeners = new Set<() => void>();
  const eventListeners = new Set<(event: SessionEvent) => void>();

  const set = (next: ShellSession) => {
    session = next;
    if (next.status === 'signed-in') lastingStorage()?.setItem(WAS_SIGNED_IN, '1');
    if (next.status === 'anonymous') lastingStorage()?.removeItem(WAS_SIGNED_IN);
    listeners.forEach((listener) => listener());
  };
  const emit = (event: SessionEvent) => eventListeners.forEach((listener) => listener(event));

  const profileReady = (sub: string | undefined) => Boolean(sub && storage()?.getItem(PROFILE_READY + sub));

  /** Builds the session from the current token; reports USER_UPDATED when an existing user changed. */
  function applyToken(event: SessionEvent | null) {
    const claims = keycloak?.tokenParsed as TuberClaims | undefined;
    const user = keycloak?.authenticated && claims ? userFromClaims(claims, { profileReady: profileReady(claims.sub) }) : null;
    const before = session.status === 'signed-in' ? session.user : null;
    if (!user) {
      if (session.status !== 'anonymous') set({ status: 'anonymous' });
      if (event) emit(event);
      return;
    }
    const changed = userChanged(before, user);
    if (changed || session.status !== 'signed-in') set({ status: 'signed-in', user });
    if (event) emit(event);
    if (before && changed) emit('USER_UPDATED');
    scheduleRefresh();
  }

  function scheduleRefresh() {
    clearTimeout(refreshTimer);
    const exp = keycloak?.tokenParsed?.exp;
    if (!keycloak?.authenticated || !exp) return;
    const delay = refreshDelayMs(exp, Date.now(), keycloak.timeSkew ?? 0);
    refreshTimer = setTimeout(() => void refresh(REFRESH_MARGIN_SECONDS + 5), delay);
  }

  /** Refreshes when the token has less than `minValidity` seconds left; a refused refresh ends the session. */
  async function refresh(minValidity: number): Promise<void> {
    if (!keycloak?.authenticated) return;
    try {
      await keycloak.updateToken(minValidity); // TOKEN_REFRESHED comes from onAuthRefreshSuccess
      scheduleRefresh();
    } catch {
      refreshFailed();
    }
  }

  /** A moment offline (a phone between networks, a laptop waking up) must not sign the user out. */
  function refreshFailed() {
    if (!keycloak || !shouldRetryRefresh(keycloak.refreshToken, keycloak.refreshTokenParsed?.exp, Date.now(), keycloak.timeSkew ?? 0)) {
      void recover();
      return;
    }
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(() => void refresh(REFRESH_MARGIN_SECONDS + 5), REFRESH_RETRY_MS);
  }

  /**
   * Keycloak refused the refresh token. Refresh tokens rotate and each is good once (docs/adr/0018):
   * another tab of this browser may have used the session's current one, or a retry after a lost
   * answer replayed a spent one, and Keycloak then drops this client's tokens. The sign-in itself
   * (Keycloak's SSO cookie) usually lives on, so a silent check gets this tab fresh tokens; only
   * when that finds no sign-in is the user signed out here.
   */
  function recover(): Promise<void> {
    recovering ??= (async () => {
      clearTimeout(refreshTimer);
      try {
        if (settings) {
          const fresh = newKeycloak(settings);
          await fresh.init(initOptions());
          if (fresh.authenticated) {
            keycloak = fresh;
            applyToken('TOKEN_REFRESHED');
            return;
          }
        }
      } catch (error) {
        console.error('[shell] silent sign-in check after a refused refresh failed', error);
      }
      signedOutHere();
    })().finally(() => {
      recovering = null;
    });
    return recovering;
  }

  function newKeycloak(oidc: OidcSettings): Keycloak {
    const kc = new Keycloak({ url: oidc.url, realm: oidc.realm, clientId: oidc.client_id });
    kc.onAuthRefreshSuccess = () => {
      if (kc === keycloak) applyToken('TOKEN_REFRESHED');
    };
    kc.onAuthRefreshError = () => {
      if (kc === keycloak) refreshFailed();
    };
    // keycloak-js drops the tokens on a refused refresh before onAuthRefreshError: recover() decides.
    kc.onAuthLogout = () => undefined;
    kc.onTokenExpired = () => {
      if (kc === keycloak) void refresh(REFRESH_MARGIN_SECONDS + 5);
    };
    kc.onAuthError = (error) => {
      callbackError = error?.error_description || error?.error || translate(shellCatalogue, 'session.login-not-completed');
    };
    return kc;
  }

  function initOptions() {
    return {
      onLoad: 'check-sso' as const,
      silentCheckSsoRedirectUri: `${window.location.origin}/silent-check-sso.html`,
      pkceMethod: 'S256' as const,
      // Keycloak sits on the same origin behind the gateway; the visibility check below replaces the
      // session-status iframe's polling.
      checkLoginIframe: false,
      messageReceiveTimeout: 8_000,
    };
  }

  function signedOutHere() {
    clearTimeout(refreshTimer);
    keycloak?.clearToken();
    if (session.status !== 'anonymous') {
      set({ status: 'anonymous' });
      emit('SIGNED_OUT');
    }
  }

  function onVisible() {
    if (document.visibilityState !== 'visible' || !keycloak?.authenticated) return;
    // Timers are throttled in background tabs: the token may have expired while hidden.
    void refresh(REFRESH_MARGIN_SECONDS + 5);
  }

  return {
    getSnapshot: () => session,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onEvent(listener) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    get justSignedIn() {
      return justSignedIn;
    },
    get loginError() {
      return loginError;
    },

    async start() {
      try {
        settings = await fetchSettings();
      } catch (error) {
        console.error('[shell] sign-in settings unavailable; continuing as a guest', error);
        set({ status: 'anonymous' });
        emit('INITIAL_SESSION');
        return;
      }
      const kc = newKeycloak(settings);
      keycloak = kc;
      try {
        await kc.init(initOptions());
      } catch (error) {
        console.error('[shell] Keycloak silent check failed; continuing as a guest', error);
      }
      const started = storage()?.getItem(LOGIN_STARTED);
      storage()?.removeItem(LOGIN_STARTED);
      justSignedIn = Boolean(started && kc.authenticated);
      if (started && !kc.authenticated && callbackError) loginError = callbackError;
      applyToken(justSignedIn ? 'SIGNED_IN' : 'INITIAL_SESSION');
      document.addEventListener('visibilitychange', onVisible);
      window.addEventListener('focus', onVisible);
    },

    async login(redirectTo) {
      if (!keycloak) throw new Error(signInUnavailable());
      // Keycloak may have gone since the page loaded: say so here rather than hand over to an error page.
      await signInAvailable();
      storage()?.setItem(LOGIN_STARTED, String(Date.now()));
      rememberReturnPath(redirectTo);
      // Keycloak's pages follow the product's language (ui_locales; Keycloak keeps it in its locale cookie).
      await keycloak.login({ redirectUri: new URL(CALLBACK_PATH, window.location.origin).href, locale: getLocale() });
    },

    async changeEmail(redirectTo) {
      if (!keycloak?.authenticated) throw new Error(translate(shellCatalogue, 'session.sign-in-to-change-email'));
      await signInAvailable();
      // Not a login: no "Login successful!" on the way back. The new address is verified by Keycloak
      // (a link to it) and reaches the profile by AccountEmailChanged.
      rememberReturnPath(redirectTo);
      await keycloak.login({
        redirectUri: new URL(CALLBACK_PATH, window.location.origin).href,
        action: 'UPDATE_EMAIL',
        locale: getLocale(),
      });
    },

    async logout(redirectTo) {
      if (!keycloak) throw new Error(translate(shellCatalogue, 'session.unavailable'));
      clearTimeout(refreshTimer);
      await keycloak.logout({ redirectUri: new URL(redirectTo, window.location.origin).href });
    },

    async endSession() {
      signedOutHere();
    },

    async accessToken() {
      if (recovering) await recovering;
      if (!keycloak?.authenticated) return null;
      try {
        await keycloak.updateToken(API_MIN_VALIDITY_SECONDS);
      } catch {
        // Offline: the call goes out with the token it has (and fails like any offline call); refused:
        // a silent check for fresh tokens, else signed out.
        refreshFailed();
        if (recovering) await recovering;
      }
      return keycloak?.token ?? null;
    },

    async refreshUser() {
      if (!keycloak?.authenticated) return;
      try {
        await keycloak.updateToken(-1);
      } catch {
        refreshFailed();
        if (recovering) await recovering;
      }
    },

    markProfileReady() {
      const sub = keycloak?.tokenParsed?.sub;
      if (!sub) return;
      storage()?.setItem(PROFILE_READY + sub, '1');
      applyToken(null);
    },
  };
}

/** The auth service's words when Keycloak does not answer (503 from /api/auth/oidc). */
const signInUnavailable = () => translate(shellCatalogue, 'session.unavailable-retry');

/** Rejects with a message a person can act on when Keycloak does not answer right now (issue 10, R5). */
async function signInAvailable(): Promise<void> {
  let response: Response;
  try {
    response = await fetch('/api/auth/oidc', { cache: 'no-store', signal: AbortSignal.timeout(8_000) });
  } catch {
    throw new Error(signInUnavailable());
  }
  if (response.ok) return;
  const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
  throw new Error(response.status === 503 && typeof body?.message === 'string' ? body.message : signInUnavailable());
}

async function defaultSettings(): Promise<OidcSettings> {
  const response = await fetch('/api/auth/oidc', { signal: AbortSignal.timeout(8_000) });
  if (!response.ok) throw new Error(`/api/auth/oidc answered ${response.status}`);
  return (await response.json()) as OidcSettings;
}
