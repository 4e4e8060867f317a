import {
  createServiceApp,
  useAuth,
  useEventBus,
  useMongo,
  useOutboxRelay,
  useRateLimits,
  useRedis,
  useSessionRevocation,
  redisDocumentLock,
  type ServiceApp,
} from '@tuber/kit';
import type { ModerationConfig } from './config.js';
import { keycloakAccounts, type AccountSwitch } from './domain/accounts.js';
import { sweepSuspensions } from './domain/expiry.js';
import { moderationModels } from './domain/models.js';
import { followTargets } from './events/projections.js';
import { deskRoutes } from './routes/desk.js';
import { reportRoutes } from './routes/reports.js';

export interface BuildOptions {
  /** Another account switch (tests); default Keycloak's admin API as the tuber-moderation client. */
  accounts?: AccountSwitch;
  /** Start the durable consumers, the outbox relay and the suspension sweep (default). */
  events?: boolean;
}

export async function buildApp(config: ModerationConfig, options: BuildOptions = {}): Promise<ServiceApp> {
  const app = await createServiceApp({
    name: 'moderation',
    logLevel: config.LOG_LEVEL,
    trustedProxies: config.TRUSTED_PROXIES,
    description: 'Reports, the moderation desk and its audit log (trust and safety)',
  });
  await useAuth(app, config);
  const mongo = await useMongo(app, config.MONGO_URL);
  const bus = await useEventBus(app, config.NATS_URL, 'moderation');
  const redis = await useRedis(app, config.REDIS_URL);
  // Tokens of ended sign-ins are refused on every route (docs/adr/0056); a suspension ends some itself.
  const revoked = useSessionRevocation(app, redis);
  // Reports per person, counted in Redis (refused while it is away).
  await useRateLimits(app, { redis, nameSpace: 'moderation:rate:' });
  const models = moderationModels(mongo);
  await Promise.all(Object.values(models).map((model) => model.init()));
  const accounts =
    options.accounts ?? keycloakAccounts({ baseUrl: config.KEYCLOAK_URL, realm: config.KEYCLOAK_REALM, clientSecret: config.KEYCLOAK_MODERATION_CLIENT_SECRET });
  if (!config.KEYCLOAK_MODERATION_CLIENT_SECRET && !options.accounts) {
    app.log.warn('KEYCLOAK_MODERATION_CLIENT_SECRET is empty: suspending and restoring accounts answer 503');
  }
  if (options.events !== false) {
    // The decisions' events go out with them; any left behind (a bus outage, a crash) go later.
    await useOutboxRelay(app, bus, [
      // Under the same locks the decisions take (FerretDB may lose one of two writes at once, ADR 0035).
      { model: models.ListingState as never, key: '_id', lock: redisDocumentLock(redis, '_id', (id) => `moderation:lock:target:product:${id}`) },
      { model: models.AccountState as never, key: '_id', lock: redisDocumentLock(redis, '_id', (id) => `moderation:lock:account:${id}`) },
    ]);
    await followTargets(bus, models);
    sweepSuspensions({ models, bus, accounts, revoked, log: app.log, redis }, (stop) => app.addHook('onClose', stop));
  }
  reportRoutes(app, { models, redis });
  deskRoutes(app, { models, bus, accounts, revoked, redis });
  return app;
}
