import { createServiceApp, useAuth, useEventBus, useMongo, type ServiceApp } from '@tuber/kit';
import type { ProfileConfig } from './config.js';
import { profileModels } from './domain/models.js';
import { meRoutes } from './routes/me.js';

export async function buildApp(config: ProfileConfig): Promise<ServiceApp> {
  const app = await createServiceApp({ name: 'profile', logLevel: config.LOG_LEVEL, description: 'Buyer and farmer profiles' });
  await useAuth(app, config);
  const mongo = await useMongo(app, config.MONGO_URL);
  await useEventBus(app, config.NATS_URL, 'profile');
  const models = profileModels(mongo);
  await Promise.all([models.Buyer.init(), models.Farmer.init()]);
  meRoutes(app, models);
  return app;
}
