// Every auth route that sends mail, creates accounts or takes a reset token is limited per client
// address and route (AUTH_RATE_LIMIT_PER_MINUTE, here 3); the others share a general limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authApp, clientAddress, post, type TestApp } from './support.js';

let auth: TestApp;
beforeAll(async () => {
  auth = await authApp({ AUTH_RATE_LIMIT_PER_MINUTE: '3' });
});
afterAll(async () => auth?.app.close());

const LIMITED = /^Too many attempts\. Please wait \d+ seconds and try again\.$/;

// Bodies that fail validation: the limit counts every attempt, and nothing is created or sent.
const strictRoutes = [
  '/api/auth/signup/buyer',
  '/api/auth/signup/farmer',
  '/api/auth/verification/resend',
  '/api/auth/password/forgot',
  '/api/auth/password/reset/check',
  '/api/auth/password/reset',
];

describe('rate limits', () => {
  it.each(strictRoutes)('%s answers 429 with a clear message after 3 attempts a minute from one address', async (route) => {
    const ip = clientAddress();
    for (let i = 0; i < 3; i++) expect((await post(auth.app, route, {}, ip)).statusCode).toBe(400);
    const limited = await post(auth.app, route, {}, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests', message: expect.stringMatching(LIMITED) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await post(auth.app, route, {})).statusCode).toBe(400);
  });

  it('counts each route on its own', async () => {
    const ip = clientAddress();
    for (let i = 0; i < 4; i++) await post(auth.app, '/api/auth/password/forgot', {}, ip);
    expect((await post(auth.app, '/api/auth/password/forgot', {}, ip)).statusCode).toBe(429);
    expect((await post(auth.app, '/api/auth/password/reset', {}, ip)).statusCode).toBe(400);
  });

  it('limits the OIDC settings too, more generously', async () => {
    const answer = await auth.app.inject({ method: 'GET', url: '/api/auth/oidc', headers: { 'x-forwarded-for': clientAddress() } });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['x-ratelimit-limit']).toBe('120');
  });
});
