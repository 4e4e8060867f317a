// Tokens an attacker can make or steal, against a protected route of every service, through the
// gateway: each must get 401. Claims (audience, issuer, expiry) are checked with tokens signed by a
// key the realm really publishes: the suite imports a signing key of its own into realm tuber for
// the duration of the file (passive: Keycloak never signs with it), proves a correct token signed
// with it is accepted, and then changes one claim at a time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { disposeCast, makeActor, type Actor } from './support/actors.js';
import { decode, flipSignatureByte, hs256, newRsaKey, publicKeyForms, rs256, unsigned, withClaim, type Claims } from './support/jwt.js';
import { fill, operations } from './support/openapi.js';
import { ROUTE_RULES } from './support/routes.js';
import { call, isErrorShape, KEYCLOAK_DIRECT, PUBLIC_URL, realmAdmin, sleep } from './support/stack.js';
import { denialChecked } from './support/tally.js';

const ops = await operations();
/** One protected route per service (a GET, with made-up ids: a valid token gets 200 or 404). */
/** Routes any signed-in user may call (so a valid buyer token gets 200 or 404, never 401/403). */
const signedIn = ops.filter((op) => op.secured && ROUTE_RULES[op.key]?.access === 'signed-in');
const protectedRoutes = [...new Set(signedIn.map((op) => op.service))].map((service) => {
  const candidates = signedIn.filter((op) => op.service === service);
  const op =
    candidates.find((o) => o.method === 'GET' && o.pathParams.length === 0) ?? candidates.find((o) => o.method === 'GET') ?? candidates[0]!;
  const path = fill(op.path, Object.fromEntries(op.pathParams.map((p) => [p, randomUUID()])));
  return { service, method: op.method, path };
});

const realm = `${PUBLIC_URL}/auth/realms/tuber`;
let buyer: Actor;
let real: { accessToken: string; refreshToken: string; idToken: string };
let realmKey: Record<string, any>;

async function expect401(token: string | undefined, what: string, headers: Record<string, string> = {}) {
  for (const route of protectedRoutes) {
    const answer = await call(route.method, route.path, {
      headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...headers },
      json: route.method === 'GET' ? undefined : {},
    });
    expect(answer.status, `${what} on ${route.method} ${route.path}: ${answer.text.slice(0, 200)}`).toBe(401);
    expect(isErrorShape(answer.body, 401), `${what} on ${route.path}: error shape`).toBe(true);
    denialChecked();
  }
}

async function expectAccepted(token: string, what: string) {
  for (const route of protectedRoutes) {
    const answer = await call(route.method, route.path, { token, json: route.method === 'GET' ? undefined : {} });
    expect([401, 403], `${what} must be accepted by ${route.path}: ${answer.text.slice(0, 200)}`).not.toContain(answer.status);
  }
}

beforeAll(async () => {
  buyer = await makeActor('buyer', { role: 'buyer' });
  real = await buyer.signIn();
  const jwks = (await (await fetch(`${realm}/protocol/openid-connect/certs`)).json()) as { keys: Record<string, any>[] };
  realmKey = jwks.keys.find((k) => k.kid === decode(real.accessToken).header.kid)!;
  expect(realmKey, 'the realm publishes the key its access tokens name').toBeDefined();
}, 120_000);

afterAll(async () => {
  await disposeCast({ buyer });
});

