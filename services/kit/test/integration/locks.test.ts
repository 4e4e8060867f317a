// Kit's Redis write locks against the real Redis and our MongoDB-wire server: one holder at a
// time, re-entrant within one call chain, busy after the wait, released only by their holder; and
// with the outbox's writes under the document lock, a write racing the outbox is never lost
// (FerretDB 1.x writes a whole document back, so without it one of the two writes can vanish).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mongoose, { Schema } from 'mongoose';
import pino from 'pino';
import { randomUUID } from 'node:crypto';
import { ImageRemoved } from '@tuber/contracts';
import { mongoUrl as testMongoUrl, natsUrl as testNatsUrl, redisUrl } from '../../../../test/support/credentials.js';
import {
  EventBus,
  OutboxField,
  closeRedis,
  connectRedis,
  flushOutbox,
  lockOutboxWrites,
  pendingEvent,
  redisDocumentLock,
  tryLock,
  withDocumentLock,
  withLocks,
  type RedisClient,
} from '../../src/index.js';

const log = pino({ level: 'silent' });
let redis: RedisClient;
let connection: mongoose.Connection;
let bus: EventBus;
const run = randomUUID().slice(0, 8);
const key = (name: string) => `tuber-test:lock:${run}:${name}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const busy = () => new Error('busy');

beforeAll(async () => {
  redis = await connectRedis(redisUrl());
  connection = await mongoose.createConnection(testMongoUrl('kit_locks_test')).asPromise();
  bus = await EventBus.connect(testNatsUrl(), 'locks-test', log);
});
afterAll(async () => {
  await bus?.close();
  await connection?.dropDatabase();
  await connection?.close();
  if (redis) await closeRedis(redis);
});

describe('withLocks', () => {
  it('lets one holder in at a time, and every waiter in after it', async () => {
    let inside = 0;
    let most = 0;
    let entered = 0;
    await Promise.all(
      Array.from({ length: 8 }, () =>
        withLocks(
          redis,
          [key('one')],
          async () => {
            inside += 1;
            most = Math.max(most, inside);
            await sleep(15);
            inside -= 1;
            entered += 1;
          },
          { busy, waitMs: 10_000 },
        ),
      ),
    );
    expect(most).toBe(1);
    expect(entered).toBe(8);
    expect(await redis.exists(key('one'))).toBe(0);
  });

  it('is re-entrant within one call chain, and takes only the keys it does not hold yet', async () => {
    const answer = await withLocks(
      redis,
      [key('a')],
      () =>
        withLocks(
          redis,
          [key('a'), key('b')],
          async () => {
            expect(await redis.exists([key('a'), key('b')])).toBe(2);
            return 'nested';
          },
          { busy, waitMs: 200 },
        ),
      { busy, waitMs: 200 },
    );
    expect(answer).toBe('nested');
    expect(await redis.exists([key('a'), key('b')])).toBe(0);
  });

  it('throws what busy() makes once the wait is over, and releases what it took meanwhile', async () => {
    const release = await tryLock(redis, key('held'));
    expect(release).not.toBeNull();
    expect(await tryLock(redis, key('held'))).toBeNull();
    const started = Date.now();
    await expect(
      withLocks(redis, [key('free'), key('held')], async () => 'never', { busy: () => new Error('still held'), waitMs: 150 }),
    ).rejects.toThrow('still held');
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(await redis.exists(key('free'))).toBe(0);
    await release!();
    expect(await redis.exists(key('held'))).toBe(0);
  });

  it('does not release or renew a lock that expired and was taken by another holder', async () => {
    await withLocks(
      redis,
      [key('expiring')],
      async () => {
        // As if the holder had stalled past its TTL: the key is gone and another holder takes it.
        await redis.del(key('expiring'));
        expect(await redis.set(key('expiring'), 'someone-else', { NX: true, PX: 5_000 })).toBe('OK');
        await sleep(200); // several renewal turns of the 150 ms TTL
      },
      { busy, ttlMs: 150 },
    );
    expect(await redis.get(key('expiring'))).toBe('someone-else');
    expect(await redis.pTTL(key('expiring'))).toBeGreaterThan(4_000); // not renewed to 150 ms
    await redis.del(key('expiring'));
  });

  it('renews its keys while the holder works, however long past their TTL', async () => {
    let stolen: unknown = 'not tried';
    await withLocks(
      redis,
      [key('long')],
      async () => {
        await sleep(1_000); // more than three TTLs
        stolen = await tryLock(redis, key('long'));
      },
      { busy, ttlMs: 300 },
    );
    expect(stolen, 'nobody else could take it while its holder worked').toBeNull();
    expect(await redis.exists(key('long'))).toBe(0);
  });

  it('frees the keys of a holder that died (no release, no renewal) within their TTL', async () => {
    // A killed replica's lock: its token in Redis with the TTL of its last renewal, and nobody renewing.
    await redis.set(key('orphan'), 'killed-replica', { PX: 400 });
    const started = Date.now();
    const got = await withLocks(redis, [key('orphan')], async () => 'mine', { busy, waitMs: 3_000 });
    expect(got).toBe('mine');
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('renews what tryLock took until it is released', async () => {
    const release = await tryLock(redis, key('try'), 300);
    expect(release).not.toBeNull();
    await sleep(1_000);
    expect(await tryLock(redis, key('try'))).toBeNull();
    await release!();
    expect(await redis.exists(key('try'))).toBe(0);
  });
});

describe('the outbox under a document lock', () => {
  it('never loses a write that races the outbox or another writer of the same document', async () => {
    const Doc = connection.model(
      'LockedDoc',
      new Schema({ doc_id: String, outbox: OutboxField }, { collection: 'locked_doc', versionKey: false, strict: false }),
    );
    await Doc.init();
    lockOutboxWrites(
      Doc,
      redisDocumentLock(redis, 'doc_id', (id) => key(`doc:${id}`)),
    );
    const event = (id: string, n: number) =>
      pendingEvent(
        ImageRemoved,
        { image_id: id, farmer_id: 'f', reason: 'never-attached', removed_at: new Date().toISOString() },
        `locks-test:${id}:${n}`,
      );
    const ids = Array.from({ length: 30 }, () => randomUUID());
    await Doc.insertMany(ids.map((doc_id) => ({ doc_id, outbox: [event(doc_id, 0)] })));

    // For every document at once: the outbox publishes and takes out its event, and three writers
    // each set a field of their own and record an event (a delete marking a product, a rename copied
    // onto it, a stock change). On FerretDB 1.x, the same writes without the lock lose most of the
    // marks (measured: 28 of 30 documents lost at least one).
    const WRITERS = [1, 2, 3];
    await Promise.all(
      ids.flatMap((doc_id) => [
        flushOutbox(Doc, { doc_id }, bus),
        ...WRITERS.map((n) =>
          withDocumentLock(Doc, { doc_id }, () =>
            Doc.updateOne({ doc_id }, { $set: { [`mark${n}`]: true }, $push: { outbox: event(doc_id, n) } }),
          ),
        ),
      ]),
    );
    const docs = await Doc.find({ doc_id: { $in: ids } }).lean<Record<string, unknown>[]>();
    const lost = docs.filter((doc) => WRITERS.some((n) => doc[`mark${n}`] !== true)).map((doc) => doc.doc_id);
    expect(lost, 'documents that lost a mark').toEqual([]);
    for (const doc of docs) {
      const waiting = (doc.outbox as { message_id: string }[]).map((e) => e.message_id).sort();
      // Every writer's event is still waiting to be published (the outbox only took out the first one).
      expect(waiting).toEqual(WRITERS.map((n) => `locks-test:${doc.doc_id}:${n}`));
    }
  });
});
