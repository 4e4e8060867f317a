// The browser sign-in the auth service keeps (token-mediating backend, routes/session.ts), against the
// real Keycloak and Redis: real accounts signed in through the code + PKCE flow, their refresh tokens
// handed over, refreshed, rotated, revoked and ended at Keycloak. The app is built in-process like the
// other integration tests; the last test goes through the gateway to the running auth service, so the
// cookie is proved to cross nginx too.
import KcAdminClient from '@keycloak/keycloak-admin-client';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeRedis, connectRedis, type RedisClient } from '@tuber/kit';
import type { LightMyRequestResponse } from 'fastify';
import { createAccount, deleteAccount } from '../../../../test/support/accounts.js';
import { redisUrl } from '../../../../test/support/credentials.js';
import { PUBLIC_URL, serviceEnv } from '../../../../test/support/env.js';
import { claimsOf, signInWithPassword, type Tokens } from '../../../../test/support/keycloak.js';
import type { SessionRecord } from '../../src/domain/session-store.js';
import { authApp, closedPort, type TestApp } from './support.js';

const KEYCLOAK_URL = serviceEnv('auth').KEYCLOAK_URL!;
const TOKEN_URL = `${KEYCLOAK_URL}/realms/tuber/protocol/openid-connect/token`;

let auth: TestApp;
let redis: RedisClient;
const made: string[] = [];

beforeAll(async () => {
  auth = await authApp();
  redis = await connectRedis(redisUrl());
});
afterAll(async () => {
  await auth?.app.close();
  if (redis) await closeRedis(redis);
  await Promise.all(made.map(deleteAccount));
});

interface Person {
  id: string;
  email: string;
  password: string;
  tokens: Tokens;
}

async function person(role: 'buyer' | 'farmer' = 'buyer'): Promise<Person> {
  const account = await createAccount({ role });
  made.push(account.id);
  return { ...account, tokens: await signInWithPassword(account.email, account.password) };
}

/** A client address per test, so the general per-address limit counted in Redis never carries over. */
const ip = `2001:db8:5e55::${Math.floor(Math.random() * 0xffff).toString(16)}`;

function handOff(app: TestApp['app'], bearer: string, refreshToken: string, cookie?: string) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/session',
    headers: { authorization: `Bearer ${bearer}`, 'x-forwarded-for': ip, ...(cookie ? { cookie: `tuber_session=${cookie}` } : {}) },
    payload: { refresh_token: refreshToken },
  });
}

/** The headers of a cookie-authenticated session call: the client address, the mark header, the cookie. */
const sessionHeaders = (cookie: string | undefined, header: boolean) => ({
  'x-forwarded-for': ip,
  ...(header ? { 'x-tuber-session': '1' } : {}),
  ...(cookie ? { cookie: `tuber_session=${cookie}` } : {}),
});

function token(app: TestApp['app'], cookie: string | undefined, body?: object, header = true) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/session/token',
    headers: sessionHeaders(cookie, header),
    ...(body ? { payload: body } : {}),
  });
}

function forget(app: TestApp['app'], cookie: string | undefined, header = true) {
  return app.inject({ method: 'DELETE', url: '/api/auth/session', headers: sessionHeaders(cookie, header) });
}

/** The one Set-Cookie of tuber_session an answer carries, as sent. */
function setCookieOf(answer: LightMyRequestResponse): string | undefined {
  const raw = answer.headers['set-cookie'];
  const all = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  const mine = all.filter((line) => line.startsWith('tuber_session='));
  expect(mine.length, `Set-Cookie: ${all.join(' | ')}`).toBeLessThanOrEqual(1);
  return mine[0];
}

const cookieValue = (line: string) => line.split(';')[0]!.slice('tuber_session='.length);
const attributes = (line: string) =>
  line
    .split(';')
    .slice(1)
    .map((part) => part.trim())
    .sort();
const recordKey = (cookie: string) => `auth:session:${createHash('sha256').update(cookie).digest('hex')}`;

async function storedRecord(cookie: string): Promise<SessionRecord | undefined> {
  const text = await redis.get(recordKey(cookie));
  return text === null ? undefined : (JSON.parse(text) as SessionRecord);
}

