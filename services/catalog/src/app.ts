import { createServiceApp, useAuth, useEventBus, useMongo, useOutboxRelay, useRateLimits, useRedis, type ServiceApp } from '@tuber/kit';
import type { CatalogConfig } from './config.js';
import { feedDayModel, productModel } from './domain/product.js';
import { backfillFeedHours } from './domain/migrations.js';
import { projectionModels } from './domain/projections.js';
import { followProjections } from './events/projections.js';
import { farmerProductRoutes } from './routes/farmer-products.js';
import { productRoutes } from './routes/products.js';

export async function buildApp(config: CatalogConfig): Promise<ServiceApp> {
  const app = await createServiceApp({
    name: 'catalog',
    logLevel: config.LOG_LEVEL,
    trustedProxies: config.TRUSTED_PROXIES,
    description: 'Products and the buyer feed',
  });
  await useAuth(app, config);
  const mongo = await useMongo(app, config.MONGO_URL);
  const bus = await useEventBus(app, config.NATS_URL, 'catalog');
  // Per-farmer limits on product posts, counted in Redis (refused while it is away).
  await useRateLimits(app, { redis: await useRedis(app, config.REDIS_URL), nameSpace: 'catalog:rate:' });
  const Product = productModel(mongo);
  const FeedDay = feedDayModel(mongo);
  const projections = projectionModels(mongo);
  await Promise.all([Product.init(), FeedDay.init(), projections.Farmer.init(), projections.Image.init()]);
  const backfilled = await backfillFeedHours(Product, FeedDay);
  if (backfilled) app.log.info({ backfilled }, 'products given their feed hour');
  // Events not yet out (a bus outage, a crash) go out later; a deleted product's record goes once its event is out.
  await useOutboxRelay(app, bus, [
    { model: Product, key: 'product_id', afterFlush: () => Product.deleteMany({ deleting: true, 'outbox.0': { $exists: false } }) },
  ]);
  await followProjections(bus, projections, Product);
  // /mine is declared before /:productId so the static path wins.
  farmerProductRoutes(app, { Product, FeedDay, projections, bus });
  productRoutes(app, { Product, FeedDay, pageMax: config.FEED_PAGE_MAX });
  return app;
}
