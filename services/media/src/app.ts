import multipart from '@fastify/multipart';
import { createServiceApp, useAuth, useEventBus, useMongo, useOutboxRelay, useRateLimits, useRedis, type ServiceApp } from '@tuber/kit';
import type { MediaConfig } from './config.js';
import { decodeGate } from './domain/decode-gate.js';
import { imageModel } from './domain/images.js';
import { finishRemovals, sweepOrphans } from './domain/lifecycle.js';
import { followProducts } from './events/product-images.js';
import { imageRoutes } from './routes/images.js';
import { minioStore, type ImageStore } from './storage.js';

export async function buildApp(config: MediaConfig, store: ImageStore = minioStore(config)): Promise<ServiceApp> {
  const app = await createServiceApp({
    name: 'media',
    logLevel: config.LOG_LEVEL,
    trustedProxies: config.TRUSTED_PROXIES,
    description: 'Product photos',
  });
  await useAuth(app, config);
  const mongo = await useMongo(app, config.MONGO_URL);
  const bus = await useEventBus(app, config.NATS_URL, 'media');
  // Per-farmer upload limits are counted in Redis; while it is away, uploads are refused (503).
  await useRateLimits(app, { redis: await useRedis(app, config.REDIS_URL), nameSpace: 'media:rate:' });
  app.readiness.add('minio', () => store.check());
  // 5 photos per product, one per request: the per-request limit is one file of the per-file size.
  await app.register(multipart, { limits: { fileSize: config.MEDIA_MAX_FILE_BYTES, files: 1, fields: 10, parts: 20 } });
  const Image = imageModel(mongo);
  await Image.init();
  // Events not yet out (a bus outage, a crash) go out later; removals wait for theirs.
  await useOutboxRelay(app, bus, [{ model: Image, key: 'image_id', afterFlush: () => finishRemovals(Image, store, bus) }]);
  imageRoutes(app, {
    Image,
    store,
    bus,
    gate: decodeGate(config.MEDIA_DECODE_CONCURRENCY, config.MEDIA_DECODE_QUEUE),
    maxFileBytes: config.MEDIA_MAX_FILE_BYTES,
    maxPixels: config.MEDIA_MAX_PIXELS,
    maxUnattached: config.MEDIA_MAX_UNATTACHED,
    maxParallelPerFarmer: config.MEDIA_PARALLEL_UPLOADS_PER_FARMER,
    uploadLimit: { max: config.MEDIA_UPLOAD_LIMIT, windowSeconds: config.MEDIA_UPLOAD_LIMIT_WINDOW_S },
    orphanGraceSeconds: config.MEDIA_ORPHAN_GRACE_S,
  });
  await followProducts(bus, Image, store);

  const sweep = async () => {
    try {
      const removed = await sweepOrphans(Image, store, bus, new Date(Date.now() - config.MEDIA_ORPHAN_GRACE_S * 1000));
      if (removed) app.log.info({ removed }, 'removed uploads no product took');
    } catch (err) {
      app.log.warn({ err }, 'orphan sweep failed; will retry');
    }
  };
  const timer = setInterval(sweep, config.MEDIA_SWEEP_INTERVAL_S * 1000);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
  return app;
}
