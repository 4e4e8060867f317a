// The account forms' gate (docs/adr/0068), against the real Redis. Each form counts posts per client
// address (AUTH_RATE_LIMIT_PER_MINUTE free, here 3); past them a post is taken only with a solved proof of
// work, used once; past the ceiling of proven posts (here 2) nothing is taken. Other addresses are never affected.
import { PROOF_HEADER } from '@tuber/contracts';
import type { Challenge } from 'altcha-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisUrl } from '../../../../test/support/credentials.js';
import { solveProof } from '../../../../test/support/proof.js';
import { closeRedis, connectRedis, type RedisClient } from '@tuber/kit';
import { tcpProxy, type TcpProxy } from '../../../kit/test/support/tcp-proxy.js';
import { FormGate } from '../../src/domain/form-gate.js';
import { authApp, clientAddress, post, type TestApp } from './support.js';

let auth: TestApp;
beforeAll(async () => {
  auth = await authApp({ AUTH_RATE_LIMIT_PER_MINUTE: '3', AUTH_FORM_CEILING_PER_MINUTE: '2', PROOF_OF_WORK_BASE_COUNTER: '20' });
});
afterAll(async () => auth?.app.close());

// Bodies that fail validation: the gate counts every attempt, and nothing is created or sent.
const forms = [
  '/api/auth/signup/buyer',
  '/api/auth/signup/farmer',
  '/api/auth/verification/resend',
  '/api/auth/password/forgot',
  '/api/auth/password/reset/check',
  '/api/auth/password/reset',
];

const send = (route: string, ip: string, proof?: string) =>
  auth.app.inject({
    method: 'POST',
    url: route,
    payload: {},
    headers: { 'x-forwarded-for': ip, ...(proof === undefined ? {} : { [PROOF_HEADER]: proof }) },
  });

/** What the app does with a PROOF_REQUIRED answer: solve its challenge, and encode the proof for the header. */
async function solve(answer: { json(): unknown }): Promise<{ proof: string; challenge: Challenge; counter: number }> {
  const body = answer.json() as { code: string; params: { challenge: string } };
  expect(body.code).toBe('PROOF_REQUIRED');
  const { header, counter } = await solveProof(body.params.challenge);
  const challenge = JSON.parse(Buffer.from(body.params.challenge, 'base64url').toString('utf8')) as Challenge;
  return { proof: header, challenge, counter };
}

describe('the account forms ask a busy address for a proof of work', () => {
  it.each(forms)('%s takes 3 posts a minute from an address freely, then only with a proof', async (route) => {
    const ip = clientAddress();
    for (let i = 0; i < 3; i++) expect((await send(route, ip)).statusCode).toBe(400);
    const asked = await send(route, ip);
    expect(asked.statusCode).toBe(429);
    expect(asked.json()).toMatchObject({ status: 429, code: 'PROOF_REQUIRED', message: expect.stringContaining(PROOF_HEADER) });
    const { proof } = await solve(asked);
    // With the proof, the post reaches the form (which refuses the empty body for what it is).
    expect((await send(route, ip, proof)).statusCode).toBe(400);
    // Another address is not affected.
    expect((await send(route, clientAddress())).statusCode).toBe(400);
  });

  it('takes a proof once, and refuses a forged or altered one with a new challenge', async () => {
    const route = '/api/auth/password/forgot';
    const ip = clientAddress();
    for (let i = 0; i < 3; i++) await send(route, ip);
    const { proof, challenge } = await solve(await send(route, ip));
    expect((await send(route, ip, proof)).statusCode).toBe(400);
    const again = await send(route, ip, proof);
    expect(again.statusCode).toBe(429);
    expect(again.json()).toMatchObject({ code: 'PROOF_REQUIRED' });

    // A solution for a challenge the service never signed (made up, or its counter changed) is refused.
    const forged = Buffer.from(
      JSON.stringify({ challenge: { ...challenge, signature: '0'.repeat(64) }, solution: { counter: 1, derivedKey: '00' } }),
    ).toString('base64url');
    expect((await send(route, ip, forged)).json()).toMatchObject({ code: 'PROOF_REQUIRED' });
    expect((await send(route, ip, 'not a proof')).json()).toMatchObject({ code: 'PROOF_REQUIRED' });
  });

  it('asks more of a busier address: the counter a challenge hides doubles as the count doubles', async () => {
    const route = '/api/auth/verification/resend';
    const ip = clientAddress();
    for (let i = 0; i < 3; i++) await send(route, ip);
    const tops: number[] = [];
    // Posts 4–5 are level 1 (counter 10–20), 6–11 level 2 (20–40); the test reads the level from the challenge's key
    // by solving it: the counter found is the one the service hid.
    for (let i = 4; i <= 11; i++) tops.push((await solve(await send(route, ip))).counter);
    expect(Math.max(...tops.slice(0, 2))).toBeLessThanOrEqual(20);
    expect(Math.min(...tops.slice(0, 2))).toBeGreaterThanOrEqual(10);
    expect(Math.min(...tops.slice(3))).toBeGreaterThanOrEqual(20);
  });

  it('refuses even a proven post past the ceiling of proven posts, with Retry-After', async () => {
    const route = '/api/auth/password/reset';
    const ip = clientAddress();
    for (let i = 0; i < 3; i++) await send(route, ip);
    for (let i = 0; i < 2; i++) expect((await send(route, ip, (await solve(await send(route, ip))).proof)).statusCode).toBe(400);
    const refused = await send(route, ip, (await solve(await send(route, ip))).proof);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/^Too many attempts\. Please wait \d+ seconds/),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('counts unproven posts apart: a flood that never pays does not push the proven posts into the ceiling', async () => {
    const route = '/api/auth/password/forgot';
    const ip = clientAddress();
    const flood = await Promise.all(Array.from({ length: 40 }, () => send(route, ip)));
    expect(flood.filter((answer) => answer.statusCode === 429).length).toBe(37);
    expect((await send(route, ip, (await solve(await send(route, ip))).proof)).statusCode).toBe(400);
  });

  it('limits the OIDC settings by the general limit, more generously', async () => {
    const answer = await auth.app.inject({ method: 'GET', url: '/api/auth/oidc', headers: { 'x-forwarded-for': clientAddress() } });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['x-ratelimit-limit']).toBe('120');
  });
});

