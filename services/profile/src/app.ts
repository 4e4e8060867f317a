import { createServiceApp, useAuth, useEventBus, useMongo, useOutboxRelay, type ServiceApp } from '@tuber/kit';
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
  await useOutboxRelay(app, bus, [
    { model: models.Buyer, key: 'user_id' },
    { model: models.Farmer, key: 'user_id' },
  ]);
  meRoutes(app, { models, bus });
  updateRoutes(app, { models, bus });
  farmerRoutes(app, models);
  return app;
}
