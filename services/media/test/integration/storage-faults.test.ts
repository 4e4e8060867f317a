// Photo storage going away (issue 10, R4): an upload succeeds whole or fails clearly (503 with a
// message, within a bound), and what a failed upload left behind is cleaned up, files first, then
// the record, so that no object is left without a record and no record without its objects. The
// media app is built in-process against the running servers, with MinIO behind a relay the test
// can cut (or a server that accepts connections and never answers); the bucket comparison runs on
// a scratch bucket of its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import { Client } from 'minio';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { loadConfig, type ServiceApp } from '@tuber/kit';
import { buildApp } from '../../src/app.js';
import { MediaConfig } from '../../src/config.js';
import { STORE_DOWN_MESSAGE } from '../../src/routes/images.js';
import { photo } from '../../../../test/support/api.js';
import { deleteAccount, signedInAccount, type TestAccount } from '../../../../test/support/accounts.js';
import { tcpProxy, type TcpProxy } from '../../../kit/test/support/tcp-proxy.js';
import { mediaEnv, multipart } from './support.js';

const database = 'media_store_faults_test';
const env = mediaEnv(database);
const bucket = env.MINIO_BUCKET!;
const minio = new Client({
  endPoint: env.MINIO_ENDPOINT!,
  port: Number(env.MINIO_PORT),
  useSSL: false,
  accessKey: env.MINIO_ACCESS_KEY!,
  secretKey: env.MINIO_SECRET_KEY!,
});
let relay: TcpProxy;
let app: ServiceApp;
let db: mongoose.Connection;
let farmer: TestAccount;

/** An image record of an upload that never finished storing its files (what the clean-up looks for). */
const unstoredRecord = (imageId: string, objectName: string, tag: string, extra: Record<string, unknown> = {}) => ({
  image_id: imageId,
  farmer_id: farmer.id,
  file_name: `${Date.now()}_${tag}.jpg`,
  object_name: objectName,
  content_type: 'image/jpeg',
  bytes: 3,
  width: 1,
  height: 1,
  product_id: null,
  removing: false,
  created_at: new Date(),
  stored: false,
  ...extra,
  outbox: [],
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function upload(target: ServiceApp, name = 'yam.jpg', hue = 30) {
  const body = multipart(await photo(320, 240, hue), name);
  return target.inject({
    method: 'POST',
    url: '/api/media/images',
    payload: body.payload,
    headers: { 'content-type': body.contentType, authorization: `Bearer ${farmer.accessToken}` },
  });
}

async function objectExists(name: string, inBucket = bucket): Promise<boolean> {
  try {
    await minio.statObject(inBucket, name);
    return true;
  } catch {
    return false;
  }
}

const images = () => db.collection('image');
const names = (objectName: string) => [objectName, `${objectName}.card.webp`, `${objectName}.thumb.webp`];

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await check()) return true;
    await sleep(250);
  }
  return check();
}

beforeAll(async () => {
  relay = await tcpProxy(env.MINIO_ENDPOINT!, Number(env.MINIO_PORT));
  app = await buildApp(
    loadConfig(MediaConfig, {
      ...env,
      MINIO_PORT: String(relay.port),
      MEDIA_STORE_TIMEOUT_MS: '2000',
      MEDIA_CLEANUP_INTERVAL_S: '1',
      MEDIA_UPLOAD_STALE_S: '3',
    }),
  );
  await app.ready();
  db = await mongoose.createConnection(env.MONGO_URL!).asPromise();
  farmer = await signedInAccount({ role: 'farmer' });
});

afterAll(async () => {
  await app?.close();
  await db?.dropDatabase().catch(() => undefined);
  await db?.close();
  await relay?.close().catch(() => undefined);
  if (farmer) await deleteAccount(farmer.id);
});

describe('while MinIO is away', () => {
  it('an upload answers 503 with a message at once, keeps nothing, and uploads work again when MinIO is back', async () => {
    await relay.cut();
    let refused;
    const started = Date.now();
    try {
      refused = await upload(app, 'while down.jpg');
    } finally {
      await relay.restore();
    }
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ code: 'PHOTO_STORE_UNAVAILABLE', statusCode: 503, error: 'Service Unavailable', message: STORE_DOWN_MESSAGE });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Its record named the files until they were known to be gone; then it went too.
    expect(await until(async () => (await images().countDocuments({ farmer_id: farmer.id, stored: false })) === 0, 10_000)).toBe(true);

    const stored = await upload(app, 'after.jpg');
    expect(stored.statusCode).toBe(201);
    const { url, card_url, thumb_url, image_id } = stored.json();
    for (const address of [url, card_url, thumb_url]) expect((await fetch(address)).status, address).toBe(200);
    expect(await images().findOne({ image_id })).toMatchObject({ stored: true });
  });

  it('the clean-up removes the files a failed upload left, then its record, once MinIO answers again', async () => {
    // What an upload cut off half-way leaves: a record not stored, marked failed, and some of its files.
    const objectName = `${randomBytes(16).toString('hex')}.jpg`;
    const imageId = randomUUID();
    await relay.cut();
    try {
      await images().insertOne(unstoredRecord(imageId, objectName, 'half', { failed_at: new Date() }));
      await minio.putObject(bucket, objectName, Buffer.from('abc'));
      await minio.putObject(bucket, `${objectName}.thumb.webp`, Buffer.from('abc'));
      // MinIO out of reach for the app: the clean-up tries, fails, and keeps the record.
      await sleep(2_500);
      expect(await images().countDocuments({ image_id: imageId })).toBe(1);
    } finally {
      await relay.restore();
    }
    expect(await until(async () => (await images().countDocuments({ image_id: imageId })) === 0, 10_000)).toBe(true);
    for (const name of names(objectName)) expect(await objectExists(name), name).toBe(false);
  });

  it('an upload whose process died half-way (record never stored, not marked) is cleaned up once it is stale', async () => {
    const objectName = `${randomBytes(16).toString('hex')}.jpg`;
    const imageId = randomUUID();
    await images().insertOne(unstoredRecord(imageId, objectName, 'crashed'));
    await minio.putObject(bucket, objectName, Buffer.from('abc'));
    // Younger than the 3 s an upload may take: left alone.
    await sleep(1_500);
    expect(await images().countDocuments({ image_id: imageId })).toBe(1);
    expect(await until(async () => (await images().countDocuments({ image_id: imageId })) === 0, 10_000)).toBe(true);
    expect(await objectExists(objectName)).toBe(false);
  });
});

