import { Type } from '@sinclair/typebox';
import { BaseConfig, NatsConfig, OidcConfig, RedisConfig, mongoConfig, portConfig } from '@tuber/kit';

export const ModerationConfig = Type.Composite([
  BaseConfig,
  portConfig(4007),
  OidcConfig,
  NatsConfig,
  RedisConfig,
  mongoConfig('moderation'),
  Type.Object({
    /**
     * The secret of the `tuber-moderation` Keycloak client, whose service account may enable and disable users
     * and end their sign-ins (suspensions, docs/adr/0071). Empty: suspending answers 503.
     */
    KEYCLOAK_MODERATION_CLIENT_SECRET: Type.String({ default: '' }),
  }),
]);
export type ModerationConfig = typeof ModerationConfig.static;
