// Provides the shell contract (session, toasts, API client, auth) to the shell and every remote it mounts,
// runs the Keycloak session, the first-login profile step and the Confirm Logout dialog.
import { startTransition, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  ApiError,
  getLocale,
  onLocaleChange,
  setCounter,
  ShellProvider,
  type ApiClient,
  type Locale,
  type ShellAuth,
  type ShellContract,
  type ShellPath,
  type ShellSession,
} from '@tuber/shell-contract';
import {
  createApiClient,
  createToastStore,
  loadCatalogue,
  problemText,
  ToastHost,
  translate,
} from '@tuber/ui';
import { afterPageLoad } from './afterPageLoad.js';
import { forgetCart } from './counters/cartCount.js';
import { localStorageOrNull } from './storage.js';
import { useShellCounters } from './counters/useShellCounters.js';
import { LogoutDialog } from './layout/LogoutDialog.js';
import { networkAwareFetch } from './offline/networkStatus.js';
import { OfflineBar } from './offline/OfflineBar.js';
import { withOfflineSession } from './offline/offlineSession.js';
import { claimPrivateCaches, clearPrivateCaches } from './offline/privateCaches.js';
import { forgetKeptToast, keepForNextPage, showKeptToast } from './session/flash.js';
import type { SessionStore } from './session/keycloakSession.js';
import { ALREADY_SET_UP, createMyProfile, profileFailure } from './session/profileSetup.js';
import { safeReturnPath } from './session/redirects.js';
import { appApiClient, appSessionStore, startingOnce } from './appSession.js';
import { ShellChromeContext, type ProfileSetup, type ShellChrome } from './session/ShellChrome.js';
import { shellCatalogue } from './i18n/catalogue.js';

export const LOGGED_OUT = 'Logged out successfully';
export const LOGIN_SUCCESSFUL = 'Login successful!';

/** The newer pages routes.tsx mounts, told to the remotes so they link to them (older shells say none). */
const SERVED_PATHS: readonly ShellPath[] = ['/prices'];

/**
 * The next person on a shared phone does not get this one's cart (issue 12), what they saw offline (the
 * service worker's API answers and photos) nor a farmer's unposted drafts (issue 13): on Logout and endSession.
 */
function forgetThisPersonsData() {
  const storage = localStorageOrNull();
  forgetCart(storage);
  setCounter('cart', 0);
  void clearPrivateCaches();
  if (storage) {
    const drafts = Array.from({ length: storage.length }, (_, i) => storage.key(i)).filter((key) => key?.startsWith('tuber.farmer.draft.'));
    for (const key of drafts) if (key) storage.removeItem(key);
  }
}

/** An answer of a service, or the network's failure, in the reader's words; the shell's own errors are already. */
const messageOf = (error: unknown) =>
  error instanceof ApiError || error instanceof TypeError ? problemText(error) : error instanceof Error ? error.message : String(error);

/** A shell message in the chosen language, its catalogue loaded first (English if it cannot be). */
async function say(id: string, values?: Record<string, string>): Promise<string> {
  await loadCatalogue(shellCatalogue, getLocale()).catch(() => undefined);
  return translate(shellCatalogue, id, values);
}

/** The last language this browser had the account keep: "<user id>:<locale>" (localStorage). */
export const LOCALE_SENT = 'tuber:locale-sent';

/** The body of PUT /api/auth/me/locale. */
export const localeBody = (locale: Locale) => ({ locale });

/**
 * The account keeps the chosen language (issue 13, ADR 0044): Keycloak's pages and the e-mails follow
 * it. Sent at sign-in, whenever the person switches, and on a later load only if this browser has not had the
 * account keep this language yet (the last send failed, or was offline); not on every page load. A failure costs
 * only the e-mails' language.
 */
function rememberLocale(api: ApiClient, userId: string, always: boolean) {
  // Offline (the remembered person, no token) it waits for the next load.
  if (typeof navigator !== 'undefined' && !navigator.onLine) return;
  const sent = `${userId}:${getLocale()}`;
  const storage = localStorageOrNull();
  if (!always && storage?.getItem(LOCALE_SENT) === sent) return;
  api
    .put('/auth/me/locale', localeBody(getLocale()))
    .then(() => {
      try {
        storage?.setItem(LOCALE_SENT, sent);
      } catch {
        // Storage full: the next load sends it again.
      }
    })
    .catch((error: unknown) => console.warn('the language could not be kept with the account', error));
}

/**
 * The session as the page shows it. The sign-in check's answer re-renders nearly everything (the dashboard and
 * its page mount then), so it is rendered as a transition: React works in slices and lets taps through,
 * instead of one long task after Keycloak answers (issue 13: total blocking time on the feed). A sign-out or a
 * refresh shows just as soon (a transition of a few milliseconds when nothing else is rendering).
 */
function useSessionSnapshot(store: SessionStore): ShellSession {
  const [session, setSession] = useState(store.getSnapshot);
  useEffect(() => {
    const update = () => startTransition(() => setSession(store.getSnapshot()));
    // A change between the first render and this subscription.
    update();
    return store.subscribe(update);
  }, [store]);
  return session;
}

