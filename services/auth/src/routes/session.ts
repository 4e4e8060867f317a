// The browser sign-in kept by the auth service (token-mediating backend). keycloak-js's silent check
// costs a returning signed-in person a hidden iframe, a Keycloak page, silent-check-sso.html and a
// token POST before the first API call; with this, the shell asks one same-origin route instead.
//
//   POST   /api/auth/session        bearer + the sign-in's refresh token: this service takes custody
//                                  (refreshes it at once, so the browser's copy is spent) and sets
//                                  the HttpOnly tuber_session cookie
//   POST   /api/auth/session/token  cookie: a fresh access token (one refresh at a time per session)
//   DELETE /api/auth/session        cookie: forget it (logout)
//
// The cookie is the credential of the last two: SameSite=Strict keeps other sites' requests from
// carrying it, and the required `x-tuber-session: 1` header (which a cross-site form cannot set, and
// a cross-site fetch could only with a CORS preflight the gateway never grants) is a second belt.
import type {} from '@fastify/cookie';
import { Type } from '@sinclair/typebox';
import { HttpError, forbidden, unauthorized, unavailable, type RevokedSessions, type ServiceApp } from '@tuber/kit';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import {
  DEFAULT_SESSION_SECONDS,
  SessionStore,
  jwtPayload,
  type KeycloakTokens,
  type RefreshOutcome,
  type SessionRecord,
  type TokenEndpoint,
} from '../domain/session-store.js';
import { SIGN_IN_UNAVAILABLE } from './oidc.js';

export const SESSION_COOKIE = 'tuber_session';
export const SESSION_COOKIE_PATH = '/api/auth/session';
export const NO_SIGN_IN_KEPT = 'No sign-in is kept in this browser.';
export const SIGN_IN_ENDED = 'This sign-in has ended. Sign in again.';
export const OTHER_ACCOUNT = 'This sign-in belongs to another account.';

/** A kept access token younger than this, with at least FRESH_LEFT_MS left, is answered as it is. */
const REUSE_MINTED_WITHIN_MS = 30_000;
const REUSE_LEFT_MS = 60_000;

const TokenAnswer = Type.Object({
  access_token: Type.String(),
  /** Empty when Keycloak gave none (a sign-in without the openid scope). */
  id_token: Type.String(),
  /** Seconds the access token has left, by this server's clock. */
  expires_in: Type.Integer({ minimum: 0 }),
});

const SessionHeader = Type.Object({
  'x-tuber-session': Type.Literal('1', {
    description: 'Must be "1": a request another site makes cannot carry it (besides the cookie being SameSite=Strict).',
  }),
});

const errors = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, Type.Ref('ErrorResponse')]));

export interface SessionDeps {
  store: SessionStore;
  tokens: TokenEndpoint;
  /** Where an ended sign-in's session id goes, so that every service refuses its tokens at once (issue 24). */
  revoked?: RevokedSessions;
  /** Cookies get `Secure` when the site is served over https. */
  publicUrl: string;
}

/** Seconds a record (and its cookie) lives: Keycloak's refresh_expires_in, or 30 days when it says 0 (no idle limit) or nothing. */
const lifetimeOf = (tokens: KeycloakTokens) =>
  tokens.refresh_expires_in && tokens.refresh_expires_in > 0 ? Math.floor(tokens.refresh_expires_in) : DEFAULT_SESSION_SECONDS;

function recordOf(tokens: KeycloakTokens, sub: string, now: number): SessionRecord {
  const claims = jwtPayload(tokens.access_token);
  return {
    sub,
    sid: typeof claims.sid === 'string' ? claims.sid : '',
    refresh_token: tokens.refresh_token,
    access_token: tokens.access_token,
    id_token: tokens.id_token ?? '',
    access_expires_at: now + tokens.expires_in * 1000,
    minted_at: now,
  };
}

const answerOf = (record: SessionRecord, now = Date.now()) => ({
  access_token: record.access_token,
  id_token: record.id_token,
  expires_in: Math.max(0, Math.floor((record.access_expires_at - now) / 1000)),
});

/** Redis away is answered like Keycloak away: the shell then falls back to its own sign-in check. */
async function stored<T>(log: FastifyBaseLogger, what: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    log.error({ reason: err instanceof Error ? err.message : String(err) }, `kept sign-in: Redis failed to ${what}`);
    throw unavailable('SIGN_IN_UNAVAILABLE', SIGN_IN_UNAVAILABLE);
  }
}

