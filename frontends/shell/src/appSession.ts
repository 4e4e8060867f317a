// The page's one session store, started by bootstrap.tsx before the first render: the sign-in settings,
// keycloak-js and Keycloak's silent check then travel while React renders the page, instead of after the first
// render (issue 13: the feed's first paint waited for them). ShellRoot takes the same store and awaits the same start.
import { type ApiClient } from '@tuber/shell-contract';
import { createApiClient } from '@tuber/ui';
import { networkAwareFetch } from './offline/networkStatus.js';
import { withOfflineSession, type OfflineAwareSessionStore } from './offline/offlineSession.js';
import { loadRemotePage } from './remotes/registry.js';
import { routePage } from './remotes/routePages.js';
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

let api: ApiClient | null = null;

/** The page's API client (the contract's `api`): a fresh token from the page's store on every call. */
export function appApiClient(): ApiClient {
  api ??= createApiClient({ baseUrl: '/api', getAccessToken: () => appSessionStore().accessToken(), fetch: networkAwareFetch });
  return api;
}

/**
 * The first page's own first request, started as soon as its module is loaded and the sign-in check has
 * answered — before React renders the page (PagePrefetchContext in @tuber/ui). On the feed that is the first
 * page of products, which the first card's photo (the largest paint) waits for. Best effort: any failure
 * leaves the page to ask as it always does.
 */
export async function prefetchFirstPage(): Promise<void> {
  const first = routePage(window.location.pathname);
  if (!first) return;
  const store = appSessionStore();
  const [page] = await Promise.all([loadRemotePage(first.remote, first.expose), store.start()]);
  const session = store.getSnapshot();
  if (typeof page.prefetch !== 'function' || session.status !== 'signed-in') return;
  page.prefetch({ api: appApiClient(), url: new URL(window.location.href), session });
}
