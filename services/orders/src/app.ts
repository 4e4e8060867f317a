import { createServiceApp, useAuth, useEventBus, useMongo, useOutboxRelay, useRateLimits, useRedis, type ServiceApp } from '@tuber/kit';
import type { OrdersConfig } from './config.js';
import { productModel } from './domain/products.js';
import { useInsights } from './insights/index.js';

export async function buildApp(config: OrdersConfig): Promise<ServiceApp> {
  const app = await createServiceApp({
    name: 'orders',
    logLevel: config.LOG_LEVEL,
    trustedProxies: config.TRUSTED_PROXIES,
    description: 'Order requests between buyers and farmers',
  });
  await useAuth(app, config);
  const mongo = await useMongo(app, config.MONGO_URL);
  const bus = await useEventBus(app, config.NATS_URL, 'orders');
  const redis = await useRedis(app, config.REDIS_URL);
  await useRateLimits(app, { redis, nameSpace: 'orders:rate:' });
  const products = productModel(mongo);
  await products.init();
  await useOutboxRelay(app, bus, []);
  await useInsights(app, { mongo, redis, bus, products });
  return app;
}
