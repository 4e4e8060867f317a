// A guest's public page skips keycloak-js and the silent check-sso (issue 13); every page that may find a
// session still runs them. And a guest's Login link starts the keycloak-js download on intent.
import { describe, expect, it, vi } from 'vitest';
import { hasKeycloakAnswer, sessionMayExist } from '../../src/session/sessionHint.js';

const loaded = vi.hoisted(() => ({ count: 0 }));
vi.mock('keycloak-js', () => {
  loaded.count += 1;
  return { default: class FakeKeycloak {} };
});

const origin = 'https://tuber.example';
const at = (path: string) => new URL(path, origin);
const guest = { wasSignedIn: false, loginStarted: false };

describe('whether a page load may find a session', () => {
  it('is a guest on the public pages when nothing says otherwise', () => {
    for (const path of [
      '/',
      '/onboarding',
      '/signupbuyer',
      '/login',
      '/forgot-password',
      '/reset-password?key=k',
      '/nope',
      '/?tuber=yam',
    ]) {
      expect(sessionMayExist({ url: at(path), ...guest }), path).toBe(false);
    }
  });

  it('checks when the last session here was signed in, or a login was started', () => {
    expect(sessionMayExist({ url: at('/'), wasSignedIn: true, loginStarted: false })).toBe(true);
    expect(sessionMayExist({ url: at('/'), wasSignedIn: false, loginStarted: true })).toBe(true);
  });

  it('checks in the signed-in areas, whatever the hint says', () => {
    for (const path of ['/dashboard', '/dashboard/buyer', '/dashboard/buyer/p1?x=1', '/dashboard/farmerprofile', '/profile', '/profile/']) {
      expect(sessionMayExist({ url: at(path), ...guest }), path).toBe(true);
    }
    expect(sessionMayExist({ url: at('/dashboards'), ...guest })).toBe(false);
    expect(sessionMayExist({ url: at('/profiles'), ...guest })).toBe(false);
  });

  it("checks when Keycloak's answer is in the address (back from its login page)", () => {
    expect(hasKeycloakAnswer(at('/#state=abc&session_state=s&iss=x&code=c0de'))).toBe(true);
    expect(hasKeycloakAnswer(at('/onboarding#error=access_denied&state=abc'))).toBe(true);
    expect(hasKeycloakAnswer(at('/?state=abc&code=c0de'))).toBe(true);
    expect(sessionMayExist({ url: at('/#state=abc&code=c0de'), ...guest })).toBe(true);
  });

  it("does not take the app's own query or fragment for Keycloak's answer", () => {
    expect(hasKeycloakAnswer(at('/#top'))).toBe(false);
    expect(hasKeycloakAnswer(at('/?code=yam'))).toBe(false);
    expect(hasKeycloakAnswer(at('/?state=lagos'))).toBe(false);
  });
});

describe("a guest's Login link", () => {
  /** A document stand-in: the listeners the page adds, and a way to fire an event at an element. */
  function fakeDocument() {
    const listeners = new Map<string, (event: Event) => void>();
    const target = {
      addEventListener: (type: string, listener: (event: Event) => void) => void listeners.set(type, listener),
      removeEventListener: (type: string) => void listeners.delete(type),
    };
    const fire = (type: string, matches: boolean) =>
      listeners.get(type)?.({
        target: { closest: (selector: string) => (matches && selector.includes('/login') ? {} : null) },
      } as unknown as Event);
    return { target: target as unknown as Document, listeners, fire };
  }

  it('starts the keycloak-js download once, when a pointer or the focus reaches it', async () => {
    const { prefetchOnLoginIntent } = await import('../../src/session/keycloakLoader.js');
    const page = fakeDocument();
    prefetchOnLoginIntent(page.target);
    expect([...page.listeners.keys()].sort()).toEqual(['focusin', 'pointerover', 'touchstart']);
    page.fire('pointerover', false); // anywhere else on the page
    expect(page.listeners.size).toBe(3);
    expect(loaded.count).toBe(0);
    page.fire('focusin', true);
    expect(page.listeners.size).toBe(0); // once per page
    await vi.waitFor(() => expect(loaded.count).toBe(1));
  });
});
