// keycloak-js (~8 KB gzip) is a chunk of its own, downloaded only when the page needs it: a session may
// exist (keycloakSession.ts starts it with the page), or a guest is about to sign in.
import type Keycloak from 'keycloak-js';

export type KeycloakClass = typeof Keycloak;

let loading: Promise<KeycloakClass> | null = null;

/** keycloak-js, downloaded once; a failed download (a network blip) is tried again on the next call. */
export function loadKeycloak(): Promise<KeycloakClass> {
  loading ??= import(/* webpackChunkName: "keycloak" */ 'keycloak-js').then(
    (module) => module.default,
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** Starts the download without waiting for it (a failure is met again, and reported, when it is needed). */
export function prefetchKeycloak(): void {
  loadKeycloak().catch(() => undefined);
}

/** Links that start a sign-in: the header's Login (a plain click hands over to Keycloak at once) and /login links. */
const LOGIN_LINK = 'a[href="/login"], a[href^="/login?"]';

/**
 * A guest's page has no keycloak-js: when a pointer reaches a Login link or it gets focus (or a finger
 * touches it), the download starts, so the click that follows does not wait for it. Once per page;
 * returns a function that stops listening.
 */
export function prefetchOnLoginIntent(target: Document = document): () => void {
  const events = ['pointerover', 'focusin', 'touchstart'] as const;
  const stop = () => events.forEach((type) => target.removeEventListener(type, onIntent, true));
  function onIntent(event: Event) {
    const element = event.target as Element | null;
    if (!element || typeof element.closest !== 'function' || !element.closest(LOGIN_LINK)) return;
    stop();
    prefetchKeycloak();
  }
  events.forEach((type) => target.addEventListener(type, onIntent, { capture: true, passive: true }));
  return stop;
}
