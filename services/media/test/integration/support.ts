import { serviceEnv } from '../../../../test/support/env.js';
import { mongoUrl, natsUrl, redisUrl, secret } from '../../../../test/support/credentials.js';

// A multipart/form-data body with one file part, as a browser sends a photo.
export function multipart(data: Buffer, name: string, options: { noFile?: boolean; type?: string } = {}) {
  const boundary = '----tuber-test';
  const part = options.noFile
    ? `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nno photo\r\n`
    : `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${options.type ?? 'image/jpeg'}\r\n\r\n`;
  const payload = options.noFile
    ? Buffer.from(`${part}--${boundary}--\r\n`)
    : Buffer.concat([Buffer.from(part), data, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * What the media app needs to run in-process against the running servers: the test user's
 * credentials (every right, any database), a database of the test's own, and MinIO's.
 */
export function mediaEnv(database: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...serviceEnv('media'),
    MONGO_URL: mongoUrl(database),
    NATS_URL: natsUrl(),
    REDIS_URL: redisUrl(),
    MINIO_ACCESS_KEY: process.env.MINIO_ACCESS_KEY || secret('minio-root-user'),
    MINIO_SECRET_KEY: process.env.MINIO_SECRET_KEY || secret('minio-root-password'),
    ...extra,
  };
}
