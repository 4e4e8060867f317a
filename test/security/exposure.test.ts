// What the gateway shows the internet: none of Keycloak's administration, no internal server's
// pages (health, metrics, NATS monitor, MinIO console or bucket listing, Mailpit), and browser
// security headers on what it serves.
import { describe, expect, it } from 'vitest';
import { call, PUBLIC_URL, SERVICES, type Answer } from './support/stack.js';
import { denialChecked } from './support/tally.js';

/** Keycloak paths the product never needs: each must be 404 at the gateway. */
const KEYCLOAK_PRIVATE = [
  '/auth/admin/',
  '/auth/admin/master/console/',
  '/auth/admin/tuber/console/',
  '/auth/admin/realms/tuber/users',
  '/auth/admin/realms/master',
  '/auth/admin/serverinfo',
  '/auth/realms/master/',
  '/auth/realms/master/.well-known/openid-configuration',
  '/auth/realms/master/protocol/openid-connect/auth?client_id=security-admin-console&response_type=code',
  '/auth/realms/master/protocol/openid-connect/token',
  '/auth/realms/master/account/',
  '/auth/realms/tuber/account/',
  '/auth/',
  '/auth/welcome',
  '/auth/health',
  '/auth/health/ready',
  '/auth/health/live',
  '/auth/metrics',
  // The same, spelled so that a careless location match lets them through.
  '/auth//admin/master/console/',
  '/auth/realms/tuber/../master/',
  '/auth/realms/tuber/%2e%2e/master/',
  '/auth/realms/%6Daster/',
  '/AUTH/admin/master/console/',
  '/auth/resources/../admin/master/console/',
];

/**
 * Internal servers' pages and what each would give away; the gateway must not serve any of it
 * (404, or at most the shell's own page for an unknown client-side route).
 */