describe('the gate across the turn of a clock minute', () => {
  let redis: RedisClient;
  beforeAll(async () => {
    redis = await connectRedis(redisUrl('auth'));
  });
  afterAll(async () => redis && closeRedis(redis));

  it('keeps a flooded address busy when the minute turns, and frees it once the flood is a minute old', async () => {
    // A minute in the future of the real clock, so that no other run's keys share it.
    const minute = (Math.floor(Date.now() / 60_000) + 1 + Math.floor(Math.random() * 1_000_000)) * 60_000;
    let at = minute + 59_000;
    const gate = new FormGate({ redis, secret: 'test secret', freePerMinute: 3, ceilingPerMinute: 100, baseCounter: 20, clock: () => at });
    const form = 'POST/api/auth/password/forgot';
    const ip = clientAddress();
    const kinds = async (posts: number) => {
      const answers: string[] = [];
      for (let i = 0; i < posts; i++) answers.push((await gate.admit(form, ip, undefined)).kind);
      return answers;
    };
    // 40 posts in the last second of a minute: 3 free, then proofs.
    const flood = await kinds(40);
    expect(flood.filter((kind) => kind === 'free')).toHaveLength(3);
    // 0.1 s into the next minute the address is as busy as it was: no free posts at the turn (a fixed minute gave 3).
    at = minute + 60_100;
    expect(await kinds(3)).toEqual(['proof-required', 'proof-required', 'proof-required']);
    // Half a minute on, half the flood still counts (20 + 4 > 3): still a proof.
    at = minute + 90_000;
    expect((await gate.admit(form, ip, undefined)).kind).toBe('proof-required');
    // Two minutes after the flood nothing of it counts; the address is quiet again.
    at = minute + 180_000;
    expect(await kinds(3)).toEqual(['free', 'free', 'free']);
    expect((await gate.admit(form, ip, undefined)).kind).toBe('proof-required');
    // Another address behind nothing of this was never affected.
    expect((await gate.admit(form, clientAddress(), undefined)).kind).toBe('free');
  });
});

describe('the gate while Redis is away', () => {
  let away: TestApp;
  let relay: TcpProxy;
  beforeAll(async () => {
    const target = new URL(redisUrl('auth'));
    relay = await tcpProxy(target.hostname, Number(target.port || 6379));
    away = await authApp({ REDIS_URL: relay.url(redisUrl('auth')), AUTH_RATE_LIMIT_PER_MINUTE: '3' });
  }, 30_000);
  afterAll(async () => {
    await away?.app.close();
    await relay?.close();
  });

  it('refuses an account form with 503 LIMITS_UNAVAILABLE (closed, not open), and takes it again when Redis is back', async () => {
    const ip = clientAddress();
    expect((await post(away.app, '/api/auth/password/reset/check', { token: 'x' }, ip)).statusCode).toBe(400);
    await relay.cut();
    const answer = await post(away.app, '/api/auth/password/reset/check', { token: 'x' }, ip);
    expect(answer.statusCode).toBe(503);
    expect(answer.json()).toMatchObject({ code: 'LIMITS_UNAVAILABLE' });
    await relay.restore();
    await expect
      .poll(async () => (await post(away.app, '/api/auth/password/reset/check', { token: 'x' }, ip)).statusCode, { timeout: 15_000 })
      .toBe(400);
  }, 30_000);
});
