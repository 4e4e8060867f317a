import { Type } from '@sinclair/typebox';
import { BaseConfig, NatsConfig, OidcConfig, RedisConfig, portConfig } from '@tuber/kit';

export const AuthConfig = Type.Composite([
  BaseConfig,
  portConfig(4001),
  OidcConfig,
  RedisConfig,
  NatsConfig,
  Type.Object({
    PUBLIC_URL: Type.String({ default: 'http://localhost:8080' }),
    /** The browser's OIDC client (public, PKCE). */
    OIDC_WEB_CLIENT_ID: Type.String({ default: 'tuber-web' }),
  }),
]);
export type AuthConfig = typeof AuthConfig.static;
