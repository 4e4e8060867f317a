import { createServiceApp, flushAllOutboxes, useAuth, useEventBus, useMongo, type ServiceApp } from '@tuber/kit';
import type { ProfileConfig } from './config.js';
import { profileModels } from './domain/models.js';
import { farmerRoutes } from './routes/farmers.js';
import { meRoutes } from './routes/me.js';
import { updateRoutes } from './routes/update.js';

export async function buildApp(config: ProfileConfig): Promise<ServiceApp> {
  const app = await createServiceApp({ name: 'profile', logLevel: config.LOG_LEVEL, description: 'Buyer and farmer profiles' });
  await useAuth(app, config);
  const mongo = await useMongo(app, config.MONGO_URL);
  const bus = await useEventBus(app, config.NATS_URL, 'profile');
  const models = profileModels(mongo);
  await Promise.all([models.Buyer.init(), models.Farmer.init()]);
  const republished = (await flushAllOutboxes(models.Buyer, 'user_id', bus)) + (await flushAllOutboxes(models.Farmer, 'user_id', bus));
  if (republished) app.log.info({ republished }, 'published events left over from a previous run');
  meRoutes(app, { models, bus });
  updateRoutes(app, { models, bus });
  farmerRoutes(app, models);
  return app;
}
