// One sign-in callback URI (docs/adr/0018): the page the user wanted comes back from session
// storage, only ever as a path of this site, with Keycloak's answer left for keycloak-js.
import { describe, expect, it } from 'vitest';
import { CALLBACK_PATH, callbackReplacement, rememberReturnPath } from '../../src/session/loginCallback.js';

const origin = 'https://tuber.example';
const answer = '#state=abc&session_state=s1&iss=x&code=c0de';

describe('the sign-in callback', () => {
  it('shows the remembered page with Keycloak answer kept in the fragment', () => {
    expect(callbackReplacement(`${origin}${CALLBACK_PATH}${answer}`, '/dashboard/cart')).toBe(`/dashboard/cart${answer}`);
    expect(callbackReplacement(`${origin}${CALLBACK_PATH}${answer}`, '/dashboard/buyer?tuber=yam')).toBe(
      `/dashboard/buyer?tuber=yam${answer}`,
    );
  });

  it('keeps an answer in the query (query response mode) and drops a fragment of the remembered page', () => {
    expect(callbackReplacement(`${origin}${CALLBACK_PATH}?state=abc&code=c0de`, '/dashboard/farmer#top')).toBe(
      '/dashboard/farmer?state=abc&code=c0de',
    );
  });

  it('goes to /profile when nothing was remembered or the remembered place is foreign or guest-only', () => {
    for (const returnTo of [null, 'https://evil.example/', '//evil.example/x', '/login', '/signupfarmer']) {
      expect(callbackReplacement(`${origin}${CALLBACK_PATH}${answer}`, returnTo)).toBe(`/profile${answer}`);
    }
  });

  it('leaves every other address alone', () => {
    expect(callbackReplacement(`${origin}/dashboard/buyer${answer}`, '/dashboard/cart')).toBeNull();
    expect(callbackReplacement(`${origin}${CALLBACK_PATH}/more`, '/dashboard/cart')).toBeNull();
  });

  it('remembers only a safe path', () => {
    const saved = new Map<string, string>();
    const store = { setItem: (key: string, value: string) => void saved.set(key, value) };
    rememberReturnPath('https://evil.example/', store);
    expect([...saved.values()]).toEqual(['/profile']);
    rememberReturnPath('/dashboard/productLists', store);
    expect([...saved.values()]).toEqual(['/dashboard/productLists']);
  });
});
