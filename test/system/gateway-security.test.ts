// The gateway as an attacker meets it (issue 9, ADR 0019): Keycloak's administration and every internal
// server are unreachable, every answer carries the security headers, /files/ serves inert bytes, an
// upload is refused before its body is read, client addresses cannot be forged, bursts get 429, and the
// production builds ship no source maps and no standalone pages.
// Requests go out over node:http so that each can come from a loopback address of its own (the whole of
// 127.0.0.0/8 reaches the gateway): a burst from one "client" does not starve the other tests.
import KcAdminClient from '@keycloak/keycloak-admin-client';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, deleteAccount, signedInAccount, type TestAccount } from '../support/accounts.js';
import { api, imageForm, photo } from '../support/api.js';
import { PUBLIC_URL } from '../support/env.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const gateway = new URL(PUBLIC_URL);
// The gateway listens on IPv4 loopback; "localhost" may resolve to ::1 first.
const gatewayHost = gateway.hostname === 'localhost' ? '127.0.0.1' : gateway.hostname;
const gatewayPort = Number(gateway.port || 80);

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A loopback address no other test (or earlier run within the limits' window) has used. */
const freshClient = () =>
  `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 250)}`;

/** One request to the gateway, the path sent exactly as written, optionally from a given local address. */
function send(
  method: string,
  target: string,
  options: { from?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: gatewayHost,
        port: gatewayPort,
        method,
        path: target,
        localAddress: options.from,
        headers: {
          host: gateway.host,
          ...(options.body !== undefined ? { 'content-length': String(Buffer.byteLength(options.body)) } : {}),
          ...options.headers,
        },
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    request.setTimeout(30_000, () => request.destroy(new Error(`${method} ${target}: no answer in 30 s`)));
    request.on('error', reject);
    request.end(options.body);
  });
}

/** The directives of a Content-Security-Policy header, by name. */
function directives(policy: string | undefined): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (policy ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name.toLowerCase(), values);
  }
  return map;
}

const isShellPage = (answer: Answer) =>
  answer.status === 200 && String(answer.headers['content-type']).startsWith('text/html') && /<div id="?root"?>/.test(answer.body);

const isJsonError = (answer: Answer, status: number) => {
  expect(answer.status, answer.body).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/(problem\+)?json/);
  const body = JSON.parse(answer.body);
  // Problem details (contracts/src/problems.ts) with version 1's three fields.
  expect(body).toMatchObject({
    status,
    code: expect.stringMatching(/^[A-Z][A-Z0-9_]*$/),
    detail: expect.any(String),
    statusCode: status,
    error: expect.any(String),
    message: expect.any(String),
  });
  return body as { statusCode: number; error: string; message: string; code: string };
};

/** Opens Keycloak's login page of the web client (code + PKCE) as a browser would, from `from`. */
async function openLoginPage(from: string) {
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    client_id: 'tuber-web',
    redirect_uri: `${PUBLIC_URL}/login/callback`,
    response_type: 'code',
    scope: 'openid',
    state: randomUUID(),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  const page = await send('GET', `/auth/realms/tuber/protocol/openid-connect/auth?${query}`, { from });
  const cookies = (page.headers['set-cookie'] ?? []).map((cookie) => cookie.split(';')[0]).join('; ');
  const action = /<form[^>]*action="([^"]+)"/.exec(page.body)?.[1]?.replaceAll('&amp;', '&');
  return { page, cookies, action };
}

const accounts: string[] = [];
afterAll(async () => {
  await Promise.all(accounts.map((id) => deleteAccount(id)));
});

