import { Type } from '@sinclair/typebox';
import { BaseConfig, NatsConfig, OidcConfig, RedisConfig, SmsConfig, mongoConfig, portConfig } from '@tuber/kit';

export const OrdersConfig = Type.Composite([
  BaseConfig,
  portConfig(4006),
  OidcConfig,
  NatsConfig,
  RedisConfig,
  mongoConfig('orders'),
  SmsConfig,
  Type.Object({
    /** Where notification e-mails go (Mailpit locally). */
    SMTP_HOST: Type.String({ default: '127.0.0.1' }),
    SMTP_PORT: Type.Integer({ default: 1025 }),
    MAIL_FROM: Type.String({ default: 'Tuber Market <noreply@tuber.local>' }),
    /** The address people open the site at; links in e-mails start with it. */
    PUBLIC_URL: Type.String({ default: 'http://localhost:8080' }),
    /**
     * New-request mails to one farmer (issue 24): this many single mails in a window, the rest of the
     * window's requests in one digest at its end (docs/adr/0060).
     */
    REQUEST_MAILS_PER_WINDOW: Type.Integer({ minimum: 1, default: 3 }),
    REQUEST_MAIL_WINDOW_S: Type.Integer({ minimum: 10, default: 600 }),
  }),
]);
export type OrdersConfig = typeof OrdersConfig.static;
