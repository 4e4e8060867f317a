// Opening the app with no network keeps a signed-in person signed in (issue 13: the feed, the products they
// opened and the cart open offline). Keycloak cannot be asked without a network and its tokens live only in
// memory, so on an offline start the session store finds nobody; this wrapper then shows the person this
// browser last had signed in — without a token: nothing private can be fetched, only what the service
// worker kept — until the network is back, when the real sign-in check runs again and decides.
// Logout, the end of a session and a sign-out found online forget that person (docs/adr/0042-offline.md).
import type { ShellSession, ShellUser } from '@tuber/shell-contract';
import type { SessionStore } from '../session/keycloakSession.js';
import { isOffline, subscribeNetwork } from './networkStatus.js';
import { localStorageOrNull } from '../storage.js';
import { clearPrivateCaches } from './privateCaches.js';

const REMEMBERED_USER = 'tuber:offline-user';


/** What is kept of the user: enough for the header and the pages' checks; the phone number is left out. */
function remember(user: ShellUser): void {
  const kept: ShellUser = { ...user, phone: '' };
  localStorageOrNull()?.setItem(REMEMBERED_USER, JSON.stringify(kept));
}

function remembered(): ShellUser | null {
  const raw = localStorageOrNull()?.getItem(REMEMBERED_USER);
  if (!raw) return null;
  try {
    const user = JSON.parse(raw) as Partial<ShellUser>;
    return typeof user.id === 'string' && (user.userType === 'buyer' || user.userType === 'farmer') ? (user as ShellUser) : null;
  } catch {
    return null;
  }
}

function forget(): void {
  localStorageOrNull()?.removeItem(REMEMBERED_USER);
}

export interface OfflineAwareSessionStore extends SessionStore {
  /** True while the session shown is the remembered one (offline, no token). */
  readonly offlineSession: boolean;
}

export function withOfflineSession(inner: SessionStore): OfflineAwareSessionStore {
  let offlineUser: ShellUser | null = null;
  let offlineSnapshot: ShellSession | null = null;
  /** The real sign-in check is running again now that the network is back. */
  let rechecking = false;
  let snapshot: ShellSession = inner.getSnapshot();
  const listeners = new Set<() => void>();

  function compute(): ShellSession {
    const real = inner.getSnapshot();
    if (real.status === 'signed-in') {
      remember(real.user);
      offlineUser = null;
      offlineSnapshot = null;
      return real;
    }
    if (real.status === 'anonymous' && !offlineUser && isOffline()) {
      offlineUser = remembered();
      offlineSnapshot = offlineUser ? { status: 'signed-in', user: offlineUser } : null;
    }
    if (offlineSnapshot) return offlineSnapshot;
    // Signed out with the network up: this browser forgets the person, and what they saw.
    if (real.status === 'anonymous' && !isOffline() && remembered()) {
      forget();
      void clearPrivateCaches();
    }
    return real;
  }

  function update() {
    const next = compute();
    if (next === snapshot) return;
    snapshot = next;
    listeners.forEach((listener) => listener());
  }

  async function recheck() {
    if (!offlineUser || rechecking || isOffline()) return;
    rechecking = true;
    try {
      await inner.start();
    } catch (error) {
      console.error('[shell] the sign-in check after coming back online failed', error);
    } finally {
      rechecking = false;
    }
    if (isOffline()) return; // gone again: keep showing the remembered person
    offlineUser = null;
    offlineSnapshot = null;
    update();
  }

  inner.subscribe(update);
  subscribeNetwork(() => {
    update();
    void recheck();
  });

  return {
    get offlineSession() {
      return offlineSnapshot !== null;
    },
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onEvent: (listener) => inner.onEvent(listener),
    async start() {
      // Offline, Keycloak cannot be asked (its check would only time out): the remembered person at once,
      // and the real check when the network is back (recheck).
      const person = isOffline() ? remembered() : null;
      if (person) {
        offlineUser = person;
        offlineSnapshot = { status: 'signed-in', user: person };
        update();
        return;
      }
      await inner.start();
      update();
    },
    get justSignedIn() {
      return inner.justSignedIn;
    },
    get loginError() {
      return inner.loginError;
    },
    login: (redirectTo) => inner.login(redirectTo),
    ...(inner.changeEmail && { changeEmail: (redirectTo: string) => inner.changeEmail!(redirectTo) }),
    async logout(redirectTo) {
      forget();
      await clearPrivateCaches();
      if (offlineSnapshot) {
        // No Keycloak to tell while offline: this browser forgets the person; Keycloak's session ends at its
        // own expiry (or at the next logout online).
        offlineUser = null;
        offlineSnapshot = null;
        update();
        window.location.assign(redirectTo);
        return;
      }
      await inner.logout(redirectTo);
    },
    async endSession() {
      forget();
      offlineUser = null;
      offlineSnapshot = null;
      await clearPrivateCaches();
      await inner.endSession();
      update();
    },
    accessToken: () => inner.accessToken(),
    refreshUser: () => inner.refreshUser(),
    markProfileReady: () => inner.markProfileReady(),
  };
}
