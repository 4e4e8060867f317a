// Creates the product-images bucket if missing and lets anyone read its objects, not list them
// (infra/minio/public-read.json, also used by docker-compose.yml); run with the root user.
import { readFileSync } from 'node:fs';
import { Client } from 'minio';

const bucket = process.env.MINIO_BUCKET ?? 'product-images';
const client = new Client({
  endPoint: '127.0.0.1',
  port: Number(process.env.MINIO_PORT ?? 9100),
  useSSL: false,
  accessKey: process.env.MINIO_ACCESS_KEY,
  secretKey: process.env.MINIO_SECRET_KEY,
});

if (!(await client.bucketExists(bucket))) await client.makeBucket(bucket);
const policy = readFileSync(new URL('../minio/public-read.json', import.meta.url), 'utf8').replaceAll('product-images', bucket);
await client.setBucketPolicy(bucket, JSON.stringify(JSON.parse(policy)));