describe('tokens that must be refused (401) by every service', () => {
  it('the real access token is accepted (the control for everything below)', async () => {
    await expectAccepted(real.accessToken, 'the real access token');
  });

  it('no token at all', async () => {
    await expect401(undefined, 'no token');
  });

  it('alg "none" with an empty signature, in every spelling', async () => {
    const { header, claims } = decode(real.accessToken);
    for (const alg of ['none', 'None', 'NONE', 'nOnE']) {
      const token = unsigned(header, claims).replace(/^[^.]+/, Buffer.from(JSON.stringify({ ...header, alg })).toString('base64url'));
      await expect401(token, `alg ${alg}`);
    }
    await expect401(
      `${unsigned(header, claims)}${decode(real.accessToken).signature.toString('base64url')}`,
      'alg none with the real signature',
    );
  });

  it("HS256 keyed with the realm's public key (every common encoding of it)", async () => {
    const { header, claims } = decode(real.accessToken);
    for (const form of publicKeyForms(realmKey)) {
      await expect401(hs256(header, claims, form.key), `HS256 with the public key as ${form.label}`);
    }
  });

  it('one byte changed in the signature, or in the claims', async () => {
    await expect401(flipSignatureByte(real.accessToken, 0), 'first signature byte flipped');
    await expect401(flipSignatureByte(real.accessToken, 100), 'a middle signature byte flipped');
    await expect401(withClaim(real.accessToken, 'realm_access', { roles: ['buyer', 'farmer', 'admin'] }), 'roles raised, signature kept');
    await expect401(withClaim(real.accessToken, 'sub', randomUUID()), 'another subject, signature kept');
  });

  it('signed by a key the realm does not publish: unknown kid, and the real kid', async () => {
    const { header, claims } = decode(real.accessToken);
    const ours = newRsaKey();
    await expect401(rs256({ ...header, kid: randomUUID() }, claims, ours.privateKey), 'unknown kid');
    await expect401(rs256({ ...header, kid: `../../${randomUUID()}` }, claims, ours.privateKey), 'a kid shaped like a path');
    await expect401(rs256(header, claims, ours.privateKey), "the realm's kid, signed by another key");
    await expect401(
      rs256({ ...header, kid: randomUUID(), jku: 'http://127.0.0.1:1/jwks', x5u: 'http://127.0.0.1:1/cert' }, claims, ours.privateKey),
      'a jku/x5u header',
    );
    await expect401(rs256({ ...header, jwk: ours.publicKey.export({ format: 'jwk' }) }, claims, ours.privateKey), 'an embedded jwk header');
  });

  it('many unknown kids in a row are refused quickly (no key fetch per request)', async () => {
    const { header, claims } = decode(real.accessToken);
    const ours = newRsaKey();
    const route = protectedRoutes[0]!; // the auth service's only signed-in route is a PUT (issue 13)
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        call(route.method, route.path, {
          token: rs256({ ...header, kid: randomUUID() }, claims, ours.privateKey),
          json: route.method === 'GET' ? undefined : {},
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 401));
    denialChecked(answers.length);
    expect(Date.now() - started, '20 unknown kids').toBeLessThan(10_000);
  });

  it('the ID token and the refresh token are not access tokens', async () => {
    await expect401(real.idToken, 'the ID token');
    await expect401(real.refreshToken, 'the refresh token');
  });

  it("another client's token from the same realm (wrong audience): the auth service's service account", async () => {
    const answer = await fetch(`${KEYCLOAK_DIRECT}/realms/tuber/protocol/openid-connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: 'tuber-auth',
        client_secret: process.env.KEYCLOAK_AUTH_CLIENT_SECRET ?? '',
      }),
    });
    const { access_token: token } = (await answer.json()) as { access_token?: string };
    expect(token, 'the auth client signs in with its secret (KEYCLOAK_AUTH_CLIENT_SECRET)').toBeTruthy();
    expect([decode(token!).claims.aud].flat()).not.toContain('tuber-api');
    await expect401(token!, 'the tuber-auth service account token');
  });

  it('a token in the wrong header or scheme is not read', async () => {
    await expect401(undefined, 'token in X-Access-Token', { 'x-access-token': real.accessToken });
    await expect401(undefined, 'scheme Token', { authorization: `Token ${real.accessToken}` });
  });
});

describe('claims, with tokens signed by a key the realm publishes', () => {
  let componentId: string | undefined;
  let kid: string;
  const key = newRsaKey();
  let base: Claims;
  let header: Record<string, unknown>;

  beforeAll(async () => {
    const realmInfo = await realmAdmin<{ id: string }>('GET', '');
    expect(realmInfo.status, 'Keycloak admin API on loopback (master admin credentials from .run/secrets)').toBe(200);
    const created = await realmAdmin('POST', '/components', {
      name: `security-suite-${randomUUID().slice(0, 8)}`,
      providerId: 'rsa',
      providerType: 'org.keycloak.keys.KeyProvider',
      parentId: realmInfo.body.id,
      config: { priority: ['0'], enabled: ['true'], active: ['false'], algorithm: ['RS256'], privateKey: [key.privatePem] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    componentId = created.headers.get('location')?.split('/').pop();
    const n = (key.publicKey.export({ format: 'jwk' }) as { n: string }).n;
    const jwks = (await (await fetch(`${realm}/protocol/openid-connect/certs`)).json()) as { keys: { kid: string; n?: string }[] };
    kid = jwks.keys.find((k) => k.n === n)?.kid ?? '';
    expect(kid, 'the imported key is published in the realm JWKS').not.toBe('');
    ({ header } = decode(real.accessToken));
    header = { ...header, kid };
    base = decode((await buyer.signIn()).accessToken).claims;
    // Services cache the key set; a kid they do not know yet is fetched again (at most every 30 s).
    const deadline = Date.now() + 75_000;
    for (const route of protectedRoutes) {
      for (;;) {
        const fresh = { ...base, iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 240 };
        const answer = await call(route.method, route.path, { token: rs256(header, fresh, key.privateKey) });
        if (answer.status !== 401 || Date.now() > deadline) break;
        await sleep(2_000);
      }
    }
  }, 150_000);

  afterAll(async () => {
    if (componentId) await realmAdmin('DELETE', `/components/${componentId}`);
  });

  const now = () => Math.floor(Date.now() / 1000);
  const signed = (changes: Claims) => rs256(header, { ...base, iat: now(), exp: now() + 240, ...changes }, key.privateKey);
  const without = (name: string) => {
    const claims: Claims = { ...base, iat: now(), exp: now() + 240 };
    delete claims[name];
    return rs256(header, claims, key.privateKey);
  };

  it('control: a correct token signed with the imported key is accepted by every service', async () => {
    await expectAccepted(signed({}), 'a correct token signed by the imported realm key');
  });

  it('wrong audience, or none', async () => {
    await expect401(signed({ aud: 'account' }), 'aud account');
    await expect401(signed({ aud: ['tuber-web'] }), 'aud tuber-web');
    await expect401(signed({ aud: 'tuber-api-evil' }), 'aud with a suffix');
    await expect401(without('aud'), 'no aud');
  });

  it('wrong issuer, or none', async () => {
    await expect401(signed({ iss: `${PUBLIC_URL}/auth/realms/master` }), 'iss master realm');
    await expect401(signed({ iss: 'http://evil.invalid/auth/realms/tuber' }), 'iss another host');
    await expect401(signed({ iss: `${realm}/` }), 'iss with a trailing slash');
    await expect401(without('iss'), 'no iss');
  });

  it('expired, not yet valid, or without expiry', async () => {
    await expect401(signed({ iat: now() - 900, exp: now() - 120 }), 'expired two minutes ago');
    await expect401(signed({ nbf: now() + 600 }), 'not valid for ten minutes');
    await expect401(without('exp'), 'no exp');
  });

  it('no subject', async () => {
    await expect401(without('sub'), 'no sub');
  });
});

/** Keycloak's token endpoint through the gateway, waiting out the gateway's rate limit. */
async function tokenEndpoint(form: Record<string, string>): Promise<{ status: number; body: Record<string, any> }> {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(`${realm}/protocol/openid-connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form),
    });
    if (response.status === 429 && attempt < 20) {
      await sleep(2_000);
      continue;
    }
    return { status: response.status, body: (await response.json().catch(() => ({}))) as Record<string, any> };
  }
}

describe('refresh tokens', () => {
  it('a refresh token used twice is refused the second time', async () => {
    const tokens = await buyer.signIn();
    const refresh = () => tokenEndpoint({ grant_type: 'refresh_token', client_id: 'tuber-web', refresh_token: tokens.refreshToken });
    const first = await refresh();
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.refresh_token, 'a new refresh token each time (rotation)').not.toBe(tokens.refreshToken);
    const second = await refresh();
    expect(second.status, JSON.stringify(second.body)).toBe(400);
    expect(second.body.error).toBe('invalid_grant');
    denialChecked();
  });

  it('no client of the realm takes the password grant (direct access grants are off), admin-cli included', async () => {
    for (const clientId of ['tuber-web', 'admin-cli', 'account', 'account-console']) {
      const answer = await tokenEndpoint({ grant_type: 'password', client_id: clientId, username: buyer.email, password: buyer.password });
      expect(answer.body.access_token, `password grant through client ${clientId}`).toBeUndefined();
      expect([400, 401], `client ${clientId}: ${JSON.stringify(answer.body)}`).toContain(answer.status);
      denialChecked();
    }
  });
});