describe("Keycloak's administration is not public", () => {
  it('answers 404 for the admin console and API, the master realm, the account console, the welcome page and the management paths', async () => {
    const refused = [
      ['GET', '/auth/'],
      ['GET', '/auth/admin/'],
      ['GET', '/auth/admin/master/console/'],
      ['GET', '/auth/admin/tuber/console/'],
      ['GET', '/auth/admin/realms/tuber/users'],
      ['GET', '/auth/admin/serverinfo'],
      ['GET', '/auth/realms/master/'],
      ['GET', '/auth/realms/master/protocol/openid-connect/auth?client_id=security-admin-console'],
      ['POST', '/auth/realms/master/protocol/openid-connect/token'],
      ['GET', '/auth/realms/master/account/'],
      ['GET', '/auth/realms/tuber/account/'],
      ['POST', '/auth/realms/tuber/clients-registrations/openid-connect'],
      ['GET', '/auth/realms/tuber/broker/'],
      ['GET', '/auth/resources/x/admin/keycloak.v2/'],
      ['GET', '/auth/health'],
      ['GET', '/auth/health/ready'],
      ['GET', '/auth/metrics'],
    ];
    for (const [method, target] of refused) {
      const answer = await send(method!, target!, method === 'POST' ? { body: 'grant_type=password&username=admin&password=admin' } : {});
      expect(answer.status, `${method} ${target}`).toBe(404);
    }
  });

  it('is not reached by path tricks: dot segments, ";" path parameters, encoded dots, slashes and backslashes, double slashes', async () => {
    for (const target of [
      '/auth/realms/tuber/protocol/openid-connect/../../../master/',
      '/auth/realms/tuber/protocol/openid-connect/..;/..;/..;/master/',
      '/auth/realms/tuber/%2e%2e/master/',
      '/auth/realms/tuber/protocol/openid-connect/%2e%2e%2f%2e%2e%2f%2e%2e%2fmaster/',
      '/auth/realms/tuber/protocol/openid-connect/..%5c..%5c..%5cmaster/',
      '/auth/resources/x/login/..;/..;/..;/admin/master/console/',
      '/auth//admin/master/console/',
      '/auth/realms/tuber;/../master/',
    ]) {
      const answer = await send('GET', target);
      expect(answer.status, target).toBe(404);
    }
  });

  it("serves what sign-in needs: the tuber realm's login page with its theme files, OIDC discovery and keys, the 3p-cookie check", async () => {
    const { page, action } = await openLoginPage(freshClient());
    expect(page.status, page.body.slice(0, 300)).toBe(200);
    expect(action).toMatch(/\/auth\/realms\/tuber\/login-actions\/authenticate/);
    const assets = [...page.body.matchAll(/(?:href|src)="(\/auth\/resources\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) expect((await send('GET', asset)).status, asset).toBe(200);
    for (const target of [
      '/auth/realms/tuber/.well-known/openid-configuration',
      '/auth/realms/tuber/protocol/openid-connect/certs',
      '/auth/realms/tuber/protocol/openid-connect/3p-cookies/step1.html',
    ]) {
      expect((await send('GET', target)).status, target).toBe(200);
    }
  });
});

describe('each service behind its own prefix', () => {
  it('/api/<service>/ reaches that service: its OpenAPI document names it and only its own paths', async () => {
    for (const service of ['auth', 'profile', 'catalog', 'media', 'nutrition', 'orders', 'moderation']) {
      const answer = await send('GET', `/api/${service}/openapi.json`);
      expect(answer.status, service).toBe(200);
      const doc = JSON.parse(answer.body) as { info?: { title?: string }; paths?: Record<string, unknown> };
      expect(doc.info?.title, service).toContain(service);
      for (const path of Object.keys(doc.paths ?? {})) expect(path, service).toMatch(new RegExp(`^/api/${service}/`));
    }
  });
});

describe('nothing internal answers through the gateway', () => {
  it("the services' /health and /ready are 404, at the root and under /api/<service>/", async () => {
    for (const target of ['/health', '/ready']) expect((await send('GET', target)).status, target).toBe(404);
    for (const service of ['auth', 'profile', 'catalog', 'media', 'nutrition', 'orders', 'moderation', 'nope']) {
      for (const probe of ['health', 'ready']) isJsonError(await send('GET', `/api/${service}/${probe}`), 404);
    }
  });

  it("MinIO and its console, NATS monitoring, Mailpit and Keycloak's management answer 404 or the shell's page, never themselves", async () => {
    const probes = [
      '/minio/health/live',
      '/minio/admin/v3/info',
      '/product-images/',
      '/files/',
      '/files/?list-type=2',
      '/files/a/b.jpg',
      '/api/v1/login', // MinIO console
      '/varz',
      '/connz',
      '/jsz',
      '/healthz', // NATS monitor
      '/api/v1/messages',
      '/api/v1/info',
      '/view/latest.html',
      '/api/events', // Mailpit
      '/auth/health/live',
      '/auth/metrics', // Keycloak management
    ];
    for (const target of probes) {
      const answer = await send('GET', target);
      expect(answer.status === 404 || isShellPage(answer), `${target}: ${answer.status} ${answer.body.slice(0, 200)}`).toBe(true);
      expect(answer.body, target).not.toMatch(/server_id|MinIO|Mailpit|"Messages"|"status":\s*"UP"|jetstream/i);
    }
  });
});

describe('security headers on every answer', () => {
  const everyKind = [
    '/', // the shell's page
    '/dashboard/buyer', // a deep link (SPA fallback)
    '/silent-check-sso.html',
    '/mf/buyer/mf-manifest.json',
    '/mf/landing/remoteEntry.js',
    '/api/auth/oidc', // a service's JSON
    '/api/nope', // the gateway's own JSON 404
    '/auth/admin/', // the gateway's 404 under /auth/
    '/auth/realms/tuber/.well-known/openid-configuration', // Keycloak's JSON
    '/files/not-there.jpg', // a missing photo
  ];

  it('nosniff, a referrer policy, frame options, exactly one CSP, no version in Server, no CORS for other origins', async () => {
    for (const target of everyKind) {
      const answer = await send('GET', target, { headers: { origin: 'https://attacker.example' } });
      const where = `${target} (${answer.status})`;
      expect(answer.headers['x-content-type-options'], where).toBe('nosniff');
      expect(answer.headers['referrer-policy'], where).toMatch(/^(strict-origin-when-cross-origin|no-referrer)$/);
      expect(answer.headers['x-frame-options'], where).toMatch(/^(DENY|SAMEORIGIN)$/);
      expect(answer.headers['content-security-policy'], where).toBeTypeOf('string'); // one header, not a list
      expect(answer.headers['content-security-policy'], where).toMatch(/frame-ancestors|sandbox/);
      expect(answer.headers.server ?? 'nginx', where).toBe('nginx');
      expect(answer.headers['access-control-allow-origin'], where).toBeUndefined();
      expect(answer.headers['access-control-allow-credentials'], where).toBeUndefined();
      expect(answer.headers['strict-transport-security'], `${where}: HSTS over plain http`).toBeUndefined();
    }
  });

  it('the app runs under a policy without inline or eval scripts, framed by nobody', async () => {
    for (const target of ['/', '/dashboard/farmer', '/mf/farmer/mf-manifest.json', '/mf/moderation/mf-manifest.json']) {
      const answer = await send('GET', target);
      const csp = directives(answer.headers['content-security-policy'] as string);
      expect(csp.get('script-src'), target).toEqual(["'self'"]);
      expect(csp.get('default-src'), target).toEqual(["'self'"]);
      expect(csp.get('object-src'), target).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors'), target).toEqual(["'none'"]);
      expect(csp.get('connect-src'), target).toEqual(["'self'"]);
      expect(csp.get('frame-src'), target).toEqual(["'self'"]); // keycloak-js's silent check-sso iframe
      expect(csp.get('base-uri'), target).toEqual(["'self'"]);
      expect(answer.headers['x-frame-options'], target).toBe('DENY');
    }
    // Every script of the shell's page is a file: the policy has no room for inline ones.
    const page = await send('GET', '/');
    const scripts = [...page.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [tag, attributes, content] of scripts) {
      expect(attributes, tag).toMatch(/\bsrc=/);
      expect(content!.trim(), tag).toBe('');
    }
  });

  it('the silent check-sso page may be framed by the app itself only and runs its one inline script, by hash', async () => {
    const answer = await send('GET', '/silent-check-sso.html');
    expect(answer.status).toBe(200);
    const csp = directives(answer.headers['content-security-policy'] as string);
    expect(csp.get('frame-ancestors')).toEqual(["'self'"]);
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(answer.headers['x-frame-options']).toBe('SAMEORIGIN');
    // The page as served (after the shell's production build) has one script, inline, and the policy allows
    // exactly the hash of its bytes: no 'self', no second hash (ADR 0019 addendum).
    const scripts = [...answer.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    const [, attributes, content] = scripts[0]!;
    expect(attributes!.trim()).toBe('');
    expect(content!.trim()).not.toBe('');
    expect(csp.get('script-src')).toEqual([`'sha256-${createHash('sha256').update(content!, 'utf8').digest('base64')}'`]);
  });

  it("Keycloak's login page keeps Keycloak's own policy (one header, not two)", async () => {
    const { page } = await openLoginPage(freshClient());
    expect(page.status).toBe(200);
    const policy = page.headers['content-security-policy'];
    expect(policy).toBeTypeOf('string');
    expect(directives(policy as string).get('frame-ancestors')).toEqual(["'self'"]);
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('HSTS is sent when the request arrived over TLS (a TLS proxy in front says so)', async () => {
    for (const target of ['/', '/api/auth/oidc', '/auth/realms/tuber/.well-known/openid-configuration']) {
      const answer = await send('GET', target, { headers: { 'x-forwarded-proto': 'https' } });
      expect(answer.headers['strict-transport-security'], target).toMatch(/^max-age=(\d+); includeSubDomains$/);
      expect(Number(/max-age=(\d+)/.exec(answer.headers['strict-transport-security'] as string)![1])).toBeGreaterThanOrEqual(31_536_000);
    }
  });
});

describe('photos and uploads', () => {
  let farmer: TestAccount;
  let buyer: TestAccount;
  let fileName: string;
  let original: Buffer;

  beforeAll(async () => {
    [farmer, buyer] = await Promise.all([
      signedInAccount({ role: 'farmer', businessName: 'Gate Farms' }),
      signedInAccount({ role: 'buyer' }),
    ]);
    accounts.push(farmer.id, buyer.id);
    await api('POST', '/api/profile/me', { token: farmer.accessToken });
    const uploaded = await api('POST', '/api/media/images', {
      token: farmer.accessToken,
      form: imageForm(await photo(640, 480), 'gate.jpg'),
    });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    fileName = new URL(uploaded.body.url as string).pathname.replace(/^\/files\//, '');
    original = Buffer.from(await (await fetch(uploaded.body.url as string)).arrayBuffer());
  });

  it("serves a photo sandboxed: its own policy default-src 'none'; sandbox, nosniff, no MinIO headers", async () => {
    const answer = await send('GET', `/files/${fileName}`);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^image\//);
    expect(answer.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['x-amz-request-id']).toBeUndefined();
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('drops the query string: S3 sub-resources and response overrides never reach MinIO', async () => {
    for (const query of ['response-content-type=text/html', 'acl', 'policy', 'tagging', 'versionId=x', 'uploads']) {
      const answer = await fetch(`${PUBLIC_URL}/files/${fileName}?${query}`);
      expect(answer.status, query).toBe(200);
      expect(answer.headers.get('content-type'), query).toMatch(/^image\//);
      expect(Buffer.from(await answer.arrayBuffer()).equals(original), query).toBe(true);
    }
  });

  it('refuses writes to /files/', async () => {
    for (const method of ['PUT', 'POST', 'DELETE']) {
      const answer = await send(method, `/files/${fileName}`, { body: 'x' });
      expect(answer.status, method).toBeGreaterThanOrEqual(400);
      expect(answer.status, method).toBeLessThan(500);
    }
    expect((await send('GET', `/files/${fileName}`)).status).toBe(200);
  });

  /** Starts an 11 MB upload, sends only its first 64 KB, and waits for an answer. */
  function partialUpload(headers: Record<string, string>): Promise<Answer | 'no answer'> {
    return new Promise((resolve, reject) => {
      const request = http.request({
        host: gatewayHost,
        port: gatewayPort,
        method: 'POST',
        path: '/api/media/images',
        agent: false,
        headers: {
          host: gateway.host,
          'content-type': 'multipart/form-data; boundary=xyz',
          'content-length': String(11 * 1024 * 1024),
          ...headers,
        },
      });
      let settled = false;
      const finish = (result: Answer | 'no answer') => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        request.destroy();
        resolve(result);
      };
      const timer = setTimeout(() => finish('no answer'), 5_000);
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          finish({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
      });
      // Once answered, the connection is cut on purpose; before that an error is a failure.
      request.on('error', (error) => {
        if (!settled) {
          settled = true;
          clearTimeout(timer);
          reject(error);
        }
      });
      request.write(Buffer.alloc(64 * 1024, 0x61));
    });
  }

  it('refuses an anonymous or buyer upload before reading its body (the gateway asks the media service first)', async () => {
    const anonymous = await partialUpload({});
    expect(anonymous, 'the gateway waited for the whole body of an anonymous upload').not.toBe('no answer');
    const anonymousBody = isJsonError(anonymous as Answer, 401);
    expect(anonymousBody.message).toMatch(/sign in/i);

    const asBuyer = await partialUpload({ authorization: `Bearer ${buyer.accessToken}` });
    expect(asBuyer, 'the gateway waited for the whole body of a buyer upload').not.toBe('no answer');
    expect(isJsonError(asBuyer as Answer, 403).message).toMatch(/farmer/i);

    const forged = await partialUpload({ authorization: `Bearer ${farmer.accessToken.slice(0, -4)}AAAA` });
    expect(forged).not.toBe('no answer');
    isJsonError(forged as Answer, 401);
  });

  it("a farmer's upload still goes through, and one over 10 MB gets the gateway's 413 in the JSON shape", async () => {
    const ok = await api('POST', '/api/media/images', { token: farmer.accessToken, form: imageForm(await photo(320, 240), 'second.jpg') });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const big = await api('POST', '/api/media/images', {
      token: farmer.accessToken,
      form: imageForm(Buffer.alloc(13 * 1024 * 1024, 1), 'big.jpg'),
    });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: 'PHOTO_TOO_LARGE', params: { mb: 10 }, statusCode: 413, error: 'Payload Too Large', message: expect.stringMatching(/10 MB/) });
  });
});

describe('client addresses and limits', () => {
  it('Keycloak records the address the gateway saw, not the X-Forwarded-For the client wrote', async () => {
    const account = await createAccount({ role: 'buyer' });
    accounts.push(account.id);
    const from = freshClient();
    const { cookies, action } = await openLoginPage(from);
    expect(action).toBeDefined();
    const failed = await send('POST', new URL(action!, PUBLIC_URL).pathname + new URL(action!, PUBLIC_URL).search, {
      from,
      headers: {
        cookie: cookies,
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-for': '203.0.113.77',
        'x-real-ip': '203.0.113.78',
      },
      body: new URLSearchParams({ username: account.email, password: 'not-the-password', credentialId: '' }).toString(),
    });
    expect(failed.status, failed.body.slice(0, 300)).toBeLessThan(500); // the form again, "Invalid username or password"
    const admin = new KcAdminClient({ baseUrl: `http://127.0.0.1:${process.env.KEYCLOAK_PORT ?? 8180}/auth`, realmName: 'tuber' });
    await admin.auth({
      grantType: 'client_credentials',
      clientId: 'tuber-auth',
      clientSecret: process.env.KEYCLOAK_AUTH_CLIENT_SECRET ?? '',
    });
    const status = (await admin.attackDetection.findOne({ id: account.id })) as { numFailures?: number; lastIPFailure?: string };
    expect(status.numFailures).toBe(1);
    expect(status.lastIPFailure).toBe(from);
  });

  it('normal use is not limited: 150 API requests in a row from one address, 10 at a time like a busy page, all answered', async () => {
    const from = freshClient();
    const statuses: number[] = [];
    // Past the 30 r/s rate and the 100 requests let through at once: the rest are slowed, not refused.
    for (let wave = 0; wave < 15; wave += 1) {
      // Routes without a limit of their own (the auth service counts 120 a minute per address itself).
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => send('GET', `/api/${i % 2 ? 'catalog' : 'nutrition'}/openapi.json`, { from })),
      );
      statuses.push(...answers.map((a) => a.status));
    }
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });

  /** `count` requests at once from one fresh address, each claiming another client address. */
  async function burst(
    method: string,
    target: string,
    count: number,
    make: (i: number) => { headers?: Record<string, string>; body?: string },
  ) {
    const from = freshClient();
    const answers = await Promise.all(
      Array.from({ length: count }, (_, i) => {
        const { headers, body } = make(i);
        const claimed = `198.51.100.${i % 250}`;
        return send(method, target, { from, body, headers: { 'x-forwarded-for': claimed, 'x-real-ip': claimed, ...headers } });
      }),
    );
    return { from, answers, limited: answers.filter((a) => a.status === 429) };
  }

  // The account forms (docs/adr/0068): past 10 posts a minute from one address the auth service asks each post
  // for a proof of work; the address is the gateway's, whatever the client claims. The gateway's own ceiling for
  // these forms is sized for a carrier address (50 a second, 1 000 at once) and only stops a flood beyond it.
  it('a burst of forgot-password requests is asked for a proof of work whatever X-Forwarded-For says, in the JSON error shape', async () => {
    const json = { 'content-type': 'application/json' };
    const { answers, limited } = await burst('POST', '/api/auth/password/forgot', 45, () => ({
      headers: json,
      body: JSON.stringify({ email: `nobody-${randomUUID().slice(0, 8)}@test.tuber.local` }),
    }));
    expect(answers.filter((a) => a.status === 202).length).toBeGreaterThan(0);
    expect(limited.length).toBeGreaterThanOrEqual(30);
    const asked = limited.map((a) => JSON.parse(a.body) as { code: string; statusCode: number; params?: { challenge?: string } });
    expect(asked.filter((b) => !(b.code === 'PROOF_REQUIRED' && typeof b.params?.challenge === 'string')).map((b) => b.code)).toEqual([]);
    expect(limited.at(-1)!.headers['x-content-type-options']).toBe('nosniff');
    // Another client is not affected.
    expect(
      (
        await send('POST', '/api/auth/password/forgot', {
          from: freshClient(),
          headers: json,
          body: JSON.stringify({ email: 'nobody@test.tuber.local' }),
        })
      ).status,
    ).toBe(202);
  });

  it('a flood of sign-ups beyond the carrier-sized ceiling gets 429 at the gateway whatever X-Forwarded-For says', async () => {
    const { limited } = await burst('POST', '/api/auth/signup/buyer', 1_100, () => ({
      headers: { 'content-type': 'application/json' },
      body: '{}',
    }));
    const atGateway = limited.map((a) => JSON.parse(a.body)).filter((b) => b.code === 'NETWORK_RATE_LIMITED');
    expect(atGateway.length).toBeGreaterThanOrEqual(10);
    expect(atGateway[0]).toMatchObject({ statusCode: 429, error: 'Too Many Requests', message: expect.stringMatching(/network.*wait a minute/i) });
  }, 60_000);

  it('sign-in posts sent one after another (a person retrying, a test suite) are slowed down, never refused', async () => {
    const from = freshClient();
    const statuses: number[] = [];
    const started = Date.now();
    for (let i = 0; i < 16; i += 1) {
      const answer = await send('POST', '/auth/realms/tuber/login-actions/authenticate', {
        from,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'username=someone%40test.tuber.local&password=guess',
      });
      statuses.push(answer.status);
    }
    expect(statuses).not.toContain(429);
    // 1 + 10 at once, then one a second.
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_000);
  });

  it("a burst of sign-in posts on Keycloak's form gets 429 whatever X-Forwarded-For says, and other clients can still sign in", async () => {
    const { limited } = await burst('POST', '/auth/realms/tuber/login-actions/authenticate', 45, () => ({
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'username=someone%40test.tuber.local&password=guess',
    }));
    expect(limited.length).toBeGreaterThanOrEqual(10);
    expect(limited[0]!.headers['content-type']).toMatch(/^text\/html/);
    expect(limited[0]!.body).toMatch(/too many sign-in attempts.*wait a minute/i);
    expect(limited[0]!.headers['retry-after']).toBe('60');
    const other = await openLoginPage(freshClient());
    expect(other.page.status).toBe(200);
  });
});

describe('production builds', () => {
  const frontEnds = ['shell', 'landing', 'buyer', 'farmer', 'moderation'] as const;
  const remotes = ['landing', 'buyer', 'farmer', 'moderation'] as const;
  const dist = (name: string) => path.join(repoRoot, 'frontends', name, 'dist');
  const files = (dir: string) =>
    fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((f) => f.isFile())
      .map((f) => path.join(f.parentPath, f.name));
  // A real reference: a sourceMappingURL comment at the start of a line, or an inlined map (style-loader's
  // runtime only mentions the word inside a string).
  const mapReference =
    /(^|\n)\s*(\/\/|\/\*)# sourceMappingURL=|sourceMappingURL=data:application\/json;(charset=utf-8;)?base64,[A-Za-z0-9+/=]{16}|sourceMappingURL=[^"'\s]*\.map/;

  it('ship no source maps: no .map files, no sourceMappingURL', () => {
    for (const name of frontEnds) {
      const built = files(dist(name));
      expect(built.length, `frontends/${name}/dist is built`).toBeGreaterThan(0);
      expect(
        built.filter((f) => f.endsWith('.map')),
        name,
      ).toEqual([]);
      for (const file of built.filter((f) => /\.(js|css|html)$/.test(f))) {
        expect(mapReference.test(fs.readFileSync(file, 'utf8')), path.relative(repoRoot, file)).toBe(false);
      }
    }
  });

  it("the remotes ship no standalone page, only what the shell loads; the shell's page has no inline script", () => {
    for (const name of remotes) {
      const built = files(dist(name)).map((f) => path.relative(dist(name), f));
      expect(
        built.filter((f) => f.endsWith('.html')),
        name,
      ).toEqual([]);
      expect(built, name).toContain('mf-manifest.json');
      expect(built, name).toContain('remoteEntry.js');
    }
    const page = fs.readFileSync(path.join(dist('shell'), 'index.html'), 'utf8');
    for (const [tag, attributes] of page.matchAll(/<script\b([^>]*)>/g)) expect(attributes, tag).toMatch(/\bsrc=/);
  });

  it('through the gateway the remotes answer their manifest and entry, and no page or map', async () => {
    for (const name of remotes) {
      const manifest = await send('GET', `/mf/${name}/mf-manifest.json`);
      expect(manifest.status, name).toBe(200);
      const entry = JSON.parse(manifest.body).metaData.remoteEntry.name as string;
      expect((await send('GET', `/mf/${name}/${entry}`)).status, `${name} ${entry}`).toBe(200);
      for (const target of [`/mf/${name}/`, `/mf/${name}/index.html`, `/mf/${name}/${entry}.map`]) {
        expect((await send('GET', target)).status, target).toBe(404);
      }
    }
  });
});
