import { Type } from '@sinclair/typebox';
import { BaseConfig, NatsConfig, OidcConfig, RedisConfig, mongoConfig, portConfig } from '@tuber/kit';

export const OrdersConfig = Type.Composite([
  BaseConfig,
  portConfig(4006),
  OidcConfig,
  NatsConfig,
  RedisConfig,
  mongoConfig('orders'),
  Type.Object({
    /** Where notification e-mails go (Mailpit locally). */
    SMTP_HOST: Type.String({ default: '127.0.0.1' }),
    SMTP_PORT: Type.Integer({ default: 1025 }),
    MAIL_FROM: Type.String({ default: 'Tuber Market <noreply@tuber.local>' }),
    /** The address people open the site at; links in e-mails start with it. */
    PUBLIC_URL: Type.String({ default: 'http://localhost:8080' }),
  }),
]);
export type OrdersConfig = typeof OrdersConfig.static;