const INTERNAL: { path: string; leak: RegExp }[] = [
  ...SERVICES.flatMap((s) => [
    { path: `/api/${s}/health`, leak: /"status"\s*:\s*"ok"/ },
    { path: `/api/${s}/ready`, leak: /"status"\s*:\s*"(ready|unavailable)"/ },
    { path: `/api/${s}/../../health`, leak: /"status"\s*:\s*"ok"/ },
    { path: `/api/${s}/%2e%2e/%2e%2e/health`, leak: /"status"\s*:\s*"ok"/ },
    { path: `/api/${s}/..%2f..%2fready`, leak: /"checks"/ },
  ]),
  { path: '/health', leak: /"status"\s*:\s*"ok"/ },
  { path: '/ready', leak: /"checks"/ },
  { path: '/metrics', leak: /# (HELP|TYPE) / },
  // NATS monitoring
  { path: '/varz', leak: /"server_id"|"jetstream"/ },
  { path: '/connz', leak: /"connections"/ },
  { path: '/jsz', leak: /"streams"|"server_id"/ },
  { path: '/subsz', leak: /"num_subscriptions"/ },
  { path: '/healthz', leak: /"status"\s*:\s*"ok"/ },
  // MinIO: console, admin, health, bucket listing through /files/
  { path: '/minio/health/live', leak: /^\s*$/ },
  { path: '/minio/admin/v3/info', leak: /"mode"|"servers"/ },
  { path: '/minio/v2/metrics/cluster', leak: /minio_/ },
  { path: '/files/', leak: /ListBucketResult|<Key>/ },
  { path: '/files/?list-type=2', leak: /ListBucketResult|<Key>/ },
  { path: '/files/?location', leak: /LocationConstraint/ },
  { path: '/files/?policy', leak: /"Statement"/ },
  { path: '/files/?acl', leak: /AccessControlPolicy/ },
  { path: '/files/../', leak: /ListAllMyBucketsResult|<Bucket>/ },
  { path: '/files/%2e%2e/', leak: /ListAllMyBucketsResult|<Bucket>/ },
  { path: '/files/..%2f', leak: /ListAllMyBucketsResult|<Bucket>/ },
  { path: '/api/v1/login', leak: /"token"/ },
  // Mailpit
  { path: '/api/v1/messages', leak: /"messages_count"|"messages"/ },
  { path: '/api/v1/info', leak: /"Database"|"Version"/ },
  { path: '/api/v1/search?query=to:test', leak: /"messages"/ },
  { path: '/mailpit/', leak: /Mailpit/ },
];

/** The shell's own page for a client-side route it does not know (its SPA fallback). */
function isShellPage(answer: Answer): boolean {
  return (
    answer.status === 200 &&
    (answer.headers.get('content-type') ?? '').includes('text/html') &&
    !/Keycloak|MinIO|Mailpit|NATS/i.test(answer.text)
  );
}

describe("Keycloak's administration and master realm are not public", () => {
  it.each(KEYCLOAK_PRIVATE)('%s answers 404 (or, outside /auth/, the shell page)', async (path) => {
    const answer = await call('GET', path, { retryOn429: true });
    if (path.startsWith('/auth/')) expect(answer.status, `${path}: ${answer.text.slice(0, 200)}`).toBe(404);
    else expect(answer.status === 404 || isShellPage(answer), `${path}: ${answer.status} ${answer.text.slice(0, 200)}`).toBe(true);
    expect(answer.text).not.toMatch(/keycloak|security-admin-console|"realm"/i);
    denialChecked();
  });

  it('POSTs to the master realm token endpoint and the admin API are 404 too', async () => {
    for (const path of ['/auth/realms/master/protocol/openid-connect/token', '/auth/admin/realms/tuber/users']) {
      const answer = await call('POST', path, { json: {} });
      expect(answer.status, path).toBe(404);
      denialChecked();
    }
  });

  it('what the product needs still answers: the realm discovery, its keys, the login page', async () => {
    const discovery = await call('GET', '/auth/realms/tuber/.well-known/openid-configuration');
    expect(discovery.status).toBe(200);
    expect((await call('GET', '/auth/realms/tuber/protocol/openid-connect/certs')).status).toBe(200);
    const login = await call(
      'GET',
      `/auth/realms/tuber/protocol/openid-connect/auth?client_id=tuber-web&response_type=code&scope=openid&redirect_uri=${encodeURIComponent(`${PUBLIC_URL}/login/callback`)}&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`,
    );
    expect(login.status).toBe(200);
    expect(login.text).toContain('kc-form-login');
  });
});

describe('internal servers are unreachable through the gateway', () => {
  it.each(INTERNAL.map((entry) => [entry.path, entry] as const))('%s', async (path, { leak }) => {
    const answer = await call('GET', path);
    expect(answer.status, `${path}: ${answer.text.slice(0, 200)}`).toBeLessThan(500);
    expect(answer.status === 404 || isShellPage(answer), `${path} answered ${answer.status}: ${answer.text.slice(0, 200)}`).toBe(true);
    if (answer.status !== 404) expect(answer.text, path).not.toMatch(leak);
    denialChecked();
  });

  it("the remotes' standalone development pages are not served", async () => {
    for (const remote of ['landing', 'buyer', 'farmer', 'moderation']) {
      for (const path of [`/mf/${remote}/`, `/mf/${remote}/index.html`]) {
        const answer = await call('GET', path);
        expect(answer.status, `${path}: ${answer.text.slice(0, 120)}`).toBe(404);
        denialChecked();
      }
    }
  });

  it('no source maps are served', async () => {
    for (const prefix of ['', '/mf/landing', '/mf/buyer', '/mf/farmer', '/mf/moderation']) {
      const manifest = await call('GET', `${prefix}/mf-manifest.json`);
      const scripts = [...manifest.text.matchAll(/"([^"]+\.js)"/g)].map((m) => m[1]!).slice(0, 5);
      for (const script of scripts) {
        const path = `${prefix}/${script.replace(/^\//, '')}.map`;
        const answer = await call('GET', path);
        expect(answer.text.startsWith('{"version":3'), `${path} is a source map`).toBe(false);
        denialChecked();
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------

const PAGES = ['/', '/login', '/signupfarmer', '/reset-password', '/dashboard/buyer', '/no-such-page'];

function directives(csp: string | null): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (csp ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name.toLowerCase(), values);
  }
  return map;
}

describe('security headers at the gateway', () => {
  it.each(PAGES)('page %s: CSP without inline scripts, no framing, nosniff, Referrer-Policy, no ACAO *', async (path) => {
    const answer = await call('GET', path);
    expect(answer.status).toBe(200);
    const csp = directives(answer.headers.get('content-security-policy'));
    expect(csp.size, `${path}: Content-Security-Policy`).toBeGreaterThan(0);
    const scripts = csp.get('script-src') ?? csp.get('default-src') ?? [];
    expect(scripts.length, `${path}: script-src or default-src`).toBeGreaterThan(0);
    expect(scripts, `${path}: script-src`).not.toContain("'unsafe-inline'");
    expect(scripts, `${path}: script-src`).not.toContain("'unsafe-eval'");
    expect(
      scripts.some((s) => s === '*' || s === 'http:' || s === 'https:' || s === 'data:'),
      `${path}: script-src allows any origin`,
    ).toBe(false);
    expect(csp.get('frame-ancestors'), `${path}: frame-ancestors`).toEqual(["'none'"]);
    expect(csp.get('object-src') ?? csp.get('default-src'), `${path}: object-src`).toEqual(["'none'"]);
    expect(csp.get('base-uri'), `${path}: base-uri`).toBeDefined();
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('referrer-policy')).toMatch(/^(no-referrer|same-origin|strict-origin|strict-origin-when-cross-origin)$/);
    expect(answer.headers.get('access-control-allow-origin'), `${path}: ACAO`).not.toBe('*');
    expect(answer.headers.get('server') ?? '', `${path}: server header`).not.toMatch(/\d/);
    expect(answer.headers.get('x-powered-by')).toBeNull();
  });

  it('a page is not served with ACAO * even when the request names another origin', async () => {
    const answer = await call('GET', '/', { headers: { origin: 'https://evil.invalid' } });
    expect(answer.headers.get('access-control-allow-origin')).not.toBe('*');
    expect(answer.headers.get('access-control-allow-origin')).not.toBe('https://evil.invalid');
  });

  it('API answers: nosniff, no server version, no ACAO * for a foreign origin', async () => {
    for (const path of ['/api/catalog/products', '/api/nutrition/yam', '/api/auth/oidc', '/api/orders/requests']) {
      const answer = await call('GET', path, { headers: { origin: 'https://evil.invalid' } });
      expect(answer.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(answer.headers.get('server') ?? '', path).not.toMatch(/\d/);
      expect(answer.headers.get('access-control-allow-origin'), path).not.toBe('*');
      expect(answer.headers.get('access-control-allow-origin'), path).not.toBe('https://evil.invalid');
      expect(answer.headers.get('x-powered-by'), path).toBeNull();
    }
  });

  it("Keycloak's login page cannot be framed and has nosniff", async () => {
    const answer = await call(
      'GET',
      `/auth/realms/tuber/protocol/openid-connect/auth?client_id=tuber-web&response_type=code&scope=openid&redirect_uri=${encodeURIComponent(`${PUBLIC_URL}/login/callback`)}&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`,
    );
    expect(answer.status).toBe(200);
    // 'self' at most: keycloak-js frames the realm's own check pages from this origin.
    const ancestors = directives(answer.headers.get('content-security-policy')).get('frame-ancestors');
    expect([["'none'"], ["'self'"]], `frame-ancestors ${ancestors?.join(' ')}`).toContainEqual(ancestors);
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('server') ?? '').not.toMatch(/\d/);
  });

  it('an error page from the gateway itself shows no version', async () => {
    const answer = await call('GET', '/auth/admin/');
    expect(answer.text).not.toMatch(/nginx\/\d/);
    expect(answer.headers.get('server') ?? '').not.toMatch(/\d/);
  });

  it('/files/ answers a missing file with 404, not a page or a listing, whatever the query string asks', async () => {
    for (const path of [
      '/files/does-not-exist.jpg',
      '/files/does-not-exist.jpg?response-content-type=text/html',
      '/files/does-not-exist.jpg?list-type=2',
    ]) {
      const answer = await call('GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.text, path).not.toMatch(/ListBucketResult|<Error>|<Code>/);
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      denialChecked();
    }
  });
});
