// Keycloak hardened for the internet (issue 9, docs/adr/0018): administration on the internal
// address only with a named admin, exact redirect URIs, rotating refresh tokens, no offline tokens
// for the SPA, no password grant anywhere, the password policy with its blocklist, "Remember me"
// for 30 days, forwarded addresses believed only from the gateway, and the events the auth
// service reads. Everything is checked against the running Keycloak, mostly through the gateway.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { randomUUID } from 'node:crypto';
import { PUBLIC_URL } from '../support/env.js';
import { claimsOf, signInWithPassword, SignInRefused } from '../support/keycloak.js';
import { createAccount, deleteAccount } from '../support/accounts.js';

const state = process.env.TUBER_STATE ?? '.run';
const secret = (name: string) => readFileSync(`${state}/secrets/${name}`, 'utf8').trim();
const internal = `http://127.0.0.1:${process.env.KEYCLOAK_PORT ?? 8180}/auth`;
const oidc = `${PUBLIC_URL}/auth/realms/tuber/protocol/openid-connect`;
const realmFile = JSON.parse(readFileSync('infra/keycloak/tuber-realm.json', 'utf8'));
const DAY = 24 * 3600;

async function clientCredentials(realm: string, clientId: string, clientSecret: string) {
  const response = await fetch(`${internal}/realms/${realm}/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });
  return { status: response.status, body: (await response.json()) as { access_token?: string; error?: string } };
}

async function opsToken() {
  const { status, body } = await clientCredentials('master', 'tuber-ops', secret('keycloak-ops-client-secret'));
  expect(status).toBe(200);
  return body.access_token!;
}

async function authServiceToken() {
  const { body } = await clientCredentials('tuber', 'tuber-auth', secret('keycloak-auth-client-secret'));
  return body.access_token!;
}

async function adminGet<T = any>(path: string, token: string): Promise<T> {
  const response = await fetch(`${internal}/admin/realms${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status, `GET ${path}`).toBe(200);
  return (await response.json()) as T;
}

async function refresh(refreshToken: string) {
  const response = await fetch(`${oidc}/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'refresh_token', client_id: 'tuber-web', refresh_token: refreshToken }),
  });
  return {
    status: response.status,
    body: (await response.json()) as { refresh_token?: string; error?: string; error_description?: string },
  };
}

describe('Keycloak administration is internal only, by a named admin', () => {
  it('serves the admin console with the internal address as its server (hostname-admin)', async () => {
    const page = await fetch(`${internal}/admin/master/console/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`"authServerUrl": "${internal}"`);
    expect(html).not.toContain(PUBLIC_URL);
  });

  it('puts the master realm (its login pages and issuer) on the internal address, never the public one', async () => {
    const discovery = await (await fetch(`${internal}/realms/master/.well-known/openid-configuration`)).json();
    expect(discovery.issuer).toBe(`${internal}/realms/master`);
    expect(discovery.authorization_endpoint.startsWith(internal)).toBe(true);
  });

  it('has the named admin client sign in and the bootstrap admins gone', async () => {
    const token = await opsToken();
    const users: { username: string; attributes?: Record<string, string[]> }[] = await adminGet(
      '/master/users?briefRepresentation=false',
      token,
    );
    expect(users.map((user) => user.username)).toContain('tuber-admin');
    expect(users.map((user) => user.username)).not.toContain('admin');
    expect(users.filter((user) => user.attributes?.is_temporary_admin?.includes('true'))).toEqual([]);
    const clients: { clientId: string; attributes?: Record<string, string> }[] = await adminGet('/master/clients', token);
    const ids = clients.map((client) => client.clientId);
    expect(ids).toContain('tuber-ops');
    expect(ids).not.toContain('tuber-bootstrap');
    expect(ids).not.toContain('tuber-local-admin');
    expect(clients.filter((client) => client.attributes?.is_temporary_admin === 'true')).toEqual([]);
    expect((await clientCredentials('master', 'tuber-ops', 'not-the-secret')).status).toBe(401);
  });

  it('detects brute force in master too', async () => {
    const master = await adminGet('/master', await opsToken());
    expect(master).toMatchObject({ bruteForceProtected: true });
    expect(master.failureFactor).toBeLessThanOrEqual(10);
  });
});

