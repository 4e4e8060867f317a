// The JWT plugin against a stand-in realm: a local JWKS endpoint and tokens signed here, so every
// rejection path (expired, wrong audience, wrong issuer, tampered, unsigned) is exercised.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { auth, createServiceApp, type ServiceApp } from '../../src/index.js';

const ISSUER = 'http://localhost:8080/auth/realms/tuber';
const AUDIENCE = 'tuber-api';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });

let jwksServer: Server;
let app: ServiceApp;

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

function token(claims: Record<string, unknown>, key: KeyObject = privateKey, kid = 'k1'): string {
  const now = Math.floor(Date.now() / 1000);
  const body = `${b64({ alg: 'RS256', typ: 'JWT', kid })}.${b64({ iss: ISSUER, aud: AUDIENCE, sub: 'user-1', iat: now, exp: now + 300, ...claims })}`;
  return `${body}.${sign('RSA-SHA256', Buffer.from(body), key).toString('base64url')}`;
}

const call = (url: string, bearer?: string) => app.inject({ url, headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });

beforeAll(async () => {
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' };
  jwksServer = createServer((request, response) => {
    if (request.url === '/auth/realms/tuber/protocol/openid-connect/certs') {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ keys: [jwk] }));
    } else {
      response.statusCode = 404;
      response.end();
    }
  });
  await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
  const port = (jwksServer.address() as AddressInfo).port;
  app = await createServiceApp({ name: 'demo', logLevel: 'silent' });
  await app.register(auth, { keycloakUrl: `http://127.0.0.1:${port}/auth`, realm: 'tuber', issuer: ISSUER, audience: AUDIENCE });
  app.get('/api/demo/me', { onRequest: app.authenticate }, async (request) => request.identity);
  app.get('/api/demo/farm', { onRequest: app.requireRole('farmer') }, async () => ({ ok: true }));
  // Ended sign-ins (issue 24): a stand-in for the Redis record, whose answers the tests set.
  // Nothing is held in memory here (`known` answers undefined), so every check asks the stand-in.
  app.decorate('revokedSessions', {
    known: (sid: string) => keptAnswers.get(sid),
    isRevoked: async (sid: string) => {
      if (redisAway) throw new Error('The client is closed');
      return endedSessions.has(sid);
    },
  });
});

const endedSessions = new Set<string>();
/** Answers the stand-in holds in memory: taken without asking (isRevoked is not called for them). */
const keptAnswers = new Map<string, boolean>();
let redisAway = false;

afterAll(async () => {
  await app?.close();
  jwksServer?.close();
});

describe('access tokens', () => {
  it('accepts a token signed by the realm key', async () => {
    const response = await call('/api/demo/me', token({ email: 'a@b.ng', realm_access: { roles: ['buyer'] } }));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ userId: 'user-1', email: 'a@b.ng', roles: ['buyer'] });
  });

  it('asks for sign-in when no token is sent', async () => {
    const response = await call('/api/demo/me');
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toMatch(/^Sign in to continue/);
  });

  it.each([
    ['expired', () => token({ exp: Math.floor(Date.now() / 1000) - 5 })],
    ['for another audience', () => token({ aud: 'account' })],
    ['from another issuer', () => token({ iss: 'http://evil.example/realms/tuber' })],
    ['signed by another key', () => token({}, stranger.privateKey)],
    [
      'tampered after signing',
      () => {
        const [h, , s] = token({}).split('.');
        return `${h}.${b64({ iss: ISSUER, aud: AUDIENCE, sub: 'admin', exp: 9_999_999_999, realm_access: { roles: ['farmer'] } })}.${s}`;
      },
    ],
    [
      'unsigned (alg none)',
      () => `${b64({ alg: 'none', typ: 'JWT', kid: 'k1' })}.${b64({ iss: ISSUER, aud: AUDIENCE, sub: 'x', exp: 9_999_999_999 })}.`,
    ],
  ])('rejects a token %s with 401', async (_label, make) => {
    const response = await call('/api/demo/me', make());
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
  });

  it('answers 403 to a signed-in user without the role', async () => {
    expect((await call('/api/demo/farm', token({ realm_access: { roles: ['buyer'] } }))).statusCode).toBe(403);
    expect((await call('/api/demo/farm', token({ realm_access: { roles: ['farmer'] } }))).statusCode).toBe(200);
  });
});

describe('tokens of an ended sign-in (issue 24)', () => {
  it('refuses a token once its session id is recorded as ended, also when it was accepted before', async () => {
    const bearer = token({ sid: 'session-a', realm_access: { roles: ['farmer'] } });
    expect((await call('/api/demo/me', bearer)).statusCode).toBe(200);
    endedSessions.add('session-a');
    for (const url of ['/api/demo/me', '/api/demo/farm']) {
      const response = await call(url, bearer);
      expect(response.statusCode, url).toBe(401);
      expect(response.json().message).toBe('This sign-in has ended. Sign in again.');
    }
  });

  it('answers from memory when the answer is held there, without asking Redis', async () => {
    keptAnswers.set('session-m', true);
    keptAnswers.set('session-n', false);
    redisAway = true; // asking would throw, and the token would be taken
    try {
      expect((await call('/api/demo/me', token({ sid: 'session-m' }))).statusCode).toBe(401);
      expect((await call('/api/demo/me', token({ sid: 'session-n' }))).statusCode).toBe(200);
    } finally {
      redisAway = false;
      keptAnswers.clear();
    }
  });

  it('keeps taking tokens of other sessions, and tokens without a session id', async () => {
    endedSessions.add('session-a');
    expect((await call('/api/demo/me', token({ sid: 'session-b' }))).statusCode).toBe(200);
    expect((await call('/api/demo/me', token({}))).statusCode).toBe(200);
  });

  it('takes the token while the record cannot be read (Redis away), as before revocation existed', async () => {
    endedSessions.add('session-c');
    redisAway = true;
    try {
      expect((await call('/api/demo/me', token({ sid: 'session-c' }))).statusCode).toBe(200);
    } finally {
      redisAway = false;
    }
    expect((await call('/api/demo/me', token({ sid: 'session-c' }))).statusCode).toBe(401);
  });
});