export function ShellRoot({
  children,
  store: givenStore,
  navigate,
}: {
  children?: ReactNode;
  store?: SessionStore;
  /** The router's navigate, for links inside toasts (the toasts sit outside the router). */
  navigate?: (to: string) => void;
}) {
  const [toasts] = useState(() => createToastStore());
  // Offline, the person last signed in on this browser stays signed in (without a token) to see what was kept.
  // The page's store was started by bootstrap.tsx already (appSession.ts); a given store (tests) starts here.
  const [store] = useState(() => (givenStore ? startingOnce(withOfflineSession(givenStore)) : appSessionStore()));
  const session = useSessionSnapshot(store);
  const [api] = useState(() =>
    givenStore ? createApiClient({ baseUrl: '/api', getAccessToken: () => store.accessToken(), fetch: networkAwareFetch }) : appApiClient(),
  );
  const [profileSetup, setProfileSetup] = useState<ProfileSetup>('idle');
  const [logoutOpen, setLogoutOpen] = useState(false);
  const firstLoginHandled = useRef(false);
  const userId = session.status === 'signed-in' ? session.user.id : null;
  useShellCounters(api, userId);
  // Another person signing in on this browser does not see what the last one's pages kept.
  useEffect(() => {
    if (userId) void claimPrivateCaches(userId);
  }, [userId]);
  // The account follows the language chosen here, at sign-in and at every switch (after the page has loaded).
  useEffect(() => {
    if (!userId) return;
    const cancel = afterPageLoad(() => rememberLocale(api, userId, store.justSignedIn));
    const stop = onLocaleChange(() => rememberLocale(api, userId, true));
    return () => {
      cancel();
      stop();
    };
  }, [api, userId, store]);

  const login = useCallback(
    (redirectTo?: string) => {
      store
        .login(safeReturnPath(redirectTo))
        .catch(async (error: unknown) => toasts.error(await say('toast.login-error', { message: messageOf(error) })));
    },
    [store, toasts],
  );

  useEffect(() => {
    showKeptToast(toasts);
    let active = true;
    void store.start().then(async () => {
      if (!active || firstLoginHandled.current) return;
      firstLoginHandled.current = true;
      const current = store.getSnapshot();
      if (store.loginError) toasts.error(await say('toast.login-error', { message: store.loginError }));
      if (!store.justSignedIn || current.status !== 'signed-in') {
        setProfileSetup('done');
        return;
      }
      toasts.success(getLocale() === 'en' ? LOGIN_SUCCESSFUL : await say('toast.login-successful'));
      if (!current.user.pendingProfile) {
        setProfileSetup('done');
        return;
      }
      // Stays 'idle' meanwhile: /profile waits, and the partially-set-up notice does not flash.
      try {
        const answer = await createMyProfile(api);
        store.markProfileReady();
        if (answer.created) toasts.success(answer.message);
        setProfileSetup('done');
      } catch (error) {
        toasts.error(profileFailure(error));
        setProfileSetup('failed');
      }
    });
    return () => {
      active = false;
    };
  }, [store, toasts, api]);

  const createProfileNow = useCallback(async () => {
    setProfileSetup('creating');
    try {
      const answer = await createMyProfile(api);
      store.markProfileReady();
      // The page reloads (spec §4); the toast is shown on the reloaded page.
      keepForNextPage(answer.created ? 'success' : 'info', answer.created ? answer.message : ALREADY_SET_UP);
      window.location.reload();
    } catch (error) {
      toasts.error(profileFailure(error));
      setProfileSetup('failed');
    }
  }, [api, store, toasts]);

  const confirmLogout = useCallback(async () => {
    setLogoutOpen(false);
    forgetThisPersonsData();
    keepForNextPage('success', getLocale() === 'en' ? LOGGED_OUT : await say('toast.logged-out'));
    try {
      // Back to the landing page, where the toast shows: /login would hand straight over to Keycloak.
      await store.logout('/');
    } catch (error) {
      forgetKeptToast();
      toasts.error(await say('toast.logout-error', { message: messageOf(error) }));
    }
  }, [store, toasts]);

  const auth = useMemo<ShellAuth>(
    () => ({
      login: (options) => login(options?.redirectTo),
      logout: () => setLogoutOpen(true),
      endSession: async () => {
        forgetThisPersonsData();
        await store.endSession();
      },
      onSessionEvent: (listener) => store.onEvent(listener),
      getAccessToken: () => store.accessToken(),
      ...(store.changeEmail && {
        changeEmail: (options?: { redirectTo?: string }) =>
          void store
            .changeEmail?.(safeReturnPath(options?.redirectTo))
            .catch(async (error: unknown) => toasts.error(await say('toast.error', { message: messageOf(error) }))),
      }),
    }),
    [login, store, toasts],
  );

  const contract = useMemo<ShellContract>(
    () => ({ version: 1, session, toast: toasts, api, auth, serves: SERVED_PATHS }),
    [session, toasts, api, auth],
  );
  const chrome = useMemo<ShellChrome>(
    () => ({ store, profileSetup, createProfileNow, openLogout: () => setLogoutOpen(true), login }),
    [store, profileSetup, createProfileNow, login],
  );

  return (
    <ShellProvider value={contract}>
      <OfflineBar />
      <ShellChromeContext.Provider value={chrome}>
        {children}
        <LogoutDialog open={logoutOpen} onConfirm={() => void confirmLogout()} onCancel={() => setLogoutOpen(false)} />
      </ShellChromeContext.Provider>
      <ToastHost store={toasts} navigate={navigate} />
    </ShellProvider>
  );
}
