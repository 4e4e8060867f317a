// Verifies Keycloak's RS256 access tokens against the realm's JWKS (issuer, audience, expiry)
// and gives routes `app.authenticate` and `app.requireRole(role)` pre-handlers.
import fp from 'fastify-plugin';
import jwt, { type TokenOrHeader } from '@fastify/jwt';
import buildGetJwks from 'get-jwks';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { HttpError, forbidden } from '../errors.js';

export type Role = 'buyer' | 'farmer';

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
    requireRole: (role: Role) => preHandlerAsyncHookHandler;
  }
  interface FastifyRequest {
    identity: Identity;
  }
}

export interface AuthOptions {
  /** Internal base URL of Keycloak, e.g. http://127.0.0.1:8180/auth */
  keycloakUrl: string;
  realm: string;
  /** Expected `iss` (the public realm URL the browser used). */
  issuer: string;
  audience: string;
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
  if (!claims.sub) throw new HttpError(401, 'The access token has no subject. Sign in again.');
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
  const jwks = buildGetJwks({
    jwksPath: '/protocol/openid-connect/certs',
    ttl: 10 * 60_000,
  });

  await app.register(jwt, {
    decode: { complete: true },
    // The key is looked up by `kid` from the realm's JWKS reached over the internal URL;
    // the issuer claim itself is checked against the configured public issuer.
    secret: async (_request: FastifyRequest, token: TokenOrHeader) => {
      const header = 'header' in token ? token.header : token;
      return jwks.getPublicKey({ domain: realmBase, kid: header.kid, alg: header.alg });
    },
    verify: { algorithms: ['RS256'], allowedIss: options.issuer, allowedAud: options.audience },
    messages: {
      noAuthorizationInHeaderMessage: 'Sign in to continue: this request needs a bearer access token.',
      authorizationTokenExpiredMessage: 'Your session has expired. Sign in again.',
      authorizationTokenInvalid: (err: Error) => `The access token is not valid: ${err.message}`,
      authorizationTokenUntrusted: 'The access token was not issued by this realm.',
    },
  });

  app.decorateRequest('identity', null as unknown as Identity);

  const authenticate: preHandlerAsyncHookHandler = async (request: FastifyRequest) => {
    try {
      const claims = await request.jwtVerify<TokenClaims>();
      request.identity = identityFromClaims(claims);
    } catch (err) {
      if (err instanceof HttpError) throw err;
      const message = err instanceof Error ? err.message : 'The access token is not valid.';
      request.log.info({ reason: message }, 'token rejected');
      throw new HttpError(401, message);
    }
  };
  app.decorate('authenticate', authenticate);

  app.decorate('requireRole', (role: Role): preHandlerAsyncHookHandler => {
    return async function requireRole(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      await authenticate.call(this, request, reply);
      if (!request.identity.roles.includes(role)) {
        throw forbidden(`Only ${role}s can do this.`);
      }
    };
  });
}

export const auth = fp(authPlugin, { name: 'tuber-auth', fastify: '5.x' });
