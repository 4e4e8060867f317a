// Verifies Keycloak's RS256 access tokens against the realm's JWKS (issuer, audience, expiry)
// and gives routes `app.authenticate` and `app.requireRole(role)` pre-handlers. The keys come
// from RealmKeys: answered from memory, unknown key ids cannot make it hammer Keycloak, and a
// Keycloak that does not answer gives 503 instead of "sign in again".
import fp from 'fastify-plugin';
import jwt, { type TokenOrHeader } from '@fastify/jwt';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { ANSWERS } from '../app.js';
import { HttpError, forbidden } from '../errors.js';
import { RealmKeys, type RealmKeysOptions } from './realm-keys.js';
import type { RevokedSessions } from '../revoked-sessions.js';

export type Role = 'buyer' | 'farmer';
/** The realm roles a route may require: the two kinds of account, and the moderation desk's (issue 26). */
export type RealmRole = Role | 'moderator';

/** Who is calling, taken from a verified access token. */
export interface Identity {
  userId: string;
  email: string;
  emailVerified: boolean;
  roles: string[];
  userType?: Role;
  claims: Record<string, unknown>;
}

declare module 'fastify' {
  interface FastifyInstance {
    authenticate: preHandlerAsyncHookHandler;
    requireRole: (role: RealmRole) => preHandlerAsyncHookHandler;
    /** The realm's signing keys (fetch count for tests, refresh at start). */
    realmKeys: RealmKeys;
  }
  interface FastifyRequest {
    identity: Identity;
  }
}

/** The answer to a token of a sign-in that has ended (logout): the person signs in again. */
export const SIGN_IN_ENDED = 'This sign-in has ended. Sign in again.';

export interface AuthOptions {
  /** Internal base URL of Keycloak, e.g. http://127.0.0.1:8180/auth */
  keycloakUrl: string;
  realm: string;
  /** Expected `iss` (the public realm URL the browser used). */
  issuer: string;
  audience: string;
  /** Timeouts and cool-down of key fetches (defaults: 2 s connect, 3 s response, 30 s between fetches). */
  keys?: Omit<RealmKeysOptions, 'jwksUrl'>;
}

interface TokenClaims {
  sub?: string;
  email?: string;
  email_verified?: boolean;
  user_type?: string;
  realm_access?: { roles?: string[] };
  [claim: string]: unknown;
}

export function identityFromClaims(claims: TokenClaims): Identity {
  if (!claims.sub) throw new HttpError(401, { code: 'TOKEN_INVALID', message: 'The access token has no subject. Sign in again.' });
  const roles = claims.realm_access?.roles ?? [];
  const userType = claims.user_type === 'buyer' || claims.user_type === 'farmer' ? claims.user_type : undefined;
  return {
    userId: claims.sub,
    email: (claims.email ?? '').toLowerCase(),
    emailVerified: claims.email_verified === true,
    roles,
    ...(userType ? { userType } : {}),
    claims,
  };
}

