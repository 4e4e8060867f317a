import multipart from '@fastify/multipart';
import {
  createServiceApp,
  useAuth,
  useEventBus,
  useMongo,
  useOutboxRelay,
  useRateLimits,
  useRedis,
  withLease,
  type ServiceApp,
  useSessionRevocation,
} from '@tuber/kit';
import type { MediaConfig } from './config.js';
import { decodeGate } from './domain/decode-gate.js';
import { imageDocumentLock, imageModel } from './domain/images.js';
import { cleanIncompleteUploads, finishRemovals, reconcileBucket, sweepOrphans } from './domain/lifecycle.js';
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
  const redis = await useRedis(app, config.REDIS_URL);
  // Tokens of ended sign-ins are refused on every route (issue 24, docs/adr/0056).
  useSessionRevocation(app, redis);
  await useRateLimits(app, { redis, nameSpace: 'media:rate:' });
  app.readiness.add('minio', () => store.check());
  // 5 photos per product, one per request: the per-request limit is one file of the per-file size.
  await app.register(multipart, { limits: { fileSize: config.MEDIA_MAX_FILE_BYTES, files: 1, fields: 10, parts: 20 } });
  const Image = imageModel(mongo);
  await Image.init();
  // Events not yet out (a bus outage, a crash) go out later; removals wait for theirs. Every write of
  // an image record with other writers (attach, removal, the outbox) takes its lock (ADR 0035).
  await useOutboxRelay(app, bus, [
    {
      model: Image,
      key: 'image_id',
      afterFlush: () => finishRemovals(Image, store, bus),
      lock: imageDocumentLock(redis),
    },
  ]);
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
  // Uploads whose files did not all get stored (MinIO away mid-upload, a crash): files, then record.
  const cleanUp = async () => {
    try {
      const removed = await cleanIncompleteUploads(Image, store, new Date(Date.now() - config.MEDIA_UPLOAD_STALE_S * 1000));
      if (removed) app.log.info({ removed }, 'removed uploads whose files were not all stored');
    } catch (err) {
      app.log.warn({ err }, 'clean-up of failed uploads could not finish (MinIO or the database away); will retry');
    }
  };
  // The bucket against the records, at start and now and then: whatever escaped the above.
  const reconcile = async () => {
    try {
      const found = await reconcileBucket(Image, store, bus, new Date(Date.now() - config.MEDIA_RECONCILE_GRACE_S * 1000));
      if (found.strayObjects || found.lostUnattached) app.log.info(found, 'bucket and records reconciled');
      if (found.lostAttached.length) app.log.error({ imageIds: found.lostAttached }, 'photos used by products are missing from the bucket');
      if (found.missingVariants.length) app.log.warn({ imageIds: found.missingVariants }, 'photos without their card or thumbnail variant');
    } catch (err) {
      app.log.warn({ err }, 'bucket reconciliation could not finish; will retry');
    }
  };
  // With several replicas (docs/adr/0039) each job runs in one replica at a time, under a lease in
  // Redis; the others skip that round. The lease outlives a run that dies with its replica by `ttlMs`.
  const leased = (job: string, work: () => Promise<void>, ttlMs: number) => async () => {
    const outcome = await withLease(redis, `media:lease:${job}`, work, { ttlMs }).catch((err: unknown) => {
      app.log.warn({ err, job }, 'could not take the lease of a scheduled job (Redis away); skipped this round');
      return { ran: false as const };
    });
    if (!outcome.ran) app.log.debug({ job }, 'another replica runs this job now; skipped this round');
  };
  const sweepOnce = leased('sweep', sweep, 5 * 60_000);
  const cleanUpOnce = leased('clean-up', cleanUp, 2 * 60_000);
  const reconcileOnce = leased('reconcile', reconcile, 15 * 60_000);
  const ownsBucket = mongo.name === config.MEDIA_BUCKET_DATABASE;
  if (!ownsBucket) app.log.info({ database: mongo.name }, "not the bucket's database: the bucket is not compared with these records");
  const timers = [
    setInterval(sweepOnce, config.MEDIA_SWEEP_INTERVAL_S * 1000),
    setInterval(cleanUpOnce, config.MEDIA_CLEANUP_INTERVAL_S * 1000),
    ...(ownsBucket ? [setInterval(reconcileOnce, config.MEDIA_RECONCILE_INTERVAL_S * 1000)] : []),
  ];
  for (const timer of timers) timer.unref();
  let starting: Promise<void> | undefined;
  app.addHook('onReady', async () => {
    // Behind the start, not in its way: the listing may take a while on a big bucket.
    starting = cleanUpOnce().then(() => (ownsBucket ? reconcileOnce() : undefined));
  });
  app.addHook('onClose', async () => {
    for (const timer of timers) clearInterval(timer);
    await starting;
  });
  return app;
}
