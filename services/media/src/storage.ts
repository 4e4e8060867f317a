// The product-images bucket in MinIO (S3 API).
import { Client } from 'minio';
import type { MediaConfig } from './config.js';

export interface ImageStore {
  put(fileName: string, data: Buffer, contentType: string): Promise<void>;
  remove(fileName: string): Promise<void>;
  check(): Promise<void>;
  publicUrl(fileName: string): string;
}

export function minioStore(config: MediaConfig): ImageStore {
  const client = new Client({
    endPoint: config.MINIO_ENDPOINT,
    port: config.MINIO_PORT,
    useSSL: config.MINIO_USE_SSL,
    accessKey: config.MINIO_ACCESS_KEY,
    secretKey: config.MINIO_SECRET_KEY,
  });
  const bucket = config.MINIO_BUCKET;
  const publicBase = `${config.PUBLIC_URL.replace(/\/$/, '')}/files/`;
  return {
    async put(fileName, data, contentType) {
      await client.putObject(bucket, fileName, data, data.length, {
        'Content-Type': contentType,
        'Cache-Control': 'public, max-age=31536000, immutable',
      });
    },
    async remove(fileName) {
      await client.removeObject(bucket, fileName);
    },
    async check() {
      if (!(await client.bucketExists(bucket))) throw new Error(`bucket ${bucket} does not exist`);
    },
    publicUrl: (fileName) => publicBase + encodeURIComponent(fileName),
  };
}
