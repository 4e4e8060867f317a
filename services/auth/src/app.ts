import cookie from '@fastify/cookie';
import {
  createServiceApp,
  useAuth,
  useEventBus,
  useRateLimits,
  useRedis,
  type ServiceApp,
  useSessionRevocation,
} from '@tuber/kit';
import { BackgroundWork } from './background.js';
import type { AuthConfig } from './config.js';
import { defaultBlocklistFile, loadBlocklist } from './domain/blocklist.js';
import { FormGate } from './domain/form-gate.js';
import { MailCooldown } from './domain/mail-cooldown.js';
import { ResetTokens } from './domain/reset-tokens.js';
import { SessionStore, keycloakTokenEndpoint } from './domain/session-store.js';
import { AccountEventRelay, runAccountEventRelay } from './events/keycloak-events.js';
import { clearPendingProfileOnCreation } from './events/profile-created.js';
import { keycloakDirectory, type AccountDirectory } from './keycloak.js';
import { smtpMailer, type Mailer } from './mailer.js';
import { localeRoutes } from './routes/locale.js';
import { oidcRoutes } from './routes/oidc.js';
import { passwordRoutes } from './routes/password.js';
import { SESSION_COOKIE, sessionRoutes } from './routes/session.js';
import { formGateHook } from './routes/form-gate.js';
import { signupRoutes } from './routes/signup.js';

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
  // Only the kept browser sign-in's tuber_session cookie is read (routes/session.ts); nothing is signed with it.
  await app.register(cookie);
  const redis = await useRedis(app, config.REDIS_URL);
  // Tokens of ended sign-ins are refused on every route (issue 24, docs/adr/0056).
  const revokedSessions = useSessionRevocation(app, redis);
  const bus = await useEventBus(app, config.NATS_URL, 'auth');

  const directory = keycloakDirectory({
    baseUrl: config.KEYCLOAK_URL,
    realm: config.KEYCLOAK_REALM,
    clientId: config.KEYCLOAK_AUTH_CLIENT_ID,
    clientSecret: config.KEYCLOAK_AUTH_CLIENT_SECRET,
    webClientId: config.OIDC_WEB_CLIENT_ID,
    // Keycloak's one sign-in callback (docs/adr/0018); with nothing remembered it leads on to /login.
    afterVerifyUrl: `${config.PUBLIC_URL.replace(/\/$/, '')}/login/callback`,
  });
  const accounts = overrides.accounts ?? directory;
  if (!overrides.accounts) app.readiness.add('keycloak-admin', () => directory.check());
  const mailer = overrides.mailer ?? smtpMailer({ host: config.SMTP_HOST, port: config.SMTP_PORT, from: config.MAIL_FROM });

  // Limits are counted in Redis so they hold across instances. The general one lets requests by
  // while Redis is away; the strict ones (mail, accounts, reset tokens) refuse them with 503.
  await useRateLimits(app, {
    redis,
    nameSpace: 'auth:rate:',
    perAddress: { max: 120, timeWindow: '1 minute' },
    sessionCookie: SESSION_COOKIE,
  });
  // The account forms: free up to a few posts a minute per address, then a proof of work, then a
  // carrier-sized ceiling (docs/adr/0068). Closed while Redis is away.
  const gate = formGateHook(
    new FormGate({
      redis,
      secret: config.KEYCLOAK_AUTH_CLIENT_SECRET,
      freePerMinute: config.AUTH_RATE_LIMIT_PER_MINUTE,
      ceilingPerMinute: config.AUTH_FORM_CEILING_PER_MINUTE,
      baseCounter: config.PROOF_OF_WORK_BASE_COUNTER,
    }),
  );
  const background = overrides.background ?? new BackgroundWork();
  const cooldown = new MailCooldown(redis, config.MAIL_COOLDOWN_SECONDS);
  const blocklist = await loadBlocklist(config.PASSWORD_BLOCKLIST_FILE || defaultBlocklistFile());

  oidcRoutes(app, config);
  signupRoutes(app, { accounts, mailer, background, cooldown, blocklist, publicUrl: config.PUBLIC_URL, gate });
  passwordRoutes(app, {
    accounts,
    tokens: new ResetTokens(redis, config.RESET_TOKEN_TTL_S),
    mailer,
    background,
    cooldown,
    blocklist,
    revoked: revokedSessions,
    publicUrl: config.PUBLIC_URL,
    tokenTtlSeconds: config.RESET_TOKEN_TTL_S,
    gate,
  });
  localeRoutes(app, { accounts, redis });
  // The browser sign-in this service keeps (token-mediating backend), refreshed with the web client.
  sessionRoutes(app, {
    store: new SessionStore(redis),
    tokens: keycloakTokenEndpoint({ baseUrl: config.KEYCLOAK_URL, realm: config.KEYCLOAK_REALM, clientId: config.OIDC_WEB_CLIENT_ID }),
    publicUrl: config.PUBLIC_URL,
    revoked: revokedSessions,
  });
  await clearPendingProfileOnCreation(bus, accounts, redis);
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
