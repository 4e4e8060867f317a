import { Type } from '@sinclair/typebox';
import { HttpError, type ServiceApp } from '@tuber/kit';
import type { AuthConfig } from '../config.js';

const OidcSettings = Type.Object({
  url: Type.String({ description: 'Keycloak base URL for keycloak-js' }),
  realm: Type.String(),
  client_id: Type.String(),
  issuer: Type.String(),
  authorization_endpoint: Type.String(),
  end_session_endpoint: Type.String(),
});

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  end_session_endpoint: string;
}

/**
 * Shown by the shell when sign-in cannot start (Keycloak down or restarting); the spec's toast reads
 * "Error logging in: {message}". Signed-in users keep working meanwhile (tokens are checked with
 * the realm keys the services hold), so only signing in waits.
 */
export const SIGN_IN_UNAVAILABLE = 'Sign-in is unavailable right now. Please try again in a few minutes.';

/**
 * What the shell needs to start keycloak-js, checked against the realm's live discovery document:
 * so this answering 200 also says Keycloak answers, and the shell asks it again before sending
 * anyone to the login page.
 */
export function oidcRoutes(app: ServiceApp, config: AuthConfig) {
  const discoveryUrl = `${config.KEYCLOAK_URL}/realms/${config.KEYCLOAK_REALM}/.well-known/openid-configuration`;
  app.get(
    '/api/auth/oidc',
    {
      schema: {
        summary: 'Public OpenID Connect settings for the web client',
        response: { 200: OidcSettings, 503: Type.Ref('ErrorResponse') },
      },
    },
    async (request, reply) => {
      let discovery: Discovery;
      try {
        const response = await fetch(discoveryUrl, { signal: AbortSignal.timeout(3_000) });
        if (!response.ok) throw new Error(`discovery answered ${response.status}`);
        discovery = (await response.json()) as Discovery;
      } catch (err) {
        request.log.error({ err, discoveryUrl }, 'Keycloak discovery failed: sign-in is unavailable');
        // Never kept by a browser or cache: the next try must ask again.
        throw new HttpError(503, { code: 'SIGN_IN_UNAVAILABLE', message: SIGN_IN_UNAVAILABLE }, { 'retry-after': '60', 'cache-control': 'no-store' });
      }
      reply.header('cache-control', 'public, max-age=300');
      return {
        url: `${config.PUBLIC_URL.replace(/\/$/, '')}/auth`,
        realm: config.KEYCLOAK_REALM,
        client_id: config.OIDC_WEB_CLIENT_ID,
        issuer: discovery.issuer,
        authorization_endpoint: discovery.authorization_endpoint,
        end_session_endpoint: discovery.end_session_endpoint,
      };
    },
  );
}
