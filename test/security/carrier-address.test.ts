// One carrier address, many people (issue 24): Nigerian mobile networks put thousands of subscribers behind
// one address, and every test client here comes from 127.0.0.1 as they would from it. One signed-in client
// floods the API; it alone is throttled (429), while six other people at the same address, signed in, keep
// being served, and the kept sign-ins of two of them still refresh. Before, the gateway and the auth
// service counted by address only, and the flood throttled everybody behind it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithPassword } from '../support/keycloak.js';
import { disposeCast, makeActor, type Actor } from './support/actors.js';
import { call, PUBLIC_URL } from './support/stack.js';

let flooder: Actor;
const people: Actor[] = [];
beforeAll(async () => {
  flooder = await makeActor('carrier flooder', { role: 'buyer' });
  for (let i = 0; i < 6; i++) people.push(await makeActor(`carrier person ${i + 1}`, { role: 'buyer' }));
}, 120_000);
afterAll(() => disposeCast(Object.fromEntries([flooder, ...people].map((actor) => [actor.label, actor]))));

/** A kept sign-in (as the shell hands it over); answers its cookie. */
async function keptSignIn(person: Actor): Promise<string> {
  const tokens = await signInWithPassword(person.email, person.password);
  const handed = await fetch(`${PUBLIC_URL}/api/auth/session`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens.accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ refresh_token: tokens.refreshToken }),
  });
  expect(handed.status, await handed.clone().text()).toBe(200);
  return handed.headers.getSetCookie().find((line) => line.startsWith('tuber_session='))!.split(';')[0]!;
}

describe('a flood from a carrier address throttles the flooder, not the people behind the same address', () => {
  it('keeps six signed-in people served (API and sign-in refresh) while one client floods', async () => {
    const cookies = [await keptSignIn(people[0]!), await keptSignIn(people[1]!)];
    const tokens = await Promise.all(people.map((person) => person.token(240_000)));
    const floodToken = await flooder.token(240_000);

    let flooding = true;
    const floodStatuses: number[] = [];
    const flood = (async () => {
      for (let wave = 0; wave < 12 && flooding; wave++) {
        const answers = await Promise.all(Array.from({ length: 150 }, () => call('GET', '/api/orders/unread', { token: floodToken, retryOn429: false })));
        floodStatuses.push(...answers.map((answer) => answer.status));
      }
    })();

    const served: { who: string; status: number }[] = [];
    try {
      for (let round = 0; round < 8; round++) {
        const answers = await Promise.all([
          ...people.map(async (person, i) => ({ who: person.label, status: (await call('GET', '/api/profile/me', { token: tokens[i]!, retryOn429: false })).status })),
          ...cookies.map(async (cookie, i) => ({
            who: `${people[i]!.label}'s kept sign-in`,
            status: (await fetch(`${PUBLIC_URL}/api/auth/session/token`, { method: 'POST', headers: { cookie, 'x-tuber-session': '1' } })).status,
          })),
        ]);
        served.push(...answers);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    } finally {
      flooding = false;
      await flood;
    }
    const throttled = floodStatuses.filter((status) => status === 429).length;
    console.info(`flood: ${floodStatuses.length} requests, ${throttled} answered 429; the others: ${served.length} requests`);
    expect(throttled, 'the flooder is throttled').toBeGreaterThan(0);
    expect(served.filter(({ status }) => status !== 200), 'people behind the same address').toEqual([]);
  }, 180_000);
});