async function authPlugin(app: FastifyInstance, options: AuthOptions): Promise<void> {
  const realmBase = `${options.keycloakUrl.replace(/\/$/, '')}/realms/${options.realm}`;
  const keys = new RealmKeys({ jwksUrl: `${realmBase}/protocol/openid-connect/certs`, ...options.keys });
  app.decorate('realmKeys', keys);
  // Warm up once the app is built, so the first requests need no fetch. Keycloak being away is not
  // fatal: the service starts, /ready says not ready, and the keys are tried again every few
  // seconds, so it becomes ready by itself when Keycloak is back (docs/adr/0027).
  let retry: NodeJS.Timeout | undefined;
  const retryUntilLoaded = () => {
    if (keys.loaded) return clearInterval(retry);
    // keys.ready() fetches at most once per retry period (5 s), however often it is asked.
    keys.ready().then(
      () => app.log.info('realm keys loaded'),
      () => undefined,
    );
  };
  app.addHook('onReady', async () => {
    await keys.refresh().catch((err: unknown) => {
      app.log.warn({ err }, 'realm keys not loaded yet; trying again until Keycloak answers');
      retry = setInterval(retryUntilLoaded, 1_000);
      retry.unref();
    });
  });
  app.addHook('onClose', async () => {
    clearInterval(retry);
    await keys.close();
  });

  await app.register(jwt, {
    decode: { complete: true },
    // The key is looked up by `kid` from the realm's JWKS reached over the internal URL;
    // the issuer claim itself is checked against the configured public issuer.
    secret: async (_request: FastifyRequest, token: TokenOrHeader) => {
      const header = 'header' in token ? token.header : token;
      return keys.publicKey(typeof header.kid === 'string' ? header.kid : undefined);
    },
    // allowedIss/allowedAud only judge a claim that is there: a token without iss, aud or exp
    // would pass them (found by test/security/tokens.test.ts), so those claims are required.
    verify: {
      algorithms: ['RS256'],
      allowedIss: options.issuer,
      allowedAud: options.audience,
      requiredClaims: ['iss', 'aud', 'exp', 'sub'],
      // A token already verified is answered from memory until it expires (at most 10 minutes),
      // so the RSA check is paid once per token, not once per request (bench P5).
      cache: 10_000,
      cacheTTL: 600_000,
    },
    messages: {
      noAuthorizationInHeaderMessage: 'Sign in to continue: this request needs a bearer access token.',
      authorizationTokenExpiredMessage: 'Your session has expired. Sign in again.',
      authorizationTokenInvalid: (err: Error) => `The access token is not valid: ${err.message}`,
      authorizationTokenUntrusted: 'The access token was not issued by this realm.',
    },
  });

  app.decorateRequest('identity', null as unknown as Identity);

  // Tokens already verified, by their exact Authorization header, until they expire: decoding and
  // checking a token is paid once per token, not once per request (bench P5). Bounded, oldest out
  // first. A token stays as good as it was when checked, which it would be anyway until it expires.
  const verified = new Map<string, { identity: Identity; expiresAt: number }>();
  const VERIFIED_MAX = 5_000;

  /**
   * Refuses a token whose sign-in has ended (logout), when the service checks revocations
   * (useSessionRevocation). Redis away: the token is taken, with a warning at most once a minute; a
   * revoked token then lives until it expires, as it did before revocation existed (docs/adr/0056).
   */
  let warnedAt = 0;
  // Decorated by useSessionRevocation after this plugin; looked up once it is there.
  let revocation: RevokedSessions | undefined;
  const endedSignIn = (request: FastifyRequest, sid: string) => {
    request.log.info({ userId: request.identity.userId, sid }, 'token rejected: its sign-in has ended');
    return new HttpError(401, { code: 'SIGN_IN_ENDED', message: SIGN_IN_ENDED });
  };
  const askRedis = async (request: FastifyRequest, revoked: RevokedSessions, sid: string) => {
    let ended: boolean;
    try {
      ended = await revoked.isRevoked(sid);
    } catch (err) {
      if (Date.now() - warnedAt > 60_000) {
        warnedAt = Date.now();
        request.log.warn({ reason: err instanceof Error ? err.message : String(err) }, 'ended sign-ins cannot be checked (Redis away); tokens taken until they expire');
      }
      return;
    }
    if (ended) throw endedSignIn(request, sid);
  };
  /** Synchronous when the answer is in memory (the common case, bench P5); a promise when Redis is asked. */
  const refuseEnded = (request: FastifyRequest): Promise<void> | undefined => {
    revocation ??= app.hasDecorator('revokedSessions') ? (app as unknown as { revokedSessions: RevokedSessions }).revokedSessions : undefined;
    const sid = request.identity.claims.sid;
    if (!revocation || typeof sid !== 'string' || sid === '') return undefined;
    const kept = revocation.known(sid);
    if (kept === undefined) return askRedis(request, revocation, sid);
    if (kept) throw endedSignIn(request, sid);
    return undefined;
  };

  const authenticate: preHandlerAsyncHookHandler = async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    const known = header === undefined ? undefined : verified.get(header);
    if (known && known.expiresAt > Date.now()) {
      request.identity = known.identity;
      const asking = refuseEnded(request);
      if (asking) await asking;
      return;
    }
    if (known) verified.delete(header!);
    try {
      const claims = await request.jwtVerify<TokenClaims>();
      request.identity = identityFromClaims(claims);
      if (header !== undefined && typeof claims.exp === 'number') {
        if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
        verified.set(header, { identity: request.identity, expiresAt: claims.exp * 1000 });
      }
    } catch (err) {
      if (err instanceof HttpError) throw err;
      const message = err instanceof Error ? err.message : 'The access token is not valid.';
      request.log.info({ reason: message }, 'token rejected');
      // An expired token is the common case: its sign-in ended; anything else is not one of ours.
      throw new HttpError(401, { code: /expired/i.test(message) ? 'SIGN_IN_ENDED' : 'TOKEN_INVALID', message });
    }
    await refuseEnded(request);
  };
  // The statuses these answer are added to each route's declared responses (see app.ts).
  app.decorate('authenticate', Object.assign(authenticate, { [ANSWERS]: [401, 503] }));

  app.decorate('requireRole', (role: RealmRole): preHandlerAsyncHookHandler => {
    const requireRole = async function requireRole(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      await authenticate.call(this, request, reply);
      if (!request.identity.roles.includes(role)) {
        throw forbidden('ROLE_REQUIRED', `Only ${role}s can do this.`, { role });
      }
    };
    return Object.assign(requireRole, { [ANSWERS]: [401, 403, 503] });
  });
}

export const auth = fp(authPlugin, { name: 'tuber-auth', fastify: '5.x' });
