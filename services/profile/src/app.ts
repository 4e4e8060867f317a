import {
  createServiceApp,
  useAuth,
  useEventBus,
  useMongo,
  useOutboxRelay,
  useRateLimits,
  useRedis,
  type ServiceApp,
  useSessionRevocation,
  smsSender,
} from '@tuber/kit';
import type { ProfileConfig } from './config.js';
import { dropEmailUniqueness, profileModels } from './domain/models.js';
import { profileDocumentLock } from './domain/profile-lock.js';
import { followIdentity } from './events/identity.js';
import { farmerRoutes } from './routes/farmers.js';
import { meRoutes } from './routes/me.js';
import { phoneRoutes } from './routes/phone.js';
import { updateRoutes } from './routes/update.js';

export async function buildApp(config: ProfileConfig): Promise<ServiceApp> {
  const app = await createServiceApp({
    name: 'profile',
    logLevel: config.LOG_LEVEL,
    trustedProxies: config.TRUSTED_PROXIES,
    description: 'Buyer and farmer profiles',
  });
  await useAuth(app, config);
  const mongo = await useMongo(app, config.MONGO_URL);
  const bus = await useEventBus(app, config.NATS_URL, 'profile');
  const redis = await useRedis(app, config.REDIS_URL);
  // Tokens of ended sign-ins are refused on every route (issue 24, docs/adr/0056).
  useSessionRevocation(app, redis);
  // Per-user limit on reading farmers' contact details, counted in Redis (refused while it is away).
  await useRateLimits(app, { redis, nameSpace: 'profile:rate:' });
  const models = profileModels(mongo);
  await Promise.all([models.Buyer.init(), models.Farmer.init(), models.RemovedAccount.init()]);
  const dropped = await dropEmailUniqueness(models);
  if (dropped.length) app.log.info({ collections: dropped }, 'profiles are no longer unique by e-mail');
  // Every writer of a profile document takes its lock (domain/profile-lock.ts), the outbox too.
  const lock = profileDocumentLock(redis);
  await useOutboxRelay(app, bus, [
    { model: models.Buyer, key: 'user_id', lock },
    { model: models.Farmer, key: 'user_id', lock },
  ]);
  await followIdentity(bus, models, app.log);
  meRoutes(app, { models, bus });
  updateRoutes(app, { models, bus, redis });
  // Phone codes by SMS (issue 26, docs/adr/0070): Termii's API, or the local catcher that speaks it.
  const sms = smsSender(config);
  if (!sms) app.log.warn('SMS_API_URL is empty: phone codes cannot be sent (the code route answers 503 SMS_UNAVAILABLE)');
  phoneRoutes(app, { models, bus, redis, sms });
  farmerRoutes(app, models);
  return app;
}
