// Keycloak going away (issue 10, R5), against the running Keycloak behind a relay the test can cut:
// a service starts without it and says it is not ready (instead of refusing to start), becomes ready
// by itself when Keycloak answers, and from then on checks tokens from the keys it holds, so
// signed-in users keep working through a later outage; /ready stays 200 meanwhile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, useAuth, type ServiceApp } from '../../src/index.js';
import { keysUnavailable } from '../../src/plugins/realm-keys.js';
import { serviceEnv } from '../../../../test/support/env.js';
import { deleteAccount, signedInAccount, type TestAccount } from '../../../../test/support/accounts.js';
import { tcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

const env = serviceEnv('catalog');
let relay: TcpProxy;
let app: ServiceApp;
let buyer: TestAccount;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const call = () => app.inject({ url: '/api/demo/me', headers: { authorization: `Bearer ${buyer.accessToken}` } });
async function ready() {
  const answer = await app.inject('/ready');
  return {
    status: answer.statusCode,
    body: answer.json() as { message?: string; checks: Record<string, { ok: boolean; error?: string }> },
  };
}

beforeAll(async () => {
  buyer = await signedInAccount({ role: 'buyer' });
  const keycloak = new URL(env.KEYCLOAK_URL!);
  relay = await tcpProxy(keycloak.hostname, Number(keycloak.port));
  await relay.cut();
});
afterAll(async () => {
  await app?.close();
  await relay?.close().catch(() => undefined);
  if (buyer) await deleteAccount(buyer.id);
});

describe('a service and a Keycloak that goes away', () => {
  it('starts while Keycloak is down and reports not ready (keycloak named); token checks answer 503, not 401 or 500', async () => {
    app = await createServiceApp({ name: 'demo', logLevel: 'silent' });
    await useAuth(app, {
      KEYCLOAK_URL: `http://127.0.0.1:${relay.port}/auth`,
      KEYCLOAK_REALM: 'tuber',
      OIDC_ISSUER: env.OIDC_ISSUER!,
      OIDC_AUDIENCE: 'tuber-api',
    });
    app.get('/api/demo/me', { onRequest: app.authenticate }, async (request) => ({ sub: request.identity.userId }));
    await app.ready();

    const notReady = await ready();
    expect(notReady.status).toBe(503);
    expect(notReady.body.checks.keycloak?.ok).toBe(false);
    expect(notReady.body.message).toContain('keycloak');
    const refused = await call();
    expect(refused.statusCode).toBe(503);
    expect(refused.json().message).toBe(keysUnavailable().message);
  });

  it('becomes ready by itself when Keycloak answers again, without a restart or a request', async () => {
    await relay.restore();
    const started = Date.now();
    // The service keeps trying in the background (at most once per 5 s): no token needs to arrive first.
    while (!app.realmKeys.loaded && Date.now() - started < 15_000) await sleep(200);
    expect(app.realmKeys.loaded).toBe(true);
    expect((await ready()).status).toBe(200);
    const answer = await call();
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ sub: buyer.id });
  });

  it('keeps signed-in users working and stays ready while Keycloak is down again', async () => {
    const fetchesBefore = app.realmKeys.fetches;
    await relay.cut();
    try {
      for (let i = 0; i < 10; i++) expect((await call()).statusCode).toBe(200);
      const during = await ready();
      expect(during.status).toBe(200);
      expect(during.body.checks.keycloak?.ok).toBe(true);
      // Known keys are answered from memory: Keycloak's absence is not even noticed.
      expect(app.realmKeys.fetches).toBe(fetchesBefore);
    } finally {
      await relay.restore();
    }
    expect((await call()).statusCode).toBe(200);
  });
});
