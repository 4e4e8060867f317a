// The browser's session with Keycloak (keycloak-js, OIDC code + PKCE S256): signing in, refresh before
// expiry, recovery when the tab becomes visible again, and the spec's session events. React reads it through
// useSyncExternalStore; the API client asks it for a fresh token.
// Once signed in, the auth service keeps the sign-in for this browser (keptSignIn.ts, docs/adr/0050): it holds
// the refresh token and refreshes; a page load asks it for an access token in one request. keycloak-js (a lazy
// chunk, keycloakLoader.ts) is then needed only to sign in, to sign out, and for a silent check when no kept
// sign-in answers; a guest's public page never downloads it.
import type Keycloak from 'keycloak-js';
import type { KeycloakConfig } from 'keycloak-js';
import { getLocale, type SessionEvent, type ShellSession } from '@tuber/shell-contract';
import { translate } from '@tuber/ui';
import { shellCatalogue } from '../i18n/catalogue.js';
import { userChanged, userFromClaims, type TuberClaims } from './claims.js';
import { loadKeycloak, prefetchOnLoginIntent, type KeycloakClass } from './keycloakLoader.js';
import { CALLBACK_PATH, rememberReturnPath, takeLoginCallback } from './loginCallback.js';
import { keptTokenAnswer, mayHaveSession, settingsResponse, startEarlyCheck } from './earlyCheck.js';
import { askKeptToken, claimsOf, forgetKeptSignIn, keepSignIn, type KeptAnswer, type KeptToken } from './keptSignIn.js';
import { CANARY_ID_KEY } from '../remotes/canary.js';
import { LOGIN_STARTED, WAS_SIGNED_IN } from './sessionHint.js';
import { localStorageOrNull, sessionStorageOrNull } from '../storage.js';
import { API_MIN_VALIDITY_SECONDS, REFRESH_MARGIN_SECONDS, REFRESH_RETRY_MS, refreshDelayMs, shouldRetryRefresh } from './timing.js';

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

const PROFILE_READY = 'tuber:profile-ready:';


// WAS_SIGNED_IN (localStorage) is the layout hint for the next page load (ShellSession's `expected`) and
// tells start() that a session may exist (sessionHint.ts).

if (typeof window !== 'undefined') {
  // Keycloak knows one sign-in callback URI (docs/adr/0018). Coming back on it, the page the user
  // wanted takes its place before the router reads the address (this module is imported before the
  // router is made), keeping Keycloak's answer in the fragment for keycloak-js.
  takeLoginCallback();
  // When this load will need keycloak-js and the settings, their downloads start now (index.ts has usually
  // started them already: earlyCheck.ts), while the page renders. /login needs keycloak-js too.
  startEarlyCheck();
}

