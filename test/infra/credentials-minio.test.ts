// The media service signs in to MinIO as its own user `media`, limited to the product-images
// bucket (infra/minio/media-policy.json, docs/adr/0017): it stores, reads and removes images there
// and can do nothing else. Anyone may read an object (the gateway's /files/), nobody may list.
import { Client } from 'minio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secret } from '../support/credentials.js';

const env = process.env;
const bucket = env.MINIO_BUCKET ?? 'product-images';
const port = Number(env.MINIO_PORT ?? 9100);
const client = (accessKey: string, secretKey: string) => new Client({ endPoint: '127.0.0.1', port, useSSL: false, accessKey, secretKey });

const root = client(env.MINIO_ACCESS_KEY || secret('minio-root-user'), env.MINIO_SECRET_KEY || secret('minio-root-password'));
const media = client('media', secret('minio-media-password'));
const stamp = Date.now();
const otherBucket = `credentials-test-${stamp}`;
const object = `credentials-test-${stamp}.txt`;

beforeAll(async () => {
  await root.makeBucket(otherBucket);
  await root.putObject(otherBucket, 'private.txt', Buffer.from('not for media'));
});

afterAll(async () => {
  await root.removeObject(otherBucket, 'private.txt').catch(() => undefined);
  await root.removeBucket(otherBucket).catch(() => undefined);
  await root.removeObject(bucket, object).catch(() => undefined);
});

describe('the media user in its own bucket', () => {
  it('stores, reads and removes an object in product-images, which anyone can then read but not list', async () => {
    await media.putObject(bucket, object, Buffer.from('hello'), 5, { 'Content-Type': 'text/plain' });
    const stream = await media.getObject(bucket, object);
    let body = '';
    for await (const chunk of stream) body += chunk;
    expect(body).toBe('hello');
    expect(await media.bucketExists(bucket)).toBe(true);

    const anonymous = await fetch(`http://127.0.0.1:${port}/${bucket}/${object}`);
    expect(anonymous.status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/${bucket}/`)).status).toBe(403);

    await media.removeObject(bucket, object);
    expect((await fetch(`http://127.0.0.1:${port}/${bucket}/${object}`)).status).toBe(404);
  });
});

describe('the media user outside its bucket', () => {
  it('sees no other bucket, and cannot list, read or write one', async () => {
    expect((await media.listBuckets()).map((b) => b.name)).toEqual([bucket]);
    await expect(media.getObject(otherBucket, 'private.txt')).rejects.toThrow(/Access Denied/i);
    await expect(media.putObject(otherBucket, 'forged.txt', Buffer.from('x'))).rejects.toThrow(/Access Denied/i);
    const listing = media.listObjectsV2(otherBucket, '', true);
    await expect(
      new Promise((resolve, reject) => {
        listing.on('data', resolve);
        listing.on('end', resolve);
        listing.on('error', reject);
      }),
    ).rejects.toThrow(/Access Denied/i);
    const names: string[] = [];
    for await (const item of root.listObjectsV2(otherBucket, '', true)) names.push((item as { name: string }).name);
    expect(names).toEqual(['private.txt']);
  });

  it('cannot administer: no new bucket, no bucket policy, no deleting the bucket', async () => {
    await expect(media.makeBucket(`credentials-media-${stamp}`)).rejects.toThrow(/Access Denied/i);
    await expect(media.setBucketPolicy(bucket, JSON.stringify({ Version: '2012-10-17', Statement: [] }))).rejects.toThrow(/Access Denied/i);
    await expect(media.removeBucket(bucket)).rejects.toThrow(/Access Denied/i);
    expect(await root.bucketExists(`credentials-media-${stamp}`)).toBe(false);
    expect(JSON.parse(await root.getBucketPolicy(bucket)).Statement).toHaveLength(1);
  });

  it('is refused with a wrong secret', async () => {
    await expect(client('media', 'not-the-secret-key').bucketExists(bucket)).rejects.toThrow(/signature|denied|forbidden/i);
  });
});