/** The error a failed refresh at Keycloak is answered with (logged with Keycloak's reason, never the token). */
function refreshFailure(log: FastifyBaseLogger, outcome: Exclude<RefreshOutcome, { ok: true }>, step: string): HttpError {
  if (outcome.ended) {
    log.info({ reason: outcome.reason }, `kept sign-in: ${step}: Keycloak refused the refresh token`);
    return unauthorized(SIGN_IN_ENDED, 'SIGN_IN_ENDED');
  }
  log.error({ reason: outcome.reason }, `kept sign-in: ${step}: Keycloak could not refresh`);
  return unavailable('SIGN_IN_UNAVAILABLE', SIGN_IN_UNAVAILABLE);
}

export function sessionRoutes(app: ServiceApp, deps: SessionDeps) {
  const { store, tokens } = deps;
  const secure = deps.publicUrl.startsWith('https');
  const cookieOptions = { path: SESSION_COOKIE_PATH, httpOnly: true, sameSite: 'strict', secure } as const;
  const setCookie = (reply: FastifyReply, value: string, maxAge: number) => reply.setCookie(SESSION_COOKIE, value, { ...cookieOptions, maxAge });
  const clearCookie = (reply: FastifyReply) => reply.setCookie(SESSION_COOKIE, '', { ...cookieOptions, maxAge: 0 });
  // Every answer of these routes may carry a token or say something about a sign-in: never kept by a cache.
  const noStore = async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store');
  };

  app.post(
    '/api/auth/session',
    {
      onRequest: app.authenticate,
      onSend: noStore,
      schema: {
        summary: "Keep this browser's sign-in: the auth service takes custody of its refresh token and sets the tuber_session cookie",
        description:
          'The refresh token is refreshed at once (refresh tokens rotate), so the copy sent is spent afterwards. ' +
          'It must belong to the account of the bearer token (403 otherwise).',
        security: [{ bearer: [] }],
        body: Type.Object({ refresh_token: Type.String({ minLength: 1, maxLength: 16384 }) }, { additionalProperties: false }),
        response: { 200: TokenAnswer, ...errors(400, 401, 403, 429, 503) },
      },
    },
    async (request, reply) => {
      const log = request.log;
      // Redis is asked first: once Keycloak has rotated the token, a record that cannot be written loses the sign-in.
      await stored(log, 'answer before a hand-off', store.check());
      const outcome = await tokens.refresh(request.body.refresh_token);
      if (!outcome.ok) throw refreshFailure(log, outcome, 'hand-off');
      const sub = jwtPayload(outcome.tokens.access_token).sub;
      if (sub !== request.identity.userId) {
        log.warn({ userId: request.identity.userId }, 'kept sign-in: hand-off refused: the refresh token is of another account');
        // The tokens just minted are nobody's to keep.
        await tokens.revoke(outcome.tokens.refresh_token);
        throw forbidden('OTHER_ACCOUNT', OTHER_ACCOUNT);
      }
      const now = Date.now();
      const record = recordOf(outcome.tokens, sub, now);
      const lifetime = lifetimeOf(outcome.tokens);
      const cookie = SessionStore.newCookie();
      await stored(log, 'keep a sign-in', store.write(cookie, record, lifetime));
      // A browser keeps one sign-in: the one it had before (another account, or an older one) goes.
      const previous = request.cookies[SESSION_COOKIE];
      if (previous) {
        await store.delete(previous).catch((err: unknown) => {
          log.warn({ reason: err instanceof Error ? err.message : String(err) }, 'kept sign-in: the previous record could not be deleted');
        });
      }
      setCookie(reply, cookie, lifetime);
      log.info({ userId: sub, sid: record.sid }, 'kept sign-in: taken into custody');
      return answerOf(record, now);
    },
  );

  app.post(
    '/api/auth/session/token',
    {
      onSend: noStore,
      // No body at all is the usual call; the schema below then judges an empty object.
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
      schema: {
        summary: "A fresh access token for this browser's kept sign-in (tuber_session cookie)",
        description:
          'Send no body, or {"fresh": true} to force a refresh at Keycloak (new claims). A token minted under 30 s ago ' +
          'with at least 60 s left is answered as it is otherwise.',
        headers: SessionHeader,
        body: Type.Object({ fresh: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
        response: { 200: TokenAnswer, ...errors(400, 401, 429, 503) },
      },
    },
    async (request, reply) => {
      const log = request.log;
      const startedAt = Date.now();
      const fresh = request.body?.fresh === true;
      const cookie = request.cookies[SESSION_COOKIE];
      if (!cookie) throw unauthorized(NO_SIGN_IN_KEPT, 'NO_SIGN_IN_KEPT');
      const gone = () => {
        clearCookie(reply);
        return unauthorized(NO_SIGN_IN_KEPT, 'NO_SIGN_IN_KEPT');
      };

      let record = await stored(log, 'read a kept sign-in', store.read(cookie));
      if (!record) throw gone();
      const changedAt = await stored(log, 'read when an account changed', store.accountChangedAt(record.sub));
      const reusable = (record: SessionRecord, now = Date.now()) =>
        now - record.minted_at < REUSE_MINTED_WITHIN_MS &&
        record.access_expires_at - now >= REUSE_LEFT_MS &&
        // Claims changed since it was minted (the profile was just made): refresh for the new ones.
        !(changedAt !== undefined && changedAt >= record.minted_at);
      // Two tabs opening together, a quick reload: the token just minted serves them all.
      if (!fresh && reusable(record)) return answerOf(record);

      const held = await stored(log, 'lock a kept sign-in', store.lock(cookie));
      if (!held) {
        log.warn({ userId: record.sub }, 'kept sign-in: another refresh of this session held its lock too long');
        throw unavailable('SIGN_IN_UNAVAILABLE', SIGN_IN_UNAVAILABLE);
      }
      try {
        record = await stored(log, 'read a kept sign-in', store.read(cookie));
        if (!record) throw gone();
        // Refreshed by another request since this one came in: as fresh as asked for, even with `fresh`.
        if (record.minted_at >= startedAt || (!fresh && reusable(record))) return answerOf(record);

        const outcome = await tokens.refresh(record.refresh_token);
        if (!outcome.ok) {
          if (outcome.ended) {
            await store.delete(cookie).catch((err: unknown) => {
              log.warn({ reason: err instanceof Error ? err.message : String(err) }, 'kept sign-in: an ended record could not be deleted');
            });
            clearCookie(reply);
          }
          throw refreshFailure(log, outcome, 'refresh');
        }
        const sub = jwtPayload(outcome.tokens.access_token).sub;
        if (sub !== record.sub) {
          // Cannot happen unless Keycloak's account changed under the session: treated as ended.
          log.error({ userId: record.sub }, 'kept sign-in: Keycloak refreshed it for another subject; forgotten');
          await store.delete(cookie).catch(() => undefined);
          clearCookie(reply);
          throw unauthorized(SIGN_IN_ENDED, 'SIGN_IN_ENDED');
        }
        const now = Date.now();
        const next = recordOf(outcome.tokens, sub, now);
        const lifetime = lifetimeOf(outcome.tokens);
        await stored(log, 'keep a refreshed sign-in', store.write(cookie, next, lifetime));
        setCookie(reply, cookie, lifetime);
        return answerOf(next, now);
      } finally {
        await held.release();
      }
    },
  );

  app.delete(
    '/api/auth/session',
    {
      onSend: noStore,
      schema: {
        summary: "Forget this browser's kept sign-in (tuber_session cookie): the record goes, the cookie is cleared",
        headers: SessionHeader,
        response: { 204: Type.Null(), ...errors(400, 429) },
      },
    },
    async (request, reply) => {
      const log = request.log;
      const cookie = request.cookies[SESSION_COOKIE];
      if (cookie) {
        try {
          const record = await store.read(cookie);
          // First the access tokens of this sign-in stop working everywhere, then the record goes.
          if (record?.sid && deps.revoked) await deps.revoked.revoke(record.sid);
          await store.delete(cookie);
          // Best effort: Keycloak forgets the refresh token too; the answer does not wait on its success.
          if (record) await tokens.revoke(record.refresh_token);
          if (record) log.info({ userId: record.sub, sid: record.sid }, 'kept sign-in: forgotten');
        } catch (err) {
          // The cookie is cleared all the same: without it the record is unreachable and expires by itself.
          log.error({ reason: err instanceof Error ? err.message : String(err) }, 'kept sign-in: Redis failed to forget it');
        }
      }
      clearCookie(reply);
      return reply.code(204).send(null);
    },
  );
}