describe('Realm tuber: clients', () => {
  it('knows exactly one sign-in callback (and the silent check page), no wildcard, no other host', () => {
    const web = realmFile.clients.find((client: { clientId: string }) => client.clientId === 'tuber-web');
    expect(web.redirectUris.sort()).toEqual(['${TUBER_PUBLIC_URL}/login/callback', '${TUBER_PUBLIC_URL}/silent-check-sso.html']);
    expect(JSON.stringify(realmFile)).not.toMatch(/localhost|127\.0\.0\.1:\d|\/\*"/);
  });

  it('refuses a sign-in that would come back anywhere but the callback', async () => {
    for (const redirect of [
      `${PUBLIC_URL}/dashboard/buyer`,
      `${PUBLIC_URL}/login/callback/x`,
      'https://evil.example/login/callback',
      `${PUBLIC_URL}/`,
    ]) {
      const authorize = new URL(`${oidc}/auth`);
      authorize.search = new URLSearchParams({
        client_id: 'tuber-web',
        response_type: 'code',
        scope: 'openid',
        redirect_uri: redirect,
        code_challenge: 'x'.repeat(43),
        code_challenge_method: 'S256',
      }).toString();
      const answer = await fetch(authorize, { redirect: 'manual' });
      expect(answer.status, redirect).toBe(400);
      expect(await answer.text()).toContain('redirect_uri');
    }
  });

  it('lets the moderation service in by client credentials alone, to manage users, with the moderator role in the realm', async () => {
    const { status, body } = await clientCredentials('tuber', 'tuber-moderation', secret('keycloak-moderation-client-secret'));
    expect(status).toBe(200);
    const users = await fetch(`${internal}/admin/realms/tuber/users?max=1`, { headers: { authorization: `Bearer ${body.access_token}` } });
    expect(users.status).toBe(200);
    expect((await clientCredentials('tuber', 'tuber-moderation', 'not-the-secret')).status).toBe(401);
    const clients: { clientId: string; publicClient?: boolean; standardFlowEnabled?: boolean; implicitFlowEnabled?: boolean }[] =
      await adminGet('/tuber/clients?clientId=tuber-moderation', await opsToken());
    expect(clients).toMatchObject([
      { clientId: 'tuber-moderation', publicClient: false, standardFlowEnabled: false, implicitFlowEnabled: false },
    ]);
    const moderator = await adminGet<{ name: string; description: string }>('/tuber/roles/moderator', await opsToken());
    expect(moderator.description).toMatch(/moderation desk/);
  });

  it('turns the password grant off on every client of the realm, admin-cli included', async () => {
    const clients: { clientId: string; directAccessGrantsEnabled?: boolean }[] = await adminGet('/tuber/clients', await opsToken());
    expect(clients.map((client) => client.clientId)).toContain('admin-cli');
    expect(clients.filter((client) => client.directAccessGrantsEnabled)).toEqual([]);
    for (const clientId of ['admin-cli', 'tuber-web']) {
      const answer = await fetch(`${oidc}/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'password',
          client_id: clientId,
          username: 'test.farmer@tuber.local',
          password: secret('keycloak-test-user-password'),
        }),
      });
      expect(answer.status, clientId).toBeGreaterThanOrEqual(400);
      expect(((await answer.json()) as { access_token?: string }).access_token).toBeUndefined();
    }
  });

  it('gives the SPA no offline token, even when asked for one', async () => {
    const token = await opsToken();
    const defaults: { name: string }[] = await adminGet('/tuber/roles/default-roles-tuber/composites/realm', token);
    expect(defaults.map((role) => role.name)).not.toContain('offline_access');
    const web = realmFile.clients.find((client: { clientId: string }) => client.clientId === 'tuber-web');
    expect(web.optionalClientScopes ?? []).not.toContain('offline_access');

    const authorize = new URL(`${oidc}/auth`);
    authorize.search = new URLSearchParams({
      client_id: 'tuber-web',
      response_type: 'code',
      scope: 'openid offline_access',
      redirect_uri: `${PUBLIC_URL}/login/callback`,
      code_challenge: 'z'.repeat(43),
      code_challenge_method: 'S256',
      state: 'st',
    }).toString();
    const answer = await fetch(authorize, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    expect(new URL(answer.headers.get('location')!).searchParams.get('error')).toBe('invalid_scope');
  });

  it('keeps the test account out of what ops import; the test overlay holds it', () => {
    expect(realmFile.users.map((user: { username: string }) => user.username)).toEqual([
      'service-account-tuber-auth',
      'service-account-tuber-moderation',
    ]);
    expect(JSON.stringify(realmFile)).not.toContain('TUBER_TEST_USER_PASSWORD');
    const overlay = JSON.parse(readFileSync('infra/keycloak/test-overlay.json', 'utf8'));
    expect(overlay.users.map((user: { username: string }) => user.username)).toEqual(['test.farmer@tuber.local']);
  });
});

describe('Realm tuber: sessions and refresh tokens', () => {
  let account: Awaited<ReturnType<typeof createAccount>>;
  beforeAll(async () => {
    account = await createAccount({ role: 'farmer' });
  });
  afterAll(async () => {
    await deleteAccount(account.id);
  });

  it('rotates refresh tokens: each is good once, and a replay ends the session', async () => {
    const first = await signInWithPassword(account.email, account.password);
    const rotated = await refresh(first.refreshToken);
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).toBeTruthy();
    expect(rotated.body.refresh_token).not.toBe(first.refreshToken);

    const replay = await refresh(first.refreshToken);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    // A stolen token replayed also kills the rotated one the real client holds.
    expect((await refresh(rotated.body.refresh_token!)).status).toBe(400);
  });

  it('keeps a remembered session 30 days and an ordinary one 30 minutes idle', async () => {
    const ordinary = claimsOf((await signInWithPassword(account.email, account.password)).refreshToken);
    expect(Math.abs(ordinary.exp - ordinary.iat - 1800)).toBeLessThanOrEqual(5);
    const remembered = claimsOf((await signInWithPassword(account.email, account.password, { rememberMe: true })).refreshToken);
    expect(Math.abs(remembered.exp - remembered.iat - 30 * DAY)).toBeLessThanOrEqual(5);
  });
});

describe('Realm tuber: passwords', () => {
  const created: string[] = [];
  afterAll(async () => {
    for (const id of created) await deleteAccount(id);
  });

  async function setPassword(password: string) {
    const token = await authServiceToken();
    const email = `pw-${randomUUID().slice(0, 8)}@test.tuber.local`;
    const response = await fetch(`${internal}/admin/realms/tuber/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        username: email,
        email,
        firstName: 'Pass',
        lastName: 'Word',
        enabled: true,
        credentials: [{ type: 'password', value: password, temporary: false }],
      }),
    });
    const id = response.headers.get('location')?.split('/').pop();
    if (id) created.push(id);
    return { status: response.status, text: await response.text() };
  }

  it('refuses fewer than 8 characters', async () => {
    const short = await setPassword('Yam-4ab');
    expect(short.status).toBe(400);
    expect(short.text).toMatch(/length/i);
    expect((await setPassword('Yam-4abc')).status).toBe(201);
  });

  it('refuses common passwords from the bundled blocklist, whatever their case', async () => {
    for (const common of ['password1', 'Password1', 'iloveyou2', 'qwertyuiop']) {
      const answer = await setPassword(common);
      expect(answer.status, common).toBe(400);
      expect(answer.text, common).toMatch(/blacklist|blocklist|common/i);
    }
  });

  it('refuses the e-mail address as password', async () => {
    const email = `same-${randomUUID().slice(0, 8)}@test.tuber.local`;
    const response = await fetch(`${internal}/admin/realms/tuber/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await authServiceToken()}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        username: email,
        email,
        firstName: 'Same',
        lastName: 'Word',
        enabled: true,
        credentials: [{ type: 'password', value: email, temporary: false }],
      }),
    });
    expect(response.status).toBe(400);
  });
});

/** A POST straight to Keycloak from a chosen loopback source address (not through the gateway). */
function postFrom(localAddress: string, url: string, body: string, headers: Record<string, string>) {
  return new Promise<number>((resolve, reject) => {
    const target = new URL(url);
    const req = request(
      {
        host: '127.0.0.1',
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: 'POST',
        localAddress,
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function failedLoginFrom(localAddress: string, forwardedFor: string, email: string) {
  const authorize = new URL(`${internal}/realms/tuber/protocol/openid-connect/auth`);
  authorize.search = new URLSearchParams({
    client_id: 'tuber-web',
    response_type: 'code',
    scope: 'openid',
    redirect_uri: `${PUBLIC_URL}/login/callback`,
    code_challenge: 'y'.repeat(43),
    code_challenge_method: 'S256',
  }).toString();
  const page = await fetch(authorize, { redirect: 'manual' });
  const cookies = page.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
  const action = /<form[^>]*id="kc-form-login"[^>]*action="([^"]+)"/.exec(await page.text())?.[1]?.replaceAll('&amp;', '&');
  expect(action).toBeTruthy();
  const direct = new URL(action!);
  const url = `${internal}${direct.pathname.replace(/^\/auth/, '')}${direct.search}`;
  const body = new URLSearchParams({ username: email, password: 'not-the-password', credentialId: '' }).toString();
  return postFrom(localAddress, url, body, {
    'content-type': 'application/x-www-form-urlencoded',
    cookie: cookies,
    'x-forwarded-for': forwardedFor,
  });
}

describe('Realm tuber: events and client addresses', () => {
  it('believes X-Forwarded-For only from the gateway address (proxy-trusted-addresses)', async () => {
    const account = await createAccount({ role: 'buyer' });
    try {
      // Loopback values: an address outside the private ranges would also meet sslRequired=external.
      await failedLoginFrom('127.0.0.2', '127.0.0.7', account.email);
      await failedLoginFrom('127.0.0.1', '127.0.0.9', account.email);
      const events: { type: string; ipAddress: string }[] = await adminGet(
        `/tuber/events?type=LOGIN_ERROR&user=${account.id}&max=10`,
        await authServiceToken(),
      );
      const addresses = events.map((event) => event.ipAddress);
      expect(addresses).toContain('127.0.0.2'); // the header from elsewhere was ignored
      expect(addresses).not.toContain('127.0.0.7');
      expect(addresses).toContain('127.0.0.9'); // the gateway's header is believed
    } finally {
      await deleteAccount(account.id);
    }
  });

  it('records the user events the auth service follows and admin events with their representation', async () => {
    const realm = await adminGet('/tuber', await opsToken());
    expect(realm).toMatchObject({ eventsEnabled: true, adminEventsEnabled: true, adminEventsDetailsEnabled: true });
    expect(realm.enabledEventTypes).toEqual(expect.arrayContaining(['DELETE_ACCOUNT', 'UPDATE_EMAIL', 'VERIFY_EMAIL', 'UPDATE_PROFILE']));
    expect(realm.eventsExpiration).toBeGreaterThanOrEqual(DAY);

    const account = await createAccount({ role: 'buyer' });
    await deleteAccount(account.id);
    // The auth service's own account (view-events) reads them.
    const adminEvents: { operationType: string; resourcePath: string; representation?: string }[] = await adminGet(
      `/tuber/admin-events?resourceTypes=USER&max=50`,
      await authServiceToken(),
    );
    // (Keycloak writes a user made through the admin API as users//<id>.)
    const mine = adminEvents.filter((event) => event.resourcePath.replace('//', '/') === `users/${account.id}`);
    expect(mine.map((event) => event.operationType)).toEqual(expect.arrayContaining(['CREATE', 'DELETE']));
    expect(JSON.parse(mine.find((event) => event.operationType === 'CREATE')!.representation!)).toMatchObject({ email: account.email });
  });
});

describe('Keycloak reads this checkout, not the shared cache', () => {
  it('runs with the repository theme folder and the state blocklist, importing nothing from the cache', () => {
    const pid = readFileSync(`${state}/pids/keycloak.pid`, 'utf8').trim();
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    expect(args).toContain(`--spi-theme-folder-dir=${process.cwd()}/infra/keycloak/themes`);
    expect(args.find((arg) => arg.startsWith('--spi-password-policy-password-blacklist-blacklists-path='))).toContain(
      state.replace(/^\.\//, ''),
    );
    expect(args).not.toContain('--import-realm');
    expect(args).toContain('--proxy-trusted-addresses=127.0.0.1');
  });

  it('still refuses a wrong password for the seeded test account', async () => {
    await expect(signInWithPassword('test.farmer@tuber.local', 'not-the-password')).rejects.toBeInstanceOf(SignInRefused);
  });
});
