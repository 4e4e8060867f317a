// Uploads use bounded resources: a farmer's uploads are counted (per token subject, in Redis),
// only a few run at once per farmer and in all, a farmer cannot pile up photos no product uses,
// and while Redis is away uploads are refused rather than let through. The media app is built
// in-process with small limits against the running Keycloak, MongoDB, MinIO, NATS and Redis
// (Redis through a relay the test can cut).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import sharp from 'sharp';
import { loadConfig, type ServiceApp } from '@tuber/kit';
import { buildApp } from '../../src/app.js';
import { MediaConfig } from '../../src/config.js';
import { BUSY_MESSAGE } from '../../src/domain/decode-gate.js';
import { photo } from '../../../../test/support/api.js';
import { deleteAccount, signedInAccount, type TestAccount } from '../../../../test/support/accounts.js';
import { tcpProxy, type TcpProxy } from '../../../kit/test/support/tcp-proxy.js';
import { mediaEnv, multipart } from './support.js';

// A database of its own: the caps count this test's uploads only.
const env = mediaEnv('media_limits_test');
let redis: TcpProxy;
let app: ServiceApp;
let db: mongoose.Connection;
const accounts: TestAccount[] = [];
const farmer = async () => {
  const account = await signedInAccount({ role: 'farmer' });
  accounts.push(account);
  return account;
};

async function upload(account: TestAccount, data?: Buffer, name = 'yam.jpg') {
  const body = data ? multipart(data, name) : multipart(Buffer.alloc(0), '', { noFile: true });
  return app.inject({
    method: 'POST',
    url: '/api/media/images',
    payload: body.payload,
    headers: { 'content-type': body.contentType, authorization: `Bearer ${account.accessToken}` },
  });
}
const recordsOf = (account: TestAccount) => db.collection('image').countDocuments({ farmer_id: account.id });

beforeAll(async () => {
  const target = new URL(env.REDIS_URL!);
  redis = await tcpProxy(target.hostname, Number(target.port || 6379));
  app = await buildApp(
    loadConfig(MediaConfig, {
      ...env,
      REDIS_URL: redis.url(env.REDIS_URL!),
      MEDIA_UPLOAD_LIMIT: '6',
      MEDIA_UPLOAD_LIMIT_WINDOW_S: '600',
      MEDIA_MAX_UNATTACHED: '3',
      MEDIA_PARALLEL_UPLOADS_PER_FARMER: '3',
      MEDIA_DECODE_CONCURRENCY: '1',
      MEDIA_DECODE_QUEUE: '3',
    }),
  );
  await app.ready();
  db = await mongoose.createConnection(env.MONGO_URL!).asPromise();
});

afterAll(async () => {
  await app?.close();
  await db?.dropDatabase().catch(() => undefined);
  await db?.close();
  await redis?.close();
  await Promise.all(accounts.map((a) => deleteAccount(a.id)));
});

describe('per-farmer upload limit', () => {
  it('answers the 7th upload in the window with 429, saying when to try again; another farmer is not affected', async () => {
    const [ada, bola] = [await farmer(), await farmer()];
    // Attempts count whether or not they succeed (here: no file sent).
    for (let i = 0; i < 6; i++) expect((await upload(ada)).statusCode).toBe(400);
    const limited = await upload(ada, await photo(64, 48));
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/^Too many photo uploads\. Please wait \d+ seconds and try again\.$/);
    const wait = Number(limited.headers['retry-after']);
    expect(wait).toBeGreaterThan(500);
    expect(wait).toBeLessThanOrEqual(600);
    expect(await recordsOf(ada)).toBe(0);
    expect((await upload(bola)).statusCode).toBe(400);
  });
});

describe('photos no product uses', () => {
  it('are capped per farmer: the 4th is refused with 409 and a message, and nothing of it is stored', async () => {
    const account = await farmer();
    for (let i = 0; i < 3; i++) expect((await upload(account, await photo(64, 48, i * 40))).statusCode).toBe(201);
    const refused = await upload(account, await photo(64, 48));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'You already have 3 photos that are not in a product. Post a product with them first; photos no product uses are cleared after 24 hours.',
    );
    expect(await recordsOf(account)).toBe(3);
  });

  it('stay capped when uploads race each other', async () => {
    const account = await farmer();
    for (let i = 0; i < 2; i++) expect((await upload(account, await photo(64, 48, i * 50))).statusCode).toBe(201);
    // One place left, three uploads at once: each saw room for itself when it started.
    const photos = await Promise.all([0, 1, 2].map((i) => photo(64, 48, 100 + i * 50)));
    const answers = await Promise.all(photos.map((p) => upload(account, p)));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    expect(statuses.filter((s) => s === 201).length).toBeLessThanOrEqual(1);
    expect(await recordsOf(account)).toBeLessThanOrEqual(3);
  });
});

describe('uploads in progress', () => {
  it('are limited per farmer: beyond 3 at once, 429 with a message, before the photo is read', async () => {
    const account = await farmer();
    const big = await photo(1600, 1200);
    const answers = await Promise.all(Array.from({ length: 5 }, () => upload(account, big)));
    const limited = answers.filter((a) => a.statusCode === 429);
    expect(limited.length).toBeGreaterThanOrEqual(2);
    expect(limited[0]!.json().message).toBe('You are already uploading 3 photos at once. Wait until they have finished, then try again.');
    expect(Number(limited[0]!.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('are decoded a few at a time in all: when the queue is full, 503 "busy, try again"', async () => {
    // Photos that take a while to decode keep the one slot and the three queue places busy.
    // (24 MP of one colour: a small file, a lot of decoding.)
    const slow = await sharp({ create: { width: 6000, height: 4000, channels: 3, background: '#8b4513' } })
      .jpeg({ quality: 60 })
      .toBuffer();
    const farmers = await Promise.all([farmer(), farmer(), farmer()]);
    const answers = await Promise.all(farmers.flatMap((f) => [upload(f, slow), upload(f, slow)]));
    const busy = answers.filter((a) => a.statusCode === 503);
    expect(busy.length, answers.map((a) => a.statusCode).join()).toBeGreaterThanOrEqual(1);
    expect(busy[0]!.json()).toMatchObject({ code: 'PHOTO_SERVICE_BUSY', statusCode: 503, error: 'Service Unavailable', message: BUSY_MESSAGE });
    expect(Number(busy[0]!.headers['retry-after'])).toBeGreaterThan(0);
    expect(answers.filter((a) => a.statusCode === 201).length).toBeGreaterThanOrEqual(1);
  });
});

describe('while Redis is away', () => {
  it('refuses uploads with 503 and a message instead of letting them through unlimited, and recovers', async () => {
    const account = await farmer();
    await redis.cut();
    try {
      const refused = await upload(account, await photo(64, 48));
      expect(refused.statusCode).toBe(503);
      expect(refused.json().message).toBe(
        'Request limits cannot be checked right now, so this request was not accepted. Please try again in a minute.',
      );
      expect(await recordsOf(account)).toBe(0);
    } finally {
      await redis.restore();
    }
    let status = 0;
    for (let i = 0; i < 40 && status !== 201; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      status = (await upload(account, await photo(64, 48))).statusCode;
    }
    expect(status).toBe(201);
  });
});
