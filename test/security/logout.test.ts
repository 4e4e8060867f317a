// Logout that is one (issue 24): an access token issued before the sign-in ended was taken by every API for
// up to 5 minutes. Now the app's logout (DELETE /api/auth/session) records the sign-in's session id, and
// every service refuses that session's tokens from the next request on: 0 s, on each service, through the
// gateway. Another sign-in of the same person keeps working.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithPassword, type Tokens } from '../support/keycloak.js';
import { disposeCast, makeActor, type Actor } from './support/actors.js';
import { call, PUBLIC_URL } from './support/stack.js';

/** A signed-in farmer's GET on each service that checks tokens. */
const ROUTES = [
  ['GET', '/api/profile/me'],
  ['GET', '/api/catalog/products/mine'],
  ['GET', '/api/orders/unread'],
  ['GET', '/api/media/images/upload-permit'],
] as const;

let farmer: Actor;
beforeAll(async () => {
  farmer = await makeActor('logout farmer', { role: 'farmer', businessName: 'Logout Farms', location: 'Ibadan', tuber: ['yam'] });
}, 60_000);
afterAll(() => disposeCast({ farmer }));

/** The app's sign-in kept by the auth service (as the shell hands it over); answers its cookie. */
async function keep(tokens: Tokens): Promise<string> {
  const handed = await fetch(`${PUBLIC_URL}/api/auth/session`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens.accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ refresh_token: tokens.refreshToken }),
  });
  expect(handed.status, await handed.clone().text()).toBe(200);
  const line = handed.headers.getSetCookie().find((l) => l.startsWith('tuber_session='))!;
  return line.split(';')[0]!;
}

describe('logout ends access on every service at once', () => {
  it('refuses the ended sign-in’s access token everywhere, the next request after logout, and keeps another sign-in working', async () => {
    const ended = await signInWithPassword(farmer.email, farmer.password);
    const other = await signInWithPassword(farmer.email, farmer.password);
    const cookie = await keep(ended);
    for (const [method, path] of ROUTES) {
      const before = await call(method, path, { token: ended.accessToken });
      expect(before.status, `${path} before logout: ${before.text.slice(0, 200)}`).toBeLessThan(300);
    }

    const out = await fetch(`${PUBLIC_URL}/api/auth/session`, { method: 'DELETE', headers: { cookie, 'x-tuber-session': '1' } });
    expect(out.status).toBe(204);
    const loggedOutAt = Date.now();

    for (const [method, path] of ROUTES) {
      const after = await call(method, path, { token: ended.accessToken });
      expect(after.status, `${path} after logout: ${after.text.slice(0, 200)}`).toBe(401);
      expect(after.body.message).toBe('This sign-in has ended. Sign in again.');
      const stillIn = await call(method, path, { token: other.accessToken });
      expect(stillIn.status, `${path} with the other sign-in: ${stillIn.text.slice(0, 200)}`).toBeLessThan(300);
    }
    // All four refusals came within the time of the calls themselves: no window after logout.
    expect(Date.now() - loggedOutAt).toBeLessThan(5_000);
  });
});