/** Keycloak's own answer to a refresh with this token at the web client. */
async function keycloakRefresh(refreshToken: string) {
  const response = await fetch(TOKEN_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', client_id: 'tuber-web', refresh_token: refreshToken }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Hands a new sign-in of `who` over and answers the cookie it got. */
async function kept(who: Person): Promise<string> {
  const tokens = await signInWithPassword(who.email, who.password);
  const answer = await handOff(auth.app, tokens.accessToken, tokens.refreshToken);
  expect(answer.statusCode, answer.body).toBe(200);
  return cookieValue(setCookieOf(answer)!);
}

/** The token is accepted by a route that checks bearer tokens (the caller's own language). */
async function works(accessToken: string) {
  const answer = await auth.app.inject({
    method: 'PUT',
    url: '/api/auth/me/locale',
    headers: { authorization: `Bearer ${accessToken}`, 'x-forwarded-for': ip },
    payload: { locale: 'en' },
  });
  return answer.statusCode;
}

describe('POST /api/auth/session: the auth service takes custody of a sign-in', () => {
  it('answers a working token, sets an HttpOnly SameSite=Strict cookie, and keeps the record under a hash of it', async () => {
    const me = await person();
    const answer = await handOff(auth.app, me.tokens.accessToken, me.tokens.refreshToken);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    const body = answer.json<{ access_token: string; id_token: string; expires_in: number }>();
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'id_token']);
    expect(body.access_token).not.toBe(me.tokens.accessToken);
    expect(claimsOf(body.access_token).sub).toBe(me.id);
    expect(claimsOf(body.id_token).sub).toBe(me.id);
    expect(body.expires_in).toBeGreaterThan(200);
    expect(body.expires_in).toBeLessThanOrEqual(300);
    expect(await works(body.access_token)).toBe(200);

    const line = setCookieOf(answer)!;
    expect(line).toBeDefined();
    const cookie = cookieValue(line);
    expect(cookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const record = await storedRecord(cookie);
    expect(record).toBeDefined();
    const ttl = await redis.ttl(recordKey(cookie));
    // The realm's SSO idle time (30 min) is what Keycloak gives as refresh_expires_in.
    expect(ttl).toBeGreaterThan(1700);
    expect(ttl).toBeLessThanOrEqual(1800);
    const expected = ['HttpOnly', `Max-Age=${1800}`, 'Path=/api/auth/session', 'SameSite=Strict'];
    if (PUBLIC_URL.startsWith('https')) expected.push('Secure');
    expect(attributes(line)).toEqual(expected.sort());
    // Never the raw cookie in Redis, as a key or anywhere in the record.
    expect(await redis.exists(`auth:session:${cookie}`)).toBe(0);
    expect(JSON.stringify(record)).not.toContain(cookie);
    expect(record).toMatchObject({ sub: me.id, access_token: body.access_token, id_token: body.id_token });
    expect(record!.sid).toBe(claimsOf(body.access_token).sid);
    expect(record!.refresh_token).not.toBe(me.tokens.refreshToken);
    expect(Math.abs(record!.minted_at - Date.now())).toBeLessThan(10_000);
    expect(record!.access_expires_at - record!.minted_at).toBe(300_000);
  });

  it("spends the browser's refresh token: Keycloak refuses it afterwards, and its reuse ends the kept sign-in too", async () => {
    const me = await person();
    const answer = await handOff(auth.app, me.tokens.accessToken, me.tokens.refreshToken);
    expect(answer.statusCode, answer.body).toBe(200);
    const cookie = cookieValue(setCookieOf(answer)!);
    const refused = await keycloakRefresh(me.tokens.refreshToken);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_grant');
    // Keycloak takes a spent refresh token presented again as theft and ends the sign-in's session: the
    // browser must never refresh with its own copy after the hand-off (the shell drops it).
    const after = await token(auth.app, cookie, { fresh: true });
    expect(after.statusCode, after.body).toBe(401);
    expect(await storedRecord(cookie)).toBeUndefined();
  });

  it("refuses another account's refresh token with my bearer (403) and keeps nothing", async () => {
    const [me, other] = await Promise.all([person(), person('farmer')]);
    const answer = await handOff(auth.app, me.tokens.accessToken, other.tokens.refreshToken);
    expect(answer.statusCode, answer.body).toBe(403);
    expect(answer.json().message).toBe('This sign-in belongs to another account.');
    expect(setCookieOf(answer)).toBeUndefined();
    expect(answer.body).not.toContain('access_token');
  });

  it('needs a valid bearer token (401), a refresh token (400), and one Keycloak accepts (401)', async () => {
    const me = await person();
    const anonymous = await auth.app.inject({
      method: 'POST',
      url: '/api/auth/session',
      headers: { 'x-forwarded-for': ip },
      payload: { refresh_token: me.tokens.refreshToken },
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await handOff(auth.app, 'not.a.token', me.tokens.refreshToken)).statusCode).toBe(401);
    const empty = await handOff(auth.app, me.tokens.accessToken, '');
    expect(empty.statusCode).toBe(400);
    const extra = await auth.app.inject({
      method: 'POST',
      url: '/api/auth/session',
      headers: { authorization: `Bearer ${me.tokens.accessToken}`, 'x-forwarded-for': ip },
      payload: { refresh_token: me.tokens.refreshToken, sub: 'someone-else' },
    });
    expect(extra.statusCode).toBe(400);
    const garbage = await handOff(auth.app, me.tokens.accessToken, 'not-a-refresh-token');
    expect(garbage.statusCode, garbage.body).toBe(401);
    expect(garbage.json().message).toBe('This sign-in has ended. Sign in again.');
    expect(setCookieOf(garbage)).toBeUndefined();
    // None of those spent the real one.
    expect((await handOff(auth.app, me.tokens.accessToken, me.tokens.refreshToken)).statusCode).toBe(200);
  });

  it('a new hand-off with an old cookie replaces the old record', async () => {
    const me = await person();
    const old = await kept(me);
    expect(await storedRecord(old)).toBeDefined();
    const tokens = await signInWithPassword(me.email, me.password);
    const answer = await handOff(auth.app, tokens.accessToken, tokens.refreshToken, old);
    expect(answer.statusCode, answer.body).toBe(200);
    const now = cookieValue(setCookieOf(answer)!);
    expect(now).not.toBe(old);
    expect(await storedRecord(old)).toBeUndefined();
    expect(await storedRecord(now)).toBeDefined();
  });
});

describe('POST /api/auth/session/token', () => {
  it('answers the kept token within 30 s (no body at all), a new one with fresh: true', async () => {
    const me = await person();
    const handed = await handOff(auth.app, me.tokens.accessToken, me.tokens.refreshToken);
    const cookie = cookieValue(setCookieOf(handed)!);
    const first = handed.json<{ access_token: string }>().access_token;

    const again = await token(auth.app, cookie);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.headers['cache-control']).toBe('no-store');
    expect(again.json().access_token).toBe(first);
    expect(again.json().expires_in).toBeGreaterThan(200);
    // Answered from the record: the cookie needs no renewing.
    expect(setCookieOf(again)).toBeUndefined();

    const withEmptyBody = await token(auth.app, cookie, {});
    expect(withEmptyBody.json().access_token).toBe(first);

    const fresh = await token(auth.app, cookie, { fresh: true });
    expect(fresh.statusCode, fresh.body).toBe(200);
    const body = fresh.json<{ access_token: string; id_token: string; expires_in: number }>();
    expect(body.access_token).not.toBe(first);
    expect(claimsOf(body.access_token).sub).toBe(me.id);
    expect(claimsOf(body.id_token).sub).toBe(me.id);
    expect(await works(body.access_token)).toBe(200);
    const renewed = setCookieOf(fresh)!;
    expect(cookieValue(renewed)).toBe(cookie);
    expect(renewed).toMatch(/Max-Age=1[78]\d\d/);
    expect((await storedRecord(cookie))!.access_token).toBe(body.access_token);
  });

  it('refreshes a token older than 30 s at Keycloak without being asked', async () => {
    const me = await person();
    const cookie = await kept(me);
    const record = (await storedRecord(cookie))!;
    await redis.set(recordKey(cookie), JSON.stringify({ ...record, minted_at: record.minted_at - 31_000 }), { EX: 600 });
    const answer = await token(auth.app, cookie);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().access_token).not.toBe(record.access_token);
    expect((await storedRecord(cookie))!.refresh_token).not.toBe(record.refresh_token);
  });

  it('refreshes instead of handing out a token minted before the account changed (a new language)', async () => {
    const me = await person();
    const cookie = await kept(me);
    const record = (await storedRecord(cookie))!;
    expect((await token(auth.app, cookie)).json().access_token, 'reused before the change').toBe(record.access_token);
    const changed = await auth.app.inject({
      method: 'PUT',
      url: '/api/auth/me/locale',
      headers: { authorization: `Bearer ${record.access_token}`, 'x-forwarded-for': ip },
      payload: { locale: 'yo' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().changed).toBe(true);
    const answer = await token(auth.app, cookie);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().access_token).not.toBe(record.access_token);
    // The new token is reused again, as any just minted.
    expect((await token(auth.app, cookie)).json().access_token).toBe(answer.json().access_token);
  });

  it('two fresh calls at once both succeed (one refresh at a time), and the kept sign-in goes on', async () => {
    const me = await person();
    const cookie = await kept(me);
    const answers = await Promise.all([token(auth.app, cookie, { fresh: true }), token(auth.app, cookie, { fresh: true })]);
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBe(200);
      expect(claimsOf(answer.json().access_token).sub).toBe(me.id);
    }
    // Four at once, from two app instances (two replicas share Redis): still no invalid_grant.
    const second = await authApp();
    try {
      const more = await Promise.all([
        token(auth.app, cookie, { fresh: true }),
        token(second.app, cookie, { fresh: true }),
        token(auth.app, cookie, { fresh: true }),
        token(second.app, cookie, { fresh: true }),
      ]);
      expect(more.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    } finally {
      await second.app.close();
    }
    const after = await token(auth.app, cookie, { fresh: true });
    expect(after.statusCode, after.body).toBe(200);
  });

  it('needs the x-tuber-session header (400)', async () => {
    const me = await person();
    const cookie = await kept(me);
    const answer = await token(auth.app, cookie, undefined, false);
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toContain('x-tuber-session');
    expect(answer.body).not.toContain('access_token');
    const wrong = await auth.app.inject({
      method: 'POST',
      url: '/api/auth/session/token',
      headers: { 'x-forwarded-for': ip, 'x-tuber-session': '0', cookie: `tuber_session=${cookie}` },
    });
    expect(wrong.statusCode).toBe(400);
    expect((await token(auth.app, cookie, { fresh: 'yes' })).statusCode).toBe(400);
    expect((await token(auth.app, cookie, { refresh_token: 'x' })).statusCode).toBe(400);
  });

  it('without a cookie, or with one nothing is kept for: 401, and a sent cookie is cleared', async () => {
    const none = await token(auth.app, undefined);
    expect(none.statusCode).toBe(401);
    expect(none.json().message).toBe('No sign-in is kept in this browser.');
    const unknown = await token(auth.app, 'x'.repeat(43));
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().message).toBe('No sign-in is kept in this browser.');
    const cleared = setCookieOf(unknown)!;
    expect(cleared).toBeDefined();
    expect(cookieValue(cleared)).toBe('');
    expect(attributes(cleared)).toEqual(expect.arrayContaining(['Max-Age=0', 'Path=/api/auth/session', 'HttpOnly', 'SameSite=Strict']));
  });

  it('a sign-in ended at Keycloak (sessions ended by the admin API): 401, the record goes, the cookie is cleared', async () => {
    const me = await person();
    const cookie = await kept(me);
    const admin = new KcAdminClient({ baseUrl: KEYCLOAK_URL, realmName: 'tuber' });
    await admin.auth({ grantType: 'client_credentials', clientId: 'tuber-auth', clientSecret: process.env.KEYCLOAK_AUTH_CLIENT_SECRET ?? '' });
    await admin.users.logout({ id: me.id });

    const answer = await token(auth.app, cookie, { fresh: true });
    expect(answer.statusCode, answer.body).toBe(401);
    expect(answer.json().message).toBe('This sign-in has ended. Sign in again.');
    expect(cookieValue(setCookieOf(answer)!)).toBe('');
    expect(setCookieOf(answer)).toContain('Max-Age=0');
    expect(await storedRecord(cookie)).toBeUndefined();
    expect((await token(auth.app, cookie)).json().message).toBe('No sign-in is kept in this browser.');
  });

  it('Keycloak out of reach: 503 and the record is kept', async () => {
    const me = await person();
    const cookie = await kept(me);
    const before = (await storedRecord(cookie))!;
    const cut = await authApp({ KEYCLOAK_URL: `http://127.0.0.1:${await closedPort()}/auth` });
    try {
      const answer = await token(cut.app, cookie, { fresh: true });
      expect(answer.statusCode, answer.body).toBe(503);
      expect(answer.json().message).toBe('Sign-in is unavailable right now. Please try again in a few minutes.');
      expect(setCookieOf(answer)).toBeUndefined();
      expect(cut.errors.map((e) => e.message)).toContain('kept sign-in: refresh: Keycloak could not refresh');
      expect(JSON.stringify(cut.errors)).not.toContain(before.refresh_token);
    } finally {
      await cut.app.close();
    }
    expect(await storedRecord(cookie)).toEqual(before);
    expect((await token(auth.app, cookie, { fresh: true })).statusCode).toBe(200);
  });
});

