// The page's one session store, started by bootstrap.tsx before the first render: the sign-in settings,
// keycloak-js and Keycloak's silent check then travel while React renders the page, instead of after the first
// render (issue 13: the feed's first paint waited for them). ShellRoot takes the same store and awaits the same start.
import { withOfflineSession, type OfflineAwareSessionStore } from './offline/offlineSession.js';
import { createSessionStore, type SessionStore } from './session/keycloakSession.js';

/** A store whose start() runs once; later calls share the first call's outcome. */
export function startingOnce<S extends SessionStore>(inner: S): S {
  let started: Promise<void> | null = null;
  return new Proxy(inner, {
    get(target, key) {
      if (key === 'start') return () => (started ??= target.start());
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

let store: OfflineAwareSessionStore | null = null;

export function appSessionStore(): OfflineAwareSessionStore {
  store ??= startingOnce(withOfflineSession(createSessionStore()));
  return store;
}
