import {
  closeRedis,
  connectRedis,
  createServiceApp,
  useAuth,
  useEventBus,
  useMongo,
  lockOutboxWrites,
  useOutboxRelay,
  outboxNeedsSweep,
  useRateLimits,
  useRedis,
  withLease,
  type ServiceApp,
  useSessionRevocation,
} from '@tuber/kit';
import type { CatalogConfig } from './config.js';
import { productModel } from './domain/product.js';
import { postKeyModel } from './domain/post-keys.js';
import { productDocumentLock } from './domain/product-lock.js';
import { assignFeedBuckets, assignSellingUnits } from './domain/migrations.js';
import { ReadModel } from './domain/read-model.js';
import { backfillSearchTerms } from './domain/search-backfill.js';
import { projectionModels } from './domain/projections.js';
import { followProjections } from './events/projections.js';
import { followModeration } from './events/moderation.js';
import { orderStock } from './events/order-stock.js';
import { announceProducts } from './domain/announce.js';
import { farmerProductRoutes } from './routes/farmer-products.js';
import { productRoutes } from './routes/products.js';
import { databaseReadCounter, watchReadModel } from './plugins/read-model-metrics.js';
import { PriceStore } from './prices/model.js';
import { followPrices, type PriceFollower } from './prices/follow.js';
import { priceRoutes } from './prices/routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The catalog's Redis read model (benchmarks and tests wait for its rebuild). */
    readModel?: ReadModel;
    /** The price guide's consumers (tests wait for its figures). */
    prices?: PriceFollower;
  }
}

export interface BuildOptions {
  /**
   * Start the durable event consumers and the outbox relay (default). Off for an in-process copy on
   * a scratch database (benchmarks, tests): it would share the running catalog's durable consumers
   * and take its events, and the relay's periodic scan would load the database being measured.
   */
  events?: boolean;
  /** Serve hot reads from the Redis read model (default); off, everything is read from MongoDB. */
  readModel?: boolean;
}

export async function buildApp(config: CatalogConfig, options: BuildOptions = {}): Promise<ServiceApp> {
  const app = await createServiceApp({
    name: 'catalog',
    logLevel: config.LOG_LEVEL,
    trustedProxies: config.TRUSTED_PROXIES,
    description: 'Products and the buyer feed',
  });
  await useAuth(app, config);
  const mongo = await useMongo(app, config.MONGO_URL);
  const bus = await useEventBus(app, config.NATS_URL, 'catalog');
  const redis = await useRedis(app, config.REDIS_URL);
  // The read model's own Redis (ADR 0061), connecting in the background meanwhile (see below).
  const readModelRedis =
    config.CATALOG_READMODEL_REDIS_URL && config.CATALOG_READMODEL_REDIS_URL !== config.REDIS_URL
      ? await connectRedis(config.CATALOG_READMODEL_REDIS_URL, { background: true })
      : redis;
  if (readModelRedis !== redis) app.addHook('onClose', async () => closeRedis(readModelRedis));
  // Tokens of ended sign-ins are refused on every route (issue 24, docs/adr/0056).
  useSessionRevocation(app, redis);
  // Per-farmer limits on product posts, counted in Redis (refused while it is away).
  await useRateLimits(app, { redis, nameSpace: 'catalog:rate:' });
  const Product = productModel(mongo);
  // Every write of a product document, the outbox's own included, is one at a time (ADR 0030).
  lockOutboxWrites(Product, productDocumentLock(redis));
  const projections = projectionModels(mongo);
  // Idempotency-Keys of product posts (ADR 0059): its unique index is built before the first post.
  const PostKey = postKeyModel(mongo);
  await Promise.all([Product.init(), projections.Farmer.init(), projections.Image.init(), projections.FarmerRating.init(), PostKey.init()]);
  // The start-up migrations run in one replica at a time (docs/adr/0039): two numbering the same
  // products at once would take two ranges of feed numbers. A replica starting meanwhile waits for
  // the one at it, then finds each migration recorded (`once`) and goes on.
  const migrations = await withLease(
    redis,
    `catalog:lease:migrations:${mongo.name}`,
    async () => {
      const numbered = await assignFeedBuckets(mongo);
      if (numbered) app.log.info({ numbered }, 'products given their feed bucket');
      const perKg = await assignSellingUnits(mongo);
      if (perKg) app.log.info({ products: perKg }, 'products from before selling units now sold per kg (ADR 0030)');
      await backfillSearchTerms(mongo).then((n) => n && app.log.info({ products: n }, 'search words computed (ADR 0029)'));
    },
    { ttlMs: 15 * 60_000, waitMs: 5 * 60_000, pollMs: 500 },
  );
  if (!migrations.ran) {
    throw new Error(
      `another catalog replica has been running the start-up migrations for 5 minutes (lease catalog:lease:migrations:${mongo.name} in Redis); start this one again once it is up`,
    );
  }
  // The hot reads from Redis, kept by our writes and events, rebuilt from MongoDB when needed (ADR 0023),
  // in a Redis of their own with its own memory budget (ADR 0061): a full copy refuses only its own
  // writes, never the sign-ins, limits and locks on the main one. It is not part of /ready: without it
  // every read is served from MongoDB. Unset (an older deployment), the copy shares the main Redis.
  const readModel = new ReadModel(readModelRedis as never, Product, {
    prefix: config.READ_MODEL_PREFIX,
    log: app.log,
    enabled: options.readModel !== false,
    onDatabaseRead: databaseReadCounter(),
  });
  if (options.readModel !== false) watchReadModel(readModel);
  app.decorate('readModel', readModel);
  readModel.start();
  app.addHook('onClose', async () => readModel.stop());
  // Events not yet out (a bus outage, a crash) go out later; a deleted product's record goes once its event is out.
  const priceStore = new PriceStore(mongo.db!);
  let prices: PriceFollower | undefined;
  if (options.events !== false) {
    await useOutboxRelay(app, bus, [
      { model: Product, key: 'product_id', afterFlush: () => Product.deleteMany({ deleting: true, 'outbox.0': { $exists: false } }) },
    ]);
    await followProjections(bus, projections, Product, readModel, redis);
    // Moderators' decisions (issue 26, docs/adr/0071): hidden listings and suspended farmers' listings withheld.
    await followModeration(bus, { projections, Product, readModel, redis, log: app.log });
    // Products from before ProductCreated carried what the orders service keeps: announced once
    // each (the relay publishes them); then stock follows accepted and cancelled requests (ADR 0033).
    const announced = await announceProducts(Product, redis, app.log);
    if (announced) {
      app.log.info({ products: announced }, 'products announced once to the orders service (ADR 0033)');
      outboxNeedsSweep(); // recorded in bulk: the relay publishes them at its next tick
    }
    const stopOrderStock = await orderStock({ bus, Product, readModel, redis, log: app.log }).start();
    app.addHook('onClose', async () => stopOrderStock());
    // The price guide (issue 27, docs/adr/0072).
    prices = await followPrices(bus, { store: priceStore, Product, redis, log: app.log, onClose: (stop) => app.addHook('onClose', stop) });
    app.decorate('prices', prices);
  }
  // /mine is declared before /:productId so the static path wins.
  farmerProductRoutes(app, { Product, PostKey, connection: mongo, projections, bus, readModel, redis });
  productRoutes(app, { Product, connection: mongo, readModel, pageMax: config.FEED_PAGE_MAX });
  priceRoutes(app, { store: priceStore, ...(prices ? { follower: prices } : {}) });
  return app;
}