describe('DELETE /api/auth/session', () => {
  it('forgets the kept sign-in: 204, cookie cleared, record gone, its refresh token revoked at Keycloak; /token then 401', async () => {
    const me = await person();
    const cookie = await kept(me);
    const kept_ = (await storedRecord(cookie))!;
    expect((await forget(auth.app, cookie, false)).statusCode).toBe(400);
    expect(await storedRecord(cookie)).toBeDefined();

    const answer = await forget(auth.app, cookie);
    expect(answer.statusCode).toBe(204);
    const cleared = setCookieOf(answer)!;
    expect(cookieValue(cleared)).toBe('');
    expect(attributes(cleared)).toEqual(expect.arrayContaining(['Max-Age=0', 'Path=/api/auth/session', 'HttpOnly', 'SameSite=Strict']));
    expect(await storedRecord(cookie)).toBeUndefined();
    const revoked = await keycloakRefresh(kept_.refresh_token);
    expect(revoked.status).toBe(400);

    const after = await token(auth.app, cookie);
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toBe('No sign-in is kept in this browser.');
    // Nothing kept, no cookie: still 204.
    expect((await forget(auth.app, undefined)).statusCode).toBe(204);
  });
});

describe('through the gateway to the running auth service', () => {
  it('hand-off, token and logout, with the cookie crossing nginx', async () => {
    const me = await person();
    const handed = await fetch(`${PUBLIC_URL}/api/auth/session`, {
      method: 'POST',
      headers: { authorization: `Bearer ${me.tokens.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: me.tokens.refreshToken }),
    });
    expect(handed.status, await handed.clone().text()).toBe(200);
    expect(handed.headers.get('cache-control')).toBe('no-store');
    const line = handed.headers.getSetCookie().find((l) => l.startsWith('tuber_session='))!;
    expect(line).toContain('HttpOnly');
    const cookie = `tuber_session=${cookieValue(line)}`;
    const minted = ((await handed.json()) as { access_token: string }).access_token;

    const again = await fetch(`${PUBLIC_URL}/api/auth/session/token`, { method: 'POST', headers: { cookie, 'x-tuber-session': '1' } });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { access_token: string }).access_token).toBe(minted);

    const out = await fetch(`${PUBLIC_URL}/api/auth/session`, { method: 'DELETE', headers: { cookie, 'x-tuber-session': '1' } });
    expect(out.status).toBe(204);
    const gone = await fetch(`${PUBLIC_URL}/api/auth/session/token`, { method: 'POST', headers: { cookie, 'x-tuber-session': '1' } });
    expect(gone.status).toBe(401);
  });
});
