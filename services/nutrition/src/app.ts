import { createServiceApp, useRedis, type ServiceApp } from '@tuber/kit';
import type { NutritionConfig } from './config.js';
import { lookupRoutes } from './routes/lookup.js';

export async function buildApp(config: NutritionConfig): Promise<ServiceApp> {
  const app = await createServiceApp({
    name: 'nutrition',
    logLevel: config.LOG_LEVEL,
    trustedProxies: config.TRUSTED_PROXIES,
    description: 'Nutrition values for tuber types',
  });
  const redis = await useRedis(app, config.REDIS_URL);
  const upstreamConfigured = Boolean(
    config.NUTRITION_UPSTREAM_URL && config.NUTRITION_UPSTREAM_APP_ID && config.NUTRITION_UPSTREAM_APP_KEY,
  );
  app.log.info(
    { upstream: upstreamConfigured },
    upstreamConfigured ? 'nutrition provider configured' : 'answering from the embedded USDA data only',
  );
  lookupRoutes(app, {
    redis,
    cacheTtlSeconds: config.NUTRITION_CACHE_TTL_S,
    ...(upstreamConfigured
      ? {
          upstream: {
            url: config.NUTRITION_UPSTREAM_URL,
            appId: config.NUTRITION_UPSTREAM_APP_ID,
            appKey: config.NUTRITION_UPSTREAM_APP_KEY,
            timeoutMs: config.NUTRITION_UPSTREAM_TIMEOUT_MS,
          },
        }
      : {}),
  });
  return app;
}
