// Token checks against the running Keycloak: its keys are fetched once, known keys need no
// fetch, forged tokens naming unknown keys cannot make the service ask Keycloak again and again,
// and a Keycloak out of reach gives 503 "try again", not 401 "sign in again".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { auth, createServiceApp, type ServiceApp } from '../../src/index.js';
import { serviceEnv } from '../../../../test/support/env.js';
import { deleteAccount, signedInAccount, type TestAccount } from '../../../../test/support/accounts.js';

const env = serviceEnv('catalog');
let buyer: TestAccount;
const apps: ServiceApp[] = [];

async function appAt(keycloakUrl: string): Promise<ServiceApp> {
  const app = await createServiceApp({ name: 'demo', logLevel: 'silent' });
  await app.register(auth, { keycloakUrl, realm: 'tuber', issuer: env.OIDC_ISSUER!, audience: 'tuber-api' });
  app.get('/api/demo/me', { onRequest: app.authenticate }, async (request) => ({ sub: request.identity.userId }));
  await app.ready();
  apps.push(app);
  return app;
}
const call = (app: ServiceApp, token: string) => app.inject({ url: '/api/demo/me', headers: { authorization: `Bearer ${token}` } });

/** A token that looks like the realm's own but names a key the realm never had (signed here). */
const forger = generateKeyPairSync('rsa', { modulusLength: 2048 });
function forged(): string {
  const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const body = `${b64({ alg: 'RS256', typ: 'JWT', kid: randomUUID() })}.${b64({ iss: env.OIDC_ISSUER, aud: 'tuber-api', sub: 'x', exp: now + 300 })}`;
  return `${body}.${sign('RSA-SHA256', Buffer.from(body), forger.privateKey).toString('base64url')}`;
}

beforeAll(async () => {
  buyer = await signedInAccount({ role: 'buyer' });
});
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  if (buyer) await deleteAccount(buyer.id);
});

describe('realm keys from the running Keycloak', () => {
  it('are fetched once at start; real tokens then need no fetch, and 300 forged ones at most one', async () => {
    const app = await appAt(env.KEYCLOAK_URL!);
    expect(app.realmKeys.fetches).toBe(1);
    for (let i = 0; i < 20; i++) expect((await call(app, buyer.accessToken)).statusCode).toBe(200);
    expect(app.realmKeys.fetches).toBe(1);
    const answers = await Promise.all(Array.from({ length: 300 }, () => call(app, forged())));
    expect(new Set(answers.map((a) => a.statusCode))).toEqual(new Set([401]));
    expect(app.realmKeys.fetches).toBeLessThanOrEqual(2);
    expect((await call(app, buyer.accessToken)).json()).toEqual({ sub: buyer.id });
  });

  it('out of reach: 503 with a message saying to try again, not 401', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const app = await appAt(`http://127.0.0.1:${port}/auth`);
    const answer = await call(app, buyer.accessToken);
    expect(answer.statusCode).toBe(503);
    expect(answer.json().message).toBe(
      'Sign-in cannot be checked right now because the sign-in service does not answer. Please try again in a minute.',
    );
  });
});