export function createSessionStore(fetchSettings: () => Promise<OidcSettings> = defaultSettings): SessionStore {
  let session: ShellSession = { status: 'loading', expected: localStorageOrNull()?.getItem(WAS_SIGNED_IN) ? 'signed-in' : 'anonymous' };
  let keycloak: Keycloak | null = null;
  /** keycloak-js's class, once downloaded (always, when `keycloak` is set). */
  let KeycloakCtor: KeycloakClass | null = null;
  /** The silent check of start(), while it runs: a login asked for meanwhile uses its Keycloak. */
  let checking: Promise<void> | null = null;
  /** A guest's Keycloak being made for a redirect (login, logout), shared by calls that overlap. */
  let forRedirect: Promise<Keycloak> | null = null;
  let stopLoginPrefetch: (() => void) | null = null;
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;
  let justSignedIn = false;
  let loginError: string | null = null;
  let callbackError: string | null = null;
  let settings: OidcSettings | null = null;
  let recovering: Promise<void> | null = null;
  /** The kept sign-in's current access token; while set, the auth service refreshes and keycloak-js holds no tokens. */
  let kept: KeptToken | null = null;
  let keptRefresh: Promise<void> | null = null;
  const listeners = new Set<() => void>();
  const eventListeners = new Set<(event: SessionEvent) => void>();

  /**
   * `keepHint`: anonymous only because Keycloak could not be asked (settings, keycloak-js or the silent check
   * failed): the hint stays, so the next page load checks again instead of taking the person for a guest.
   */
  const set = (next: ShellSession, { keepHint = false } = {}) => {
    session = next;
    if (next.status === 'signed-in') {
      localStorageOrNull()?.setItem(WAS_SIGNED_IN, '1');
      localStorageOrNull()?.setItem(CANARY_ID_KEY, next.user.id); // which version of a canaried remote (canary.ts)
    }
    if (next.status === 'anonymous' && !keepHint) {
      localStorageOrNull()?.removeItem(WAS_SIGNED_IN);
      localStorageOrNull()?.removeItem(CANARY_ID_KEY);
    }
    listeners.forEach((listener) => listener());
  };
  const emit = (event: SessionEvent) => eventListeners.forEach((listener) => listener(event));

  const profileReady = (sub: string | undefined) => Boolean(sub && sessionStorageOrNull()?.getItem(PROFILE_READY + sub));

  /** The claims of the token in hand: the kept sign-in's, or keycloak-js's while it holds the tokens. */
  function currentClaims(): TuberClaims | undefined {
    if (kept) return claimsOf(kept.accessToken);
    return keycloak?.authenticated ? (keycloak.tokenParsed as TuberClaims | undefined) : undefined;
  }

  /** Builds the session from the current token; reports USER_UPDATED when an existing user changed. */
  function applyToken(event: SessionEvent | null, { keepHint = false } = {}) {
    const claims = currentClaims();
    const user = claims ? userFromClaims(claims, { profileReady: profileReady(claims.sub) }) : null;
    const before = session.status === 'signed-in' ? session.user : null;
    if (!user) {
      if (session.status !== 'anonymous') set({ status: 'anonymous' }, { keepHint });
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
    if (kept) {
      const delay = Math.max(5_000, kept.expiresAt - Date.now() - REFRESH_MARGIN_SECONDS * 1000);
      refreshTimer = setTimeout(() => void refresh(REFRESH_MARGIN_SECONDS + 5), delay);
      return;
    }
    const exp = keycloak?.tokenParsed?.exp;
    if (!keycloak?.authenticated || !exp) return;
    const delay = refreshDelayMs(exp, Date.now(), keycloak.timeSkew ?? 0);
    refreshTimer = setTimeout(() => void refresh(REFRESH_MARGIN_SECONDS + 5), delay);
  }

  /** Refreshes when the token has less than `minValidity` seconds left; a refused refresh ends the session. */
  async function refresh(minValidity: number, { fresh = false } = {}): Promise<void> {
    if (kept) return refreshKept(minValidity, fresh);
    if (!keycloak?.authenticated) return;
    try {
      await keycloak.updateToken(minValidity); // TOKEN_REFRESHED comes from onAuthRefreshSuccess
      scheduleRefresh();
    } catch {
      refreshFailed();
    }
  }

  /**
   * The kept sign-in's refresh, by the auth service (one at a time in this tab; the service serialises the tabs).
   * `fresh`: ask Keycloak even though the token in hand is still good (new claims after the profile was made).
   */
  function refreshKept(minValidity: number, fresh: boolean): Promise<void> {
    const left = kept ? kept.expiresAt - Date.now() : 0;
    // Good enough for the caller, and not yet due (the timer set with the token is still the one to wait for).
    // The timer is left alone: a caller in the last seconds before it (an API call, a poll woken at the same
    // moment) must not push the refresh back.
    if (!fresh && left > minValidity * 1000 && left > REFRESH_MARGIN_SECONDS * 1000) return Promise.resolve();
    keptRefresh ??= (async () => {
      let answer: KeptAnswer;
      try {
        answer = await askKeptToken({ fresh });
      } catch (error) {
        // Offline, or the auth service or Keycloak restarting: the token in hand serves meanwhile (and an
        // expired one fails like any offline call); try again soon.
        console.warn('[shell] the kept sign-in could not be refreshed; trying again soon', error);
        clearTimeout(refreshTimer);
        refreshTimer = setTimeout(() => void refresh(REFRESH_MARGIN_SECONDS + 5), REFRESH_RETRY_MS);
        return;
      }
      if (answer.kind === 'token') {
        kept = answer.token;
        applyToken('TOKEN_REFRESHED');
        return;
      }
      // The auth service no longer keeps it (Keycloak refused its refresh: signed out elsewhere, expired, the
      // account ended): a silent check with Keycloak decides, as after a refused refresh.
      kept = null;
      await recover();
    })().finally(() => {
      keptRefresh = null;
    });
    return keptRefresh;
  }

  /**
   * Hands the tokens keycloak-js just obtained to the auth service (docs/adr/0050). From then on this page's
   * keycloak-js holds no tokens: its refresh token was spent by the service's first refresh. When the service
   * cannot take it (down, or refused), keycloak-js keeps the tokens and refreshes as before.
   */
  async function keepWithServer(kc: Keycloak): Promise<void> {
    if (!kc.authenticated || !kc.token || !kc.refreshToken) return;
    try {
      const answer = await keepSignIn(kc.token, kc.refreshToken);
      if (answer.kind !== 'token') {
        console.warn(`[shell] the auth service did not keep the sign-in (${answer.status}); keycloak-js refreshes it`);
        return;
      }
      kept = answer.token;
      kc.clearToken();
    } catch (error) {
      console.warn('[shell] the auth service could not keep the sign-in; keycloak-js refreshes it', error);
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
        // A page that only ever had the kept sign-in has neither the settings nor keycloak-js yet.
        settings ??= await signInAvailable();
        KeycloakCtor ??= await loadKeycloak();
        const fresh = newKeycloak(settings);
        await fresh.init(initOptions());
        if (fresh.authenticated) {
          keycloak = fresh;
          await keepWithServer(fresh);
          applyToken('TOKEN_REFRESHED');
          return;
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
    if (!KeycloakCtor) throw new Error('keycloak-js is not loaded');
    const kc = new KeycloakCtor(keycloakConfig(oidc));
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

  /**
   * The silent check of a page load that may find a session (what start() always did before keycloak-js
   * became lazy). keycloak-js downloads while the settings are read (and usually started with the page).
   */
  async function checkSession(): Promise<void> {
    const early = keptTokenAnswer();
    if (early) {
      let answer: KeptAnswer | null = null;
      try {
        answer = await early;
      } catch (error) {
        console.warn('[shell] the kept sign-in could not be asked; checking with Keycloak', error);
      }
      if (answer?.kind === 'token') {
        kept = answer.token;
        applyToken('INITIAL_SESSION');
        watchVisibility();
        return;
      }
    }
    const library = loadKeycloak();
    library.catch(() => undefined); // a failure is handled below, once the settings are in
    let oidc: OidcSettings;
    try {
      oidc = await fetchSettings();
      KeycloakCtor = await library;
    } catch (error) {
      console.error('[shell] sign-in settings or keycloak-js unavailable; continuing as a guest', error);
      set({ status: 'anonymous' }, { keepHint: true });
      emit('INITIAL_SESSION');
      return;
    }
    settings = oidc;
    const kc = newKeycloak(oidc);
    keycloak = kc;
    let checked = true;
    try {
      await kc.init(initOptions());
    } catch (error) {
      checked = false;
      console.error('[shell] Keycloak silent check failed; continuing as a guest', error);
    }
    const started = sessionStorageOrNull()?.getItem(LOGIN_STARTED);
    sessionStorageOrNull()?.removeItem(LOGIN_STARTED);
    justSignedIn = Boolean(started && kc.authenticated);
    if (started && !kc.authenticated && callbackError) loginError = callbackError;
    await keepWithServer(kc);
    applyToken(justSignedIn ? 'SIGNED_IN' : 'INITIAL_SESSION', { keepHint: !checked });
    watchVisibility();
  }

  function watchVisibility() {
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('focus', onVisible);
  }

  /**
   * This page's Keycloak, for a redirect to it (login, logout). A guest's page never made one: keycloak-js
   * and the settings are fetched now, and it is initialised without onLoad (no silent check: the redirect
   * that follows is the check). `checked`: Keycloak was just found available (the settings were read now).
   */
  async function keycloakForRedirect(): Promise<{ kc: Keycloak; checked: boolean }> {
    if (checking) await checking.catch(() => undefined);
    if (keycloak) return { kc: keycloak, checked: false };
    forRedirect ??= (async () => {
      const library = loadKeycloak();
      library.catch(() => undefined); // signInAvailable's message comes first when both fail
      const oidc = await signInAvailable();
      try {
        KeycloakCtor = await library;
      } catch (error) {
        console.error('[shell] keycloak-js could not be downloaded', error);
        throw new Error(signInUnavailable());
      }
      settings = oidc;
      const kc = newKeycloak(oidc);
      try {
        await kc.init({ pkceMethod: 'S256', checkLoginIframe: false, messageReceiveTimeout: 8_000 });
      } catch (error) {
        console.error('[shell] Keycloak could not be set up for sign-in', error);
        throw new Error(signInUnavailable());
      }
      keycloak ??= kc;
      return keycloak;
    })().finally(() => {
      forRedirect = null;
    });
    return { kc: await forRedirect, checked: true };
  }

  function signedOutHere() {
    clearTimeout(refreshTimer);
    kept = null;
    keycloak?.clearToken();
    if (session.status !== 'anonymous') {
      set({ status: 'anonymous' });
      emit('SIGNED_OUT');
    }
  }

  function onVisible() {
    if (document.visibilityState !== 'visible' || (!kept && !keycloak?.authenticated)) return;
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
      if (!mayHaveSession()) {
        // A guest on a public page (no hint, no login under way, not a signed-in area): no keycloak-js and no
        // silent check-sso (a hidden iframe round trip to Keycloak) on the first load (issue 13). The price:
        // someone with a live Keycloak SSO cookie but no hint (site storage cleared, another browser profile's
        // cookie) shows as a guest on public pages until they press Login, which then signs them in without
        // a password form, or until they open a signed-in area, which checks.
        set({ status: 'anonymous' });
        emit('INITIAL_SESSION');
        stopLoginPrefetch ??= prefetchOnLoginIntent();
        return;
      }
      const run = checkSession();
      checking = run;
      try {
        await run;
      } finally {
        if (checking === run) checking = null;
      }
    },

    async login(redirectTo) {
      const { kc, checked } = await keycloakForRedirect();
      // Keycloak may have gone since the page loaded: say so here rather than hand over to an error page.
      if (!checked) await signInAvailable();
      sessionStorageOrNull()?.setItem(LOGIN_STARTED, String(Date.now()));
      rememberReturnPath(redirectTo);
      // Keycloak's pages follow the product's language (ui_locales; Keycloak keeps it in its locale cookie).
      await kc.login({ redirectUri: new URL(CALLBACK_PATH, window.location.origin).href, locale: getLocale() });
    },

    async changeEmail(redirectTo) {
      if (session.status !== 'signed-in') throw new Error(translate(shellCatalogue, 'session.sign-in-to-change-email'));
      const { kc, checked } = await keycloakForRedirect();
      if (!checked) await signInAvailable();
      // Not a login: no "Login successful!" on the way back. The new address is verified by Keycloak
      // (a link to it) and reaches the profile by AccountEmailChanged.
      rememberReturnPath(redirectTo);
      await kc.login({
        redirectUri: new URL(CALLBACK_PATH, window.location.origin).href,
        action: 'UPDATE_EMAIL',
        locale: getLocale(),
      });
    },

    async logout(redirectTo) {
      let kc: Keycloak;
      try {
        ({ kc } = await keycloakForRedirect());
      } catch {
        throw new Error(translate(shellCatalogue, 'session.unavailable'));
      }
      clearTimeout(refreshTimer);
      // Keycloak's logout page skips its "Do you want to log out?" question when it is told whose sign-in ends.
      const idToken = kept?.idToken;
      if (idToken && !kc.idToken) kc.idToken = idToken;
      kept = null;
      // The auth service forgets (and revokes) its copy first; Keycloak then ends the sign-in itself.
      await forgetKeptSignIn().catch((error: unknown) => console.warn('[shell] the kept sign-in could not be forgotten', error));
      await kc.logout({ redirectUri: new URL(redirectTo, window.location.origin).href });
    },

    async endSession() {
      signedOutHere();
      await forgetKeptSignIn().catch((error: unknown) => console.warn('[shell] the kept sign-in could not be forgotten', error));
    },

    async accessToken() {
      if (recovering) await recovering;
      if (kept) {
        await refresh(API_MIN_VALIDITY_SECONDS);
        return kept?.accessToken ?? (keycloak?.authenticated ? (keycloak.token ?? null) : null);
      }
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
      if (kept) return refresh(0, { fresh: true });
      if (!keycloak?.authenticated) return;
      try {
        await keycloak.updateToken(-1);
      } catch {
        refreshFailed();
        if (recovering) await recovering;
      }
    },

    markProfileReady() {
      const sub = currentClaims()?.sub;
      if (!sub) return;
      sessionStorageOrNull()?.setItem(PROFILE_READY + sub, '1');
      applyToken(null);
    },
  };
}

/**
 * Keycloak behind the gateway on the page's own origin (the local stack, compose and the Helm chart all put it
 * at /auth): its cookies are first-party, so keycloak-js's third-party-cookie probe — two hidden pages loaded one
 * after the other before every silent check — can only answer "supported". Naming the endpoints (keycloak-js's
 * `oidcProvider` form) skips the probe; that saves the feed's first load two round trips. A Keycloak on another
 * origin keeps the realm form and its probe (blocked third-party cookies then turn the silent check off).
 */
export function keycloakConfig(oidc: OidcSettings, pageOrigin = window.location.origin): KeycloakConfig {
  const server = new URL(oidc.url, pageOrigin);
  if (server.origin !== pageOrigin) return { url: oidc.url, realm: oidc.realm, clientId: oidc.client_id };
  const base = `${server.href.replace(/\/$/, '')}/realms/${encodeURIComponent(oidc.realm)}`;
  const endpoints = `${base}/protocol/openid-connect`;
  // keycloak-js 26 reads `oidcProvider` (lib/keycloak.js loadConfig) but its type declarations omit it.
  const named = {
    clientId: oidc.client_id,
    oidcProvider: {
      issuer: base,
      authorization_endpoint: `${endpoints}/auth`,
      token_endpoint: `${endpoints}/token`,
      end_session_endpoint: `${endpoints}/logout`,
      userinfo_endpoint: `${endpoints}/userinfo`,
    },
  };
  return named as unknown as KeycloakConfig;
}

/** The auth service's words when Keycloak does not answer (503 from /api/auth/oidc). */
const signInUnavailable = () => translate(shellCatalogue, 'session.unavailable-retry');

/**
 * The sign-in settings, read afresh; rejects with a message a person can act on when Keycloak does not
 * answer right now (issue 10, R5).
 */
async function signInAvailable(): Promise<OidcSettings> {
  let response: Response;
  try {
    response = await fetch('/api/auth/oidc', { cache: 'no-store', signal: AbortSignal.timeout(8_000) });
  } catch {
    throw new Error(signInUnavailable());
  }
  if (response.ok) {
    const settings = (await response.json().catch(() => null)) as OidcSettings | null;
    if (!settings?.url || !settings.realm || !settings.client_id) throw new Error(signInUnavailable());
    return settings;
  }
  // The auth service's 503 (SIGN_IN_UNAVAILABLE) says the same as these words, in the reader's language.
  throw new Error(signInUnavailable());
}

async function defaultSettings(): Promise<OidcSettings> {
  const response = await settingsResponse();
  if (!response.ok) throw new Error(`/api/auth/oidc answered ${response.status}`);
  return (await response.json()) as OidcSettings;
}
