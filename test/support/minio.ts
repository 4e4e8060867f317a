// MinIO as its root user for tests and benchmarks that inspect or prepare the bucket directly
// (the services reach it as their own `media` user). Credentials from the environment test/run.sh
// exports, or the generated secrets of this checkout's servers.
import { Client } from 'minio';
import { secret } from './credentials.js';

export function minioRoot(): Client {
  return new Client({
    endPoint: '127.0.0.1',
    port: Number(process.env.MINIO_PORT ?? 9100),
    useSSL: false,
    accessKey: process.env.MINIO_ACCESS_KEY || secret('minio-root-user'),
    secretKey: process.env.MINIO_SECRET_KEY || secret('minio-root-password'),
  });
}
