// Token checks must not become a way to hammer Keycloak. A stand-in realm (a real HTTP server
// that counts every JWKS request) plays Keycloak: up, rotating its key, down, or hanging.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import type { AddressInfo, Socket } from 'node:net';
import { auth, createServiceApp, type ServiceApp } from '../../src/index.js';

const ISSUER = 'http://localhost:8080/auth/realms/tuber';
const AUDIENCE = 'tuber-api';
const CERTS = '/auth/realms/tuber/protocol/openid-connect/certs';
const first = generateKeyPairSync('rsa', { modulusLength: 2048 });
const rotated = generateKeyPairSync('rsa', { modulusLength: 2048 });

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
function token(kid: string, key: KeyObject = first.privateKey): string {
  const now = Math.floor(Date.now() / 1000);
  const body = `${b64({ alg: 'RS256', typ: 'JWT', kid })}.${b64({ iss: ISSUER, aud: AUDIENCE, sub: 'user-1', iat: now, exp: now + 300 })}`;
  return `${body}.${sign('RSA-SHA256', Buffer.from(body), key).toString('base64url')}`;
}
const jwk = (key: KeyObject, kid: string) => ({ ...key.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' });

/** The stand-in realm: `mode` decides how it answers; `hits` counts JWKS requests. */
const realm = {
  mode: 'up' as 'up' | 'hang' | 'error',
  keys: [jwk(first.publicKey, 'k1')] as object[],
  hits: 0,
  hanging: [] as ServerResponse[],
};
let server: Server;
let port: number;
const sockets = new Set<Socket>();

/** A clock the tests move, so cool-downs pass without waiting. */
let clock = 1_000_000;
const now = () => clock;

const apps: ServiceApp[] = [];
async function appFor(keycloakPort: number, keys: Record<string, number> = {}): Promise<ServiceApp> {
  const app = await createServiceApp({ name: 'demo', logLevel: 'silent' });
  await app.register(auth, {
    keycloakUrl: `http://127.0.0.1:${keycloakPort}/auth`,
    realm: 'tuber',
    issuer: ISSUER,
    audience: AUDIENCE,
    keys: { now, responseTimeoutMs: 300, connectTimeoutMs: 300, ...keys },
  });
  app.get('/api/demo/me', { onRequest: app.authenticate }, async (request) => ({ sub: request.identity.userId }));
  await app.ready();
  apps.push(app);
  return app;
}
const call = (app: ServiceApp, bearer: string) => app.inject({ url: '/api/demo/me', headers: { authorization: `Bearer ${bearer}` } });

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url !== CERTS) {
      response.statusCode = 404;
      return response.end();
    }
    realm.hits += 1;
    if (realm.mode === 'hang') return void realm.hanging.push(response);
    if (realm.mode === 'error') {
      response.statusCode = 500;
      return response.end('oops');
    }
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ keys: realm.keys }));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterEach(() => {
  realm.mode = 'up';
  realm.keys = [jwk(first.publicKey, 'k1')];
  for (const response of realm.hanging.splice(0)) response.destroy();
});

afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  for (const socket of sockets) socket.destroy();
  server?.close();
});

describe('signing keys', () => {
  it('are fetched once when the service starts; tokens with a known key cause no fetch at all', async () => {
    const before = realm.hits;
    const app = await appFor(port);
    expect(realm.hits - before).toBe(1);
    const answers = await Promise.all(Array.from({ length: 50 }, () => call(app, token('k1'))));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(50).fill(200));
    expect(realm.hits - before).toBe(1);
    expect(app.realmKeys.fetches).toBe(1);
  });

  it('are fetched at most once per 30 s however many tokens name unknown keys, and those tokens get 401', async () => {
    const app = await appFor(port);
    const before = realm.hits;
    clock += 31_000;
    // 200 forged tokens, each naming a key of its own, at once and then one by one.
    const burst = await Promise.all(Array.from({ length: 100 }, () => call(app, token(randomUUID()))));
    for (let i = 0; i < 100; i++) burst.push(await call(app, token(randomUUID())));
    expect(new Set(burst.map((a) => a.statusCode))).toEqual(new Set([401]));
    expect(burst[0]!.json().message).toBe('The access token was not signed by a key of this realm. Sign in again.');
    expect(realm.hits - before).toBe(1);
    clock += 29_000;
    expect((await call(app, token(randomUUID()))).statusCode).toBe(401);
    expect(realm.hits - before).toBe(1);
    clock += 2_000;
    expect((await call(app, token(randomUUID()))).statusCode).toBe(401);
    expect(realm.hits - before).toBe(2);
    // Known keys still work throughout, without a fetch.
    expect((await call(app, token('k1'))).statusCode).toBe(200);
    expect(realm.hits - before).toBe(2);
  });

  it('pick up a rotated key on the first token naming it once the cool-down has passed', async () => {
    const app = await appFor(port);
    realm.keys = [jwk(first.publicKey, 'k1'), jwk(rotated.publicKey, 'k2')];
    clock += 31_000;
    const answer = await call(app, token('k2', rotated.privateKey));
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ sub: 'user-1' });
  });

  it('answer 503 "try again", not 401 "sign in again", while Keycloak is down', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const downPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    const app = await appFor(downPort);
    clock += 31_000;
    const answer = await call(app, token('k1'));
    expect(answer.statusCode).toBe(503);
    expect(answer.json()).toMatchObject({
      code: 'SIGN_IN_UNAVAILABLE',
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'Sign-in cannot be checked right now because the sign-in service does not answer. Please try again in a minute.',
    });
    expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('keep working from memory when Keycloak goes down later; unknown keys then get 503', async () => {
    const app = await appFor(port);
    realm.mode = 'error';
    clock += 31_000;
    expect((await call(app, token('k1'))).statusCode).toBe(200);
    const unknown = await call(app, token(randomUUID()));
    expect(unknown.statusCode).toBe(503);
    // And the failure is not retried on every request either.
    const hits = realm.hits;
    for (let i = 0; i < 20; i++) expect((await call(app, token(randomUUID()))).statusCode).toBe(503);
    expect(realm.hits).toBe(hits);
  });

  it('give up on a Keycloak that accepts the connection but never answers, within the response timeout', async () => {
    const app = await appFor(port);
    realm.mode = 'hang';
    clock += 31_000;
    const started = Date.now();
    const answer = await call(app, token(randomUUID()));
    expect(answer.statusCode).toBe(503);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
