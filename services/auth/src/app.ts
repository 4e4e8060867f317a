import { fileURLToPath } from 'node:url';
import rateLimit from '@fastify/rate-limit';
import { createServiceApp, useAuth, useEventBus, useRedis, type ServiceApp } from '@tuber/kit';
import { BackgroundWork } from './background.js';
import type { AuthConfig } from './config.js';
import { loadBlocklist } from './domain/blocklist.js';
import { MailCooldown } from './domain/mail-cooldown.js';
import { ResetTokens } from './domain/reset-tokens.js';
import { AccountEventRelay, runAccountEventRelay } from './events/keycloak-events.js';
import { clearPendingProfileOnCreation } from './events/profile-created.js';
import { keycloakDirectory, type AccountDirectory } from './keycloak.js';
import { smtpMailer, type Mailer } from './mailer.js';
import { oidcRoutes } from './routes/oidc.js';
import { passwordRoutes } from './routes/password.js';
import { signupRoutes } from './routes/signup.js';

/** The list the realm's passwordBlacklist policy names, in this checkout (the image sets PASSWORD_BLOCKLIST_FILE). */
const DEFAULT_BLOCKLIST_FILE = fileURLToPath(new URL('../../../infra/keycloak/password-blacklists/common-passwords.txt', import.meta.url));

export interface AuthOverrides {
  accounts?: AccountDirectory;
  mailer?: Mailer;
  /** Lets tests wait for the mail a route sends after answering. */
  background?: BackgroundWork;
}

export async function buildApp(config: AuthConfig, overrides: AuthOverrides = {}): Promise<ServiceApp> {
  const app = await createServiceApp({
    name: 'auth',
    logLevel: config.LOG_LEVEL,
    trustedProxies: config.TRUSTED_PROXIES,
    description: 'Sign-up, verification and password reset in front of Keycloak',
  });
  await useAuth(app, config);
  const redis = await useRedis(app, config.REDIS_URL);
  const bus = await useEventBus(app, config.NATS_URL, 'auth');

  const directory = keycloakDirectory({
    baseUrl: config.KEYCLOAK_URL,
    realm: config.KEYCLOAK_REALM,
    clientId: config.KEYCLOAK_AUTH_CLIENT_ID,
    clientSecret: config.KEYCLOAK_AUTH_CLIENT_SECRET,
    webClientId: config.OIDC_WEB_CLIENT_ID,
    afterVerifyUrl: `${config.PUBLIC_URL.replace(/\/$/, '')}/login`,
  });
  const accounts = overrides.accounts ?? directory;
  if (!overrides.accounts) app.readiness.add('keycloak-admin', () => directory.check());
  const mailer = overrides.mailer ?? smtpMailer({ host: config.SMTP_HOST, port: config.SMTP_PORT, from: config.MAIL_FROM });

  // Limits are counted in Redis so they hold across instances; if Redis is away, requests pass.
  await app.register(rateLimit, {
    global: true,
    max: 120,
    timeWindow: '1 minute',
    redis,
    nameSpace: 'auth:rate:',
    skipOnError: true,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      error: 'Too Many Requests',
      message: `Too many attempts. Please wait ${Math.ceil(context.ttl / 1000)} seconds and try again.`,
    }),
  });
  const strict = { max: config.AUTH_RATE_LIMIT_PER_MINUTE, timeWindow: '1 minute' };
  const background = overrides.background ?? new BackgroundWork();
  const cooldown = new MailCooldown(redis, config.MAIL_COOLDOWN_SECONDS);
  const blocklist = await loadBlocklist(config.PASSWORD_BLOCKLIST_FILE || DEFAULT_BLOCKLIST_FILE, !config.PASSWORD_BLOCKLIST_FILE);
  if (blocklist.size === 0) app.log.warn('no common-password list: only Keycloak refuses common passwords (after sign-up has answered)');

  oidcRoutes(app, config);
  signupRoutes(app, { accounts, mailer, background, cooldown, blocklist, publicUrl: config.PUBLIC_URL, rateLimit: strict });
  passwordRoutes(app, {
    accounts,
    tokens: new ResetTokens(redis, config.RESET_TOKEN_TTL_S),
    mailer,
    background,
    cooldown,
    blocklist,
    publicUrl: config.PUBLIC_URL,
    tokenTtlSeconds: config.RESET_TOKEN_TTL_S,
    rateLimit: strict,
  });
  await clearPendingProfileOnCreation(bus, accounts);
  // Account deletions and e-mail changes made in Keycloak reach the other services as events.
  const relay = runAccountEventRelay(
    new AccountEventRelay({ events: directory, accounts: directory, bus, redis, log: app.log }),
    app.log,
    config.ACCOUNT_EVENTS_POLL_MS,
  );
  app.addHook('onClose', async () => relay.stop());
  // Added last, so it runs first on close (after in-flight requests, before Redis and NATS go):
  // mail already promised to someone is still sent during a graceful shutdown.
  app.addHook('onClose', async () => background.settled());
  return app;
}
