import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type ServiceApp } from '@tuber/kit';
import { buildApp } from '../../src/app.js';
import { AuthConfig } from '../../src/config.js';
import { serviceEnv } from '../../../../test/support/env.js';

let app: ServiceApp;
beforeAll(async () => {
  app = await buildApp(loadConfig(AuthConfig, { ...serviceEnv('auth'), AUTH_RATE_LIMIT_PER_MINUTE: '3' }));
});
afterAll(async () => app?.close());

const forgot = (ip: string) =>
  app.inject({ method: 'POST', url: '/api/auth/password/forgot', payload: { email: `nobody-${ip}@test.tuber.local` }, headers: { 'x-forwarded-for': ip } });

describe('rate limits', () => {
  it('answers 429 with a clear message after the per-minute limit, per client address', async () => {
    const ip = `203.0.113.${Math.floor(Math.random() * 200) + 1}`;
    for (let i = 0; i < 3; i++) expect((await forgot(ip)).statusCode).toBe(202);
    const limited = await forgot(ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/^Too many attempts\. Please wait \d+ seconds and try again\.$/);
    // Another address is not affected.
    expect((await forgot(`198.51.100.${Math.floor(Math.random() * 200) + 1}`)).statusCode).toBe(202);
  });
});
