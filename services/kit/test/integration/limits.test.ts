// The kit's request limits against the running Redis and Keycloak: per user (token subject),
// strict per address, and the lenient service-wide one. Strict limits refuse (503) while Redis is
// away; the lenient one lets requests by. Redis is reached through a relay the test can cut.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createServiceApp, strictLimit, useAuth, useRateLimits, useRedis, type ServiceApp } from '../../src/index.js';
import { serviceEnv } from '../../../../test/support/env.js';
import { redisUrl } from '../../../../test/support/credentials.js';
import { deleteAccount, signedInAccount, type TestAccount } from '../../../../test/support/accounts.js';
import { tcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

let app: ServiceApp;
let redis: TcpProxy;
let ada: TestAccount;
let bola: TestAccount;
// Counters live in the shared Redis: a run of its own keeps runs apart.
const run = randomUUID().slice(0, 8);

const error = { $ref: 'ErrorResponse' };
const address = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
const get = (url: string, account?: TestAccount, ip = address()) =>
  app.inject({ url, headers: { 'x-forwarded-for': ip, ...(account ? { authorization: `Bearer ${account.accessToken}` } : {}) } });

beforeAll(async () => {
  const target = new URL(redisUrl());
  redis = await tcpProxy(target.hostname, Number(target.port || 6379));
  const env = serviceEnv('catalog');
  app = await createServiceApp({ name: 'demo', logLevel: 'silent' });
  await useAuth(app, {
    KEYCLOAK_URL: env.KEYCLOAK_URL!,
    KEYCLOAK_REALM: 'tuber',
    OIDC_ISSUER: env.OIDC_ISSUER!,
    OIDC_AUDIENCE: 'tuber-api',
  });
  await useRateLimits(app, {
    redis: await useRedis(app, redis.url(redisUrl())),
    nameSpace: `test:${run}:`,
    perAddress: { max: 1000, timeWindow: '1 minute' },
  });
  app.get(
    '/api/demo/contact',
    {
      onRequest: [app.authenticate, app.limitPerUser({ name: 'contact', max: 3, timeWindow: '10 minutes', what: 'contact look-ups' })],
      schema: { security: [{ bearer: [] }], response: { 200: { type: 'object' } } },
    },
    async () => ({}),
  );
  app.post(
    '/api/demo/forgot',
    { config: { rateLimit: strictLimit(3, '1 minute') }, schema: { response: { 204: { type: 'null' } } } },
    async (_r, reply) => reply.code(204).send(),
  );
  app.get('/api/demo/open', { schema: { response: { 200: { type: 'object' }, 400: error } } }, async () => ({}));
  await app.ready();
  [ada, bola] = await Promise.all([signedInAccount({ role: 'buyer' }), signedInAccount({ role: 'buyer' })]);
});

afterAll(async () => {
  await app?.close();
  await redis?.close();
  await Promise.all([ada, bola].filter(Boolean).map((a) => deleteAccount(a.id)));
});

describe('a per-user limit', () => {
  it('counts by token subject whatever address the requests come from, says when to retry, and leaves other users alone', async () => {
    for (let i = 0; i < 3; i++) expect((await get('/api/demo/contact', ada)).statusCode).toBe(200);
    const limited = await get('/api/demo/contact', ada);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({
      statusCode: 429,
      error: 'Too Many Requests',
      message: expect.stringMatching(/^Too many contact look-ups\. Please wait \d+ seconds and try again\.$/),
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(500);
    expect((await get('/api/demo/contact', bola)).statusCode).toBe(200);
  });

  it('answers 401 first to a caller without a token (nothing to count)', async () => {
    expect((await get('/api/demo/contact')).statusCode).toBe(401);
  });
});

describe('while Redis is away', () => {
  it('strict limits refuse with 503 and a message; the lenient service-wide limit lets requests by', async () => {
    await redis.cut();
    try {
      const perUser = await get('/api/demo/contact', bola);
      expect(perUser.statusCode).toBe(503);
      expect(perUser.json().message).toBe(
        'Request limits cannot be checked right now, so this request was not accepted. Please try again in a minute.',
      );
      expect(Number(perUser.headers['retry-after'])).toBeGreaterThan(0);
      const strict = await app.inject({ method: 'POST', url: '/api/demo/forgot', headers: { 'x-forwarded-for': address() } });
      expect(strict.statusCode).toBe(503);
      expect((await get('/api/demo/open')).statusCode).toBe(200);
    } finally {
      await redis.restore();
    }
    let status = 0;
    for (let i = 0; i < 40 && status !== 204; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      status = (await app.inject({ method: 'POST', url: '/api/demo/forgot', headers: { 'x-forwarded-for': address() } })).statusCode;
    }
    expect(status).toBe(204);
  });
});

describe('the OpenAPI document', () => {
  it('lists the statuses the kit adds: 401/503 for a token check, 429/503 for a limit', async () => {
    const paths = (app.swagger() as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }).paths;
    expect(Object.keys(paths['/api/demo/contact']!.get!.responses).sort()).toEqual(['200', '401', '429', '503']);
    expect(Object.keys(paths['/api/demo/forgot']!.post!.responses).sort()).toEqual(['204', '429', '503']);
    expect(Object.keys(paths['/api/demo/open']!.get!.responses).sort()).toEqual(['200', '400', '429']);
  });
});
