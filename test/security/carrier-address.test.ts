// One carrier address, many people (issue 24): Nigerian mobile networks put thousands of subscribers behind
// one address, and every test client here comes from 127.0.0.1 as they would from it. One signed-in client
// floods the API; it alone is throttled (429), while six other people at the same address, signed in, keep
// being served, and the kept sign-ins of two of them still refresh. Before, the gateway and the auth
// service counted by address only, and the flood throttled everybody behind it.
// The same holds at Keycloak's sign-in form (docs/adr/0062): one script posting wrong passwords from
// the address is throttled by its login session, and six people signing in beside it get in. Before,
// the form counted by address (60 a minute): the script's flood refused them 429 "Too many attempts".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeycloakBrowser, signInWithPassword } from '../support/keycloak.js';
import { disposeCast, makeActor, type Actor } from './support/actors.js';
import { PROOF_HEADER } from '@tuber/contracts';
import { solveProof } from '../support/proof.js';
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
  return handed.headers
    .getSetCookie()
    .find((line) => line.startsWith('tuber_session='))!
    .split(';')[0]!;
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
        const answers = await Promise.all(
          Array.from({ length: 150 }, () => call('GET', '/api/orders/unread', { token: floodToken, retryOn429: false })),
        );
        floodStatuses.push(...answers.map((answer) => answer.status));
      }
    })();

    const served: { who: string; status: number }[] = [];
    try {
      for (let round = 0; round < 8; round++) {
        const answers = await Promise.all([
          ...people.map(async (person, i) => ({
            who: person.label,
            status: (await call('GET', '/api/profile/me', { token: tokens[i]!, retryOn429: false })).status,
          })),
          ...cookies.map(async (cookie, i) => ({
            who: `${people[i]!.label}'s kept sign-in`,
            status: (await fetch(`${PUBLIC_URL}/api/auth/session/token`, { method: 'POST', headers: { cookie, 'x-tuber-session': '1' } }))
              .status,
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
    expect(
      served.filter(({ status }) => status !== 200),
      'people behind the same address',
    ).toEqual([]);
  }, 180_000);
});

describe('a flood of the sign-in form from a carrier address throttles the script, not the people signing in', () => {
  it('lets six people at the same address sign in, each within 5 s, while one login session posts wrong passwords', async () => {
    const script = new KeycloakBrowser();
    const opened = await script.authorize();
    expect(opened.action).toBeDefined();
    let flooding = true;
    const floodStatuses: number[] = [];
    const flood = (async () => {
      const until = Date.now() + 90_000;
      while (flooding && Date.now() < until) {
        const answers = await Promise.all(
          Array.from({ length: 40 }, () =>
            fetch(opened.action!, {
              method: 'POST',
              redirect: 'manual',
              headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: script.jar.header },
              body: new URLSearchParams({
                username: `nobody-${floodStatuses.length}@test.tuber.local`,
                password: 'wrong-password',
                credentialId: '',
              }),
            }).then(async (answer) => {
              await answer.arrayBuffer();
              return answer.status;
            }),
          ),
        );
        floodStatuses.push(...answers);
      }
    })();

    const outcomes: { who: string; result: string }[] = [];
    try {
      // Let the flood fill the buckets first, then the people arrive one after another.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      for (const person of people) {
        const started = Date.now();
        const result = await new KeycloakBrowser()
          .signIn(person.email, person.password)
          .then(() => 'signed in')
          .catch((err: Error) => `refused: ${err.message.slice(0, 120)}`);
        // Held in the flood's queue is no better than refused: a person waits a few seconds at most.
        const seconds = (Date.now() - started) / 1000;
        outcomes.push({
          who: person.label,
          result: result === 'signed in' && seconds > 5 ? `signed in after ${seconds.toFixed(1)} s` : result,
        });
      }
    } finally {
      flooding = false;
      await flood;
    }
    const throttled = floodStatuses.filter((status) => status === 429).length;
    console.info(
      `sign-in flood: ${floodStatuses.length} posts, ${throttled} answered 429; people: ${outcomes.map((o) => o.result).join(', ')}`,
    );
    expect(throttled, 'the script is throttled').toBeGreaterThan(0);
    expect(
      outcomes.filter(({ result }) => result !== 'signed in'),
      'people behind the same address',
    ).toEqual([]);
  }, 180_000);
});

// The account forms (docs/adr/0068): nothing names the person who posts a forgot-password, so they count by
// address, and a wall there would lock the whole carrier out. Past 10 posts a minute the auth service asks
// each post for a proof of work instead. The flooder, who will not pay, is refused past the free posts; six
// people at the same address each solve one challenge and are served. Before, the 11th post from the address
// got 429 "Too many attempts" whoever sent it, and the gateway refused the address after 60 a minute.
describe('a flood of the account forms from a carrier address costs the flooder, not the people behind it', () => {
  it('serves six people asking for a reset link, each after one proof of work, while one client floods the form', async () => {
    const forgot = (email: string, proof?: string) =>
      fetch(`${PUBLIC_URL}/api/auth/password/forgot`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(proof ? { [PROOF_HEADER]: proof } : {}) },
        body: JSON.stringify({ email }),
      });
    let flooding = true;
    const floodStatuses: number[] = [];
    const flood = (async () => {
      // 40 posts a second, below the gateway's carrier-sized ceiling for the forms (50 a second per address).
      for (let wave = 0; wave < 240 && flooding; wave++) {
        const next = new Promise((resolve) => setTimeout(resolve, 500));
        const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => forgot(`flood-${wave}-${i}@test.tuber.local`)));
        for (const answer of answers) {
          floodStatuses.push(answer.status);
          await answer.arrayBuffer();
        }
        await next;
      }
    })();

    const served: { who: string; status: number; proofs: number; ms: number }[] = [];
    try {
      // Let the flood pass the free posts first.
      await expect.poll(() => floodStatuses.filter((status) => status === 429).length, { timeout: 20_000 }).toBeGreaterThan(0);
      for (const person of people) {
        const started = Date.now();
        let answer = await forgot(person.email);
        let proofs = 0;
        while (answer.status === 429 && proofs < 3) {
          const body = (await answer.json()) as { code: string; params?: { challenge?: string } };
          if (body.code !== 'PROOF_REQUIRED' || !body.params?.challenge) break;
          proofs += 1;
          answer = await forgot(person.email, (await solveProof(body.params.challenge)).header);
        }
        served.push({ who: person.label, status: answer.status, proofs, ms: Date.now() - started });
        await answer.arrayBuffer().catch(() => undefined);
      }
    } finally {
      flooding = false;
      await flood;
    }
    const taken = floodStatuses.filter((status) => status === 202).length;
    console.info(
      `account-form flood: ${floodStatuses.length} posts, ${taken} taken, ${floodStatuses.filter((s) => s === 429).length} answered 429; ` +
        `people: ${served.map(({ status, proofs, ms }) => `${status} after ${proofs} proof(s) in ${ms} ms`).join('; ')}`,
    );
    expect(taken, 'the flooder gets no more than the free posts of one minute, even across its turn').toBeLessThanOrEqual(10);
    expect(served.map(({ who, status }) => ({ who, status }))).toEqual(people.map((person) => ({ who: person.label, status: 202 })));
    expect(
      served.every(({ proofs }) => proofs >= 1),
      'each person paid with a proof, as the flood made the address busy',
    ).toBe(true);
    expect(Math.max(...served.map(({ ms }) => ms)), 'each person served within 5 s').toBeLessThan(5_000);
  }, 120_000);
});
