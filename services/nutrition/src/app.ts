import { createServiceApp, useRedis, type ServiceApp } from '@tuber/kit';
import type { NutritionConfig } from './config.js';
import { lookupRoutes } from './routes/lookup.js';

export async function buildApp(config: NutritionConfig): Promise<ServiceApp> {
  const app = await createServiceApp({ name: 'nutrition', logLevel: config.LOG_LEVEL, description: 'Nutrition values for tuber types' });
  const redis = await useRedis(app, config.REDIS_URL);
  lookupRoutes(app, { redis, cacheTtlSeconds: config.NUTRITION_CACHE_TTL_S });
  return app;
}
