// keycloak-js is told Keycloak's endpoints when Keycloak shares the page's origin (no third-party-cookie probe
// before the silent check); a Keycloak elsewhere keeps the realm form, and with it the probe.
import { describe, expect, it } from 'vitest';
import { keycloakConfig } from '../../src/session/keycloakSession.js';

const settings = { url: 'https://market.example/auth', realm: 'tuber', client_id: 'tuber-web' };

describe('the keycloak-js configuration', () => {
  it('names the endpoints of a Keycloak on the page origin', () => {
    expect(keycloakConfig(settings, 'https://market.example')).toEqual({
      clientId: 'tuber-web',
      oidcProvider: {
        issuer: 'https://market.example/auth/realms/tuber',
        authorization_endpoint: 'https://market.example/auth/realms/tuber/protocol/openid-connect/auth',
        token_endpoint: 'https://market.example/auth/realms/tuber/protocol/openid-connect/token',
        end_session_endpoint: 'https://market.example/auth/realms/tuber/protocol/openid-connect/logout',
        userinfo_endpoint: 'https://market.example/auth/realms/tuber/protocol/openid-connect/userinfo',
      },
    });
  });

  it('takes a server path relative to the page, with or without a trailing slash', () => {
    const config = keycloakConfig({ ...settings, url: '/auth/' }, 'http://localhost:8080') as unknown as {
      oidcProvider: { token_endpoint: string };
    };
    expect(config.oidcProvider.token_endpoint).toBe('http://localhost:8080/auth/realms/tuber/protocol/openid-connect/token');
  });

  it('keeps the realm form for a Keycloak on another origin', () => {
    expect(keycloakConfig(settings, 'https://shop.example')).toEqual({
      url: 'https://market.example/auth',
      realm: 'tuber',
      clientId: 'tuber-web',
    });
  });
});