describe('a MinIO that accepts connections but never answers', () => {
  let silent: Server;
  const held = new Set<Socket>();
  let stuck: ServiceApp;
  beforeAll(async () => {
    silent = createServer((socket) => {
      held.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    stuck = await buildApp(
      loadConfig(MediaConfig, {
        ...env,
        MINIO_PORT: String((silent.address() as AddressInfo).port),
        MEDIA_STORE_TIMEOUT_MS: '1500',
      }),
    );
    await stuck.ready();
  });
  afterAll(async () => {
    // The app may still be connecting while it closes: drop every connection after it has closed,
    // or the silent server would wait for them for ever.
    const closing = stuck?.close();
    const dropping = setInterval(() => held.forEach((socket) => socket.destroy()), 100);
    await closing;
    const closed = new Promise((resolve) => silent?.close(resolve));
    await closed;
    clearInterval(dropping);
  });

  it('gets a 503 within the store timeout, not a hang', async () => {
    const started = Date.now();
    const answer = await upload(stuck, 'hang.jpg');
    const took = Date.now() - started;
    expect(answer.statusCode).toBe(503);
    expect(answer.json().message).toBe(STORE_DOWN_MESSAGE);
    expect(took).toBeLessThan(5_000);
  });
});

describe('comparing the bucket with the records', () => {
  // A scratch bucket owned by this test's database, so that nobody else's objects are judged.
  const scratch = `media-reconcile-${randomBytes(4).toString('hex')}`;
  const ownerDatabase = 'media_reconcile_test';
  let owner: ServiceApp;
  let ownerDb: mongoose.Connection;
  const ownerImages = () => ownerDb.collection('image');
  const stray = `${randomBytes(16).toString('hex')}.jpg`;
  const lostUnattached = randomUUID();
  const lostAttached = randomUUID();
  let kept: { image_id: string; url: string };

  const record = (imageId: string, productId: string | null) => ({
    image_id: imageId,
    farmer_id: farmer.id,
    file_name: `${Date.now()}_${imageId}.jpg`,
    object_name: `${randomBytes(16).toString('hex')}.jpg`,
    content_type: 'image/jpeg',
    bytes: 3,
    width: 1,
    height: 1,
    product_id: productId,
    removing: false,
    created_at: new Date(),
    stored: true,
    outbox: [],
  });

  beforeAll(async () => {
    await minio.makeBucket(scratch);
    const ownerEnv = {
      ...mediaEnv(ownerDatabase),
      MINIO_BUCKET: scratch,
      MEDIA_BUCKET_DATABASE: ownerDatabase,
      MEDIA_RECONCILE_GRACE_S: '2',
      MEDIA_RECONCILE_INTERVAL_S: '1',
    };
    owner = await buildApp(loadConfig(MediaConfig, ownerEnv));
    await owner.ready();
    ownerDb = await mongoose.createConnection(ownerEnv.MONGO_URL!).asPromise();
    const uploaded = await upload(owner, 'kept.jpg', 90);
    expect(uploaded.statusCode).toBe(201);
    kept = uploaded.json();
    await minio.putObject(scratch, stray, Buffer.from('nobody'));
    await minio.putObject(scratch, `${stray}.card.webp`, Buffer.from('nobody'));
    await ownerImages().insertMany([record(lostUnattached, null), record(lostAttached, 'some-product')]);
  });
  afterAll(async () => {
    await owner?.close();
    await ownerDb?.dropDatabase().catch(() => undefined);
    await ownerDb?.close();
    const left = await new Promise<string[]>((resolve, reject) => {
      const found: string[] = [];
      minio
        .listObjectsV2(scratch, '', true)
        .on('data', (o) => o.name && found.push(o.name))
        .on('error', reject)
        .on('end', () => resolve(found));
    }).catch(() => [] as string[]);
    if (left.length) await minio.removeObjects(scratch, left);
    await minio.removeBucket(scratch).catch(() => undefined);
  });

  it('removes objects no record names and unattached records without their photo, keeps the rest', async () => {
    const done = await until(
      async () => !(await objectExists(stray, scratch)) && (await ownerImages().countDocuments({ image_id: lostUnattached })) === 0,
      15_000,
    );
    expect(done).toBe(true);
    expect(await objectExists(`${stray}.card.webp`, scratch)).toBe(false);
    // A product's photo that went missing is for a person to look at: kept (and logged).
    expect(await ownerImages().countDocuments({ image_id: lostAttached })).toBe(1);
    // A whole upload is untouched: its record and its three files.
    const keptRecord = await ownerImages().findOne({ image_id: kept.image_id });
    expect(keptRecord).toMatchObject({ stored: true });
    for (const name of names(keptRecord!.object_name as string)) expect(await objectExists(name, scratch), name).toBe(true);
  });
});
