import { Type } from '@sinclair/typebox';
import { BaseConfig, NatsConfig, OidcConfig, RedisConfig, mongoConfig, portConfig } from '@tuber/kit';

export const MediaConfig = Type.Composite([
  BaseConfig,
  portConfig(4004),
  OidcConfig,
  NatsConfig,
  RedisConfig,
  mongoConfig('media'),
  Type.Object({
    MINIO_ENDPOINT: Type.String({ default: '127.0.0.1' }),
    MINIO_PORT: Type.Integer({ default: 9100 }),
    MINIO_USE_SSL: Type.Boolean({ default: false }),
    MINIO_ACCESS_KEY: Type.String({ minLength: 3 }),
    MINIO_SECRET_KEY: Type.String({ minLength: 8 }),
    MINIO_BUCKET: Type.String({ default: 'product-images' }),
    /** Public base URL the browser uses; images are served under <PUBLIC_URL>/files/. */
    PUBLIC_URL: Type.String({ default: 'http://localhost:8080' }),
    MEDIA_MAX_FILE_BYTES: Type.Integer({ minimum: 1024, default: 10 * 1024 * 1024 }),
    /** Width × height (× frames) an upload may have: 24 MP, a 6000 × 4000 camera photo. */
    MEDIA_MAX_PIXELS: Type.Integer({ minimum: 1, default: 24_000_000 }),
    /** Uploads decoded at the same time, and uploads allowed to wait for a turn; more answer 503. */
    MEDIA_DECODE_CONCURRENCY: Type.Integer({ minimum: 1, default: 2 }),
    MEDIA_DECODE_QUEUE: Type.Integer({ minimum: 0, default: 16 }),
    /** Uploads one farmer may have in progress at once (the add-product page sends up to 5 together); more answer 429. */
    MEDIA_PARALLEL_UPLOADS_PER_FARMER: Type.Integer({ minimum: 1, default: 5 }),
    /** Photos a farmer may have uploaded that no product uses yet. */
    MEDIA_MAX_UNATTACHED: Type.Integer({ minimum: 1, default: 30 }),
    /** Uploads per farmer per window (counted in Redis by token subject, refused while Redis is away). */
    MEDIA_UPLOAD_LIMIT: Type.Integer({ minimum: 1, default: 60 }),
    MEDIA_UPLOAD_LIMIT_WINDOW_S: Type.Integer({ minimum: 1, default: 600 }),
    /** Uploads no product took within this time are removed. */
    MEDIA_ORPHAN_GRACE_S: Type.Integer({ minimum: 1, default: 24 * 3600 }),
    MEDIA_SWEEP_INTERVAL_S: Type.Integer({ minimum: 1, default: 600 }),
    /** Any one call to MinIO (a put, a removal) gives up after this long; the upload then answers 503. */
    MEDIA_STORE_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 15_000 }),
    /** Uploads whose files did not all get stored are cleaned up (files, then record) this often. */
    MEDIA_CLEANUP_INTERVAL_S: Type.Integer({ minimum: 1, default: 30 }),
    /** An upload still not stored after this long is taken as abandoned (a crash mid-upload) and cleaned up. */
    MEDIA_UPLOAD_STALE_S: Type.Integer({ minimum: 1, default: 120 }),
    /** The bucket is compared with the records at start and this often (objects without a record, records without objects). */
    MEDIA_RECONCILE_INTERVAL_S: Type.Integer({ minimum: 1, default: 3600 }),
    /** Only objects and records older than this are judged by that comparison (uploads under way are left alone). */
    MEDIA_RECONCILE_GRACE_S: Type.Integer({ minimum: 1, default: 3600 }),
    /**
     * The database whose records the bucket's objects belong to. Only an app using that database
     * compares the bucket with its records (an app on a scratch database, as tests build, would
     * take every other object for a stray one).
     */
    MEDIA_BUCKET_DATABASE: Type.String({ default: 'media' }),
  }),
]);
export type MediaConfig = typeof MediaConfig.static;
