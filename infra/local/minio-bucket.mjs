// Creates the product-images bucket if missing and lets anyone read its objects (not list them).
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
await client.setBucketPolicy(
  bucket,
  JSON.stringify({
    Version: '2012-10-17',
    Statement: [{ Effect: 'Allow', Principal: { AWS: ['*'] }, Action: ['s3:GetObject'], Resource: [`arn:aws:s3:::${bucket}/*`] }],
  }),
);
