// Who may call the auth routes: most are for people who are not signed in (signing up, resending the
// verification mail, resetting a forgotten password), so they ask for no token, and a stale or forged one
// does not get in the way. Two exceptions: keeping a signed-in person's language with the account
// (PUT /api/auth/me/locale, issue 13), without a valid token 401; and handing a sign-in over to the auth
// service (POST /api/auth/session, docs/adr/0050; its other routes use the kept sign-in's cookie).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authApp, clientAddress, uniqueEmail, type TestApp } from './support.js';

let auth: TestApp;
beforeAll(async () => {
  auth = await authApp();
});
afterAll(async () => auth?.app.close());

const routes: [method: 'GET' | 'POST', url: string, body: object | undefined, status: number][] = [
  ['GET', '/api/auth/oidc', undefined, 200],
  ['POST', '/api/auth/verification/resend', { email: uniqueEmail('nobody') }, 202],
  ['POST', '/api/auth/password/forgot', { email: uniqueEmail('nobody') }, 202],
  ['POST', '/api/auth/password/reset/check', { token: 'x'.repeat(43) }, 400],
  ['POST', '/api/auth/password/reset', { token: 'x'.repeat(43), password: 'new-secret-1', confirm_password: 'new-secret-1' }, 400],
  ['POST', '/api/auth/signup/buyer', { email: 'not-an-email' }, 400],
  ['POST', '/api/auth/signup/farmer', { email: 'not-an-email' }, 400],
];

describe('auth route access', () => {
  it.each(routes)('%s %s needs no token, and ignores a forged one', async (method, url, payload, status) => {
    for (const authorization of [undefined, 'Bearer not-a-real-token']) {
      const headers = { 'x-forwarded-for': clientAddress(), ...(authorization ? { authorization } : {}) };
      const answer = await auth.app.inject({ method, url, payload, headers });
      expect({ authorization, status: answer.statusCode }).toEqual({ authorization, status });
    }
  });

  it('publishes two routes that ask for a token: the language kept with the account, and the hand-over of a sign-in', async () => {
    const document = (await auth.app.inject({ method: 'GET', url: '/api/auth/openapi.json' })).json();
    const secured = Object.entries(document.paths as Record<string, Record<string, { security?: unknown[] }>>).flatMap(
      ([path, operations]) =>
        Object.entries(operations)
          .filter(([, operation]) => (operation.security ?? []).length > 0)
          .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(secured.sort()).toEqual(['POST /api/auth/session', 'PUT /api/auth/me/locale']);
    for (const authorization of [undefined, 'Bearer not-a-real-token']) {
      const answer = await auth.app.inject({
        method: 'PUT',
        url: '/api/auth/me/locale',
        payload: { locale: 'yo' },
        headers: { 'x-forwarded-for': clientAddress(), ...(authorization ? { authorization } : {}) },
      });
      expect({ authorization, status: answer.statusCode }).toEqual({ authorization, status: 401 });
    }
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(routes.map(([, url]) => url)));
  });
});
