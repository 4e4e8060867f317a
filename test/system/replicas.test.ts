// Services as N stateless replicas (issue 14, docs/adr/0039), against the running stack: a second
// process of catalog and of media, started here the way `REPLICAS=2 app.sh start` starts replica 1
// (the environment `app.sh env` prints, on spare ports), shares the durable JetStream consumers with
// the stack's own process. Products posted through the gateway: each event is acknowledged once
// across the two processes of a service, both media processes handle some, and every effect (the
// photo attached in media, the read-model entry in the catalog) is there once. Then the lease that
// keeps scheduled work in one replica at a time, with two holders against the real Redis.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, openSync, closeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { EVENT_STREAM } from '@tuber/contracts';
import { closeRedis, connectMongo, connectRedis, withLease, type RedisClient } from '@tuber/kit';
import { NUMBER_BLOCK, orderModels, renumberDuplicates } from '../../services/orders/src/domain/models.js';
import { api, eventually, imageForm, photo } from '../support/api.js';
import { deleteAccount, signedInAccount, type TestAccount } from '../support/accounts.js';
import { freePort } from '../support/ports.js';
import { mongoUrl, natsUrl, readModelRedisUrl, redisUrl } from '../support/credentials.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const state = process.env.TUBER_STATE ? resolve(repo, process.env.TUBER_STATE) : join(repo, '.run');
const logs = join(state, 'logs');
const PRODUCTS = 8;
const READ_MODEL = 'catalog:rm:';

/** The environment app.sh gives a replica of `service` (infra/local/app.sh env SERVICE 1). */
function replicaEnv(service: string): Record<string, string> {
  const text = execFileSync('bash', [join(repo, 'infra/local/app.sh'), 'env', service, '1'], { cwd: repo, encoding: 'utf8' });
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) env[line.slice(0, at)] = line.slice(at + 1);
  }
  return env;
}

interface Replica {
  service: string;
  port: number;
  metricsPort: number;
  process: ChildProcess;
  log: string;
}
const replicas: Replica[] = [];

async function startReplica(service: 'catalog' | 'media'): Promise<Replica> {
  const [port, metricsPort] = [await freePort(), await freePort()];
  mkdirSync(logs, { recursive: true });
  const log = join(logs, `test-replicas-${service}-1.log`);
  const out = openSync(log, 'a');
  const child = spawn(process.execPath, [join(repo, `services/${service}/dist/server.js`)], {
    cwd: repo,
    env: { ...process.env, ...replicaEnv(service), PORT: String(port), METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' },
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  const replica = { service, port, metricsPort, process: child, log };
  replicas.push(replica);
  const ready = await eventually(
    async () => {
      if (child.exitCode !== null) return 'exited';
      return fetch(`http://127.0.0.1:${port}/ready`).then(
        (r) => (r.ok ? 'ready' : 'starting'),
        () => 'starting',
      );
    },
    (s) => s !== 'starting',
    60_000,
  );
  expect(ready, `${service} replica 1 is ready (its log: ${log})`).toBe('ready');
  return replica;
}

async function stopReplica(replica: Replica): Promise<void> {
  const child = replica.process;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

/** How many ProductCreated deliveries a replica's consumer `durable` has handled (its Prometheus endpoint). */
async function handledBy(replica: Replica, durable: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${replica.metricsPort}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    // kit's histogram tuber.event.age: one count per delivery its handler started.
    if (!line.startsWith('tuber_event_age_count{')) continue;
    if (!line.includes(`consumer="${durable}"`)) continue;
    total += Number(line.trim().split(/\s+/).at(-1));
  }
  return total;
}

let farmer: TestAccount;
let media: mongoose.Connection;
let redis: RedisClient;
/** The catalog's read model lives in a Redis of its own (docs/adr/0061). */
let readModelRedis: RedisClient;
let nats: NatsConnection;
/** Every acknowledgement seen on the bus: consumer, stream sequence. */
const acks: { consumer: string; seq: number }[] = [];
let catalog1: Replica;
let media1: Replica;

beforeAll(async () => {
  [catalog1, media1] = await Promise.all([startReplica('catalog'), startReplica('media')]);
  farmer = await signedInAccount({ role: 'farmer', businessName: 'Replica Farms', location: 'Ibadan', tuber: ['yam'] });
  expect((await api('POST', '/api/profile/me', { token: farmer.accessToken })).status).toBe(201);
  media = await mongoose.createConnection(mongoUrl('media')).asPromise();
  redis = await connectRedis(redisUrl());
  readModelRedis = await connectRedis(readModelRedisUrl());
  const url = new URL(natsUrl());
  nats = await connect({
    servers: `${url.hostname}:${url.port}`,
    user: decodeURIComponent(url.username),
    pass: decodeURIComponent(url.password),
    name: 'replicas-test',
  });
  // A consumer acknowledges a message by publishing to its reply subject,
  // $JS.ACK.<stream>.<consumer>.<deliveries>.<stream seq>.… (with a domain and account hash first in the newer form).
  const sub = nats.subscribe('$JS.ACK.>');
  void (async () => {
    for await (const m of sub) {
      const body = m.string();
      if (body !== '' && body !== '+ACK') continue;
      const tokens = m.subject.split('.');
      const at = tokens.indexOf(EVENT_STREAM);
      if (at < 0) continue;
      acks.push({ consumer: tokens[at + 1]!, seq: Number(tokens[at + 3]) });
    }
  })();
});

afterAll(async () => {
  await Promise.all(replicas.map(stopReplica));
  await nats?.drain().catch(() => undefined);
  if (redis) await closeRedis(redis);
  if (readModelRedis) await closeRedis(readModelRedis);
  await media?.close();
  if (farmer) await deleteAccount(farmer.id);
});

describe('two processes of catalog and media behind the running stack', () => {
  it('handles each ProductCreated once across the replicas, both media processes take some, and every effect is there once', async () => {
    const [mediaBefore, catalogBefore] = [
      await handledBy(media1, 'media-attach-images'),
      await handledBy(catalog1, 'catalog-read-model-created'),
    ];
    const posted: { productId: string; imageIds: string[] }[] = [];
    for (let i = 0; i < PRODUCTS; i++) {
      // A product has 2 to 5 photos.
      const imageIds: string[] = [];
      for (const j of [0, 1]) {
        const upload = await api('POST', '/api/media/images', {
          token: farmer.accessToken,
          form: imageForm(await photo(320, 240, 20 * i + 7 * j), `yam-${i}-${j}.jpg`),
        });
        expect(upload.status, JSON.stringify(upload.body)).toBe(201);
        imageIds.push(upload.body.image_id);
      }
      const answer = await eventually(
        () =>
          api('POST', '/api/catalog/products', {
            token: farmer.accessToken,
            json: {
              product_name: `Replica yam ${i}`,
              description: 'White yam from the replica test, firm and freshly dug',
              price: 1500,
              kg: 10,
              tuber_type: 'yam',
              image_ids: imageIds,
              cultural: 'Served at the New Yam festival',
            },
          }),
        (a) => a.status !== 409,
      );
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      posted.push({ productId: answer.body.product_id, imageIds });
    }

    // Media: each photo attached to its own product, and to nothing else.
    const allImages = posted.flatMap((p) => p.imageIds);
    const attached = await eventually(
      () =>
        media
          .collection('image')
          .find({ image_id: { $in: allImages } }, { projection: { image_id: 1, product_id: 1 } })
          .toArray(),
      (docs) => docs.filter((d) => d.product_id).length === 2 * PRODUCTS,
      30_000,
    );
    expect(attached).toHaveLength(2 * PRODUCTS);
    for (const { productId, imageIds } of posted) {
      expect(
        attached
          .filter((d) => d.product_id === productId)
          .map((d) => d.image_id)
          .sort(),
      ).toEqual([...imageIds].sort());
    }
    // Catalog read model: each product once in the farmer's set, and its entry there.
    const ids = posted.map((p) => p.productId);
    const listed = await eventually(
      async () =>
        ((await readModelRedis.sendCommand(['ZRANGE', `${READ_MODEL}f:${farmer.id}`, '0', '-1'])) as string[]).filter((id) =>
          ids.includes(id),
        ),
      (l) => l.length === PRODUCTS,
    );
    expect([...listed].sort()).toEqual([...ids].sort());
    for (const id of ids) expect(await readModelRedis.exists(`${READ_MODEL}p:${id}`), id).toBe(1);

    // Each of our events acknowledged exactly once by each of the two consumers.
    const jsm = await jetstreamManager(nats);
    const productOf = new Map<number, string>();
    const ours = new Set(ids);
    const byConsumer = async (consumer: string) =>
      eventually(
        async () => {
          const seen = new Map<string, number>();
          for (const ack of acks.filter((a) => a.consumer === consumer)) {
            if (!productOf.has(ack.seq)) {
              const message = await jsm.streams.getMessage(EVENT_STREAM, { seq: ack.seq }).catch(() => null);
              productOf.set(ack.seq, (message?.json<{ product_id?: string }>()?.product_id as string) ?? '');
            }
            const id = productOf.get(ack.seq)!;
            if (ours.has(id)) seen.set(id, (seen.get(id) ?? 0) + 1);
          }
          return seen;
        },
        (seen) => seen.size === PRODUCTS,
      );
    for (const consumer of ['media-attach-images', 'catalog-read-model-created']) {
      const seen = await byConsumer(consumer);
      expect(Object.fromEntries([...seen].sort()), consumer).toEqual(Object.fromEntries(ids.map((id) => [id, 1]).sort()));
    }

    // Who did the work: the second media process some of it, the stack's media the rest.
    const mediaByReplica1 = (await handledBy(media1, 'media-attach-images')) - mediaBefore;
    const catalogByReplica1 = (await handledBy(catalog1, 'catalog-read-model-created')) - catalogBefore;
    console.info(`of ${PRODUCTS} ProductCreated: media replica 1 handled ${mediaByReplica1}, catalog replica 1 ${catalogByReplica1}`);
    expect(mediaByReplica1, 'the second media process handled some events').toBeGreaterThan(0);
    expect(mediaByReplica1, 'the stack’s media process handled some events').toBeLessThan(PRODUCTS);
  });
});

describe('withLease: scheduled work in one replica at a time', () => {
  it('never lets two holders run the job at once, and the one that finds it taken skips that round', async () => {
    const key = `catalog:lease:test-${randomUUID()}`;
    const clients = [await connectRedis(redisUrl()), await connectRedis(redisUrl())];
    const runs: { holder: number; start: number; end: number }[] = [];
    let skipped = 0;
    const replica = async (holder: number) => {
      const until = Date.now() + 2_000;
      while (Date.now() < until) {
        const outcome = await withLease(
          clients[holder]!,
          key,
          async () => {
            const start = performance.now();
            await new Promise((resolve) => setTimeout(resolve, 40));
            runs.push({ holder, start, end: performance.now() });
          },
          { ttlMs: 5_000 },
        );
        if (!outcome.ran) skipped += 1;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 15));
      }
    };
    try {
      await Promise.all([replica(0), replica(1)]);
    } finally {
      await Promise.all(clients.map((c) => closeRedis(c)));
    }
    runs.sort((a, b) => a.start - b.start);
    for (let i = 1; i < runs.length; i++)
      expect(runs[i]!.start, `run ${i} starts after run ${i - 1} ended`).toBeGreaterThanOrEqual(runs[i - 1]!.end);
    expect(new Set(runs.map((r) => r.holder)).size, 'both holders ran the job at some point').toBe(2);
    expect(skipped, 'rounds skipped because the other holder had the lease').toBeGreaterThan(0);
  });

  it('a waiting holder runs once the other is done; a lease whose holder died frees itself after its TTL', async () => {
    const key = `catalog:lease:test-${randomUUID()}`;
    const order: string[] = [];
    const first = withLease(
      redis,
      key,
      async () => {
        order.push('first start');
        await new Promise((resolve) => setTimeout(resolve, 300));
        order.push('first end');
      },
      { ttlMs: 5_000 },
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await withLease(redis, key, async () => order.push('second'), { ttlMs: 5_000, waitMs: 3_000, pollMs: 50 });
    await first;
    expect(second.ran).toBe(true);
    expect(order).toEqual(['first start', 'first end', 'second']);

    // A holder that dies mid-run never releases nor renews: its token stays until the TTL of its
    // last renewal ends (a live holder renews it, kit locks.ts).
    const dead = `catalog:lease:test-${randomUUID()}`;
    expect(await redis.set(dead, 'a-killed-replica', { NX: true, PX: 600 })).toBe('OK');
    expect((await withLease(redis, dead, async () => 'ran', { ttlMs: 5_000 })).ran).toBe(false);
    const later = await withLease(redis, dead, async () => 'ran', { ttlMs: 5_000, waitMs: 2_000, pollMs: 50 });
    expect(later).toEqual({ ran: true, value: 'ran' });
  });
});

describe('start-up jobs of two replicas at once', () => {
  it('orders: two replicas renumbering the same duplicate request numbers renumber each request once, taking one number each', async () => {
    const database = `orders_replicas_${randomUUID().slice(0, 8)}`;
    const connections = [await connectMongo(mongoUrl(database)), await connectMongo(mongoUrl(database))];
    const clients = [await connectRedis(redisUrl()), await connectRedis(redisUrl())];
    try {
      const [first, second] = connections.map((c) => orderModels(c));
      const at = Date.now();
      const requests = ['a', 'b', 'c', 'd'].map((name, i) => ({
        request_id: `${database}-${name}`,
        // a, b and c were numbered alike (the old counter race); d has its own number.
        number: name === 'd' ? 'TM-1002' : 'TM-1001',
        created_at: new Date(at + i * 1000),
      }));
      await first!.Request.collection.insertMany(requests.map((r) => ({ ...r })));
      await first!.Counter.collection.insertOne({ _id: 'request_number', seq: 2 } as never);

      const [one, two] = await Promise.all([renumberDuplicates(first!, clients[0]!), renumberDuplicates(second!, clients[1]!)]);
      const changed = [...one, ...two];
      expect(changed.map((c) => c.request_id).sort(), 'b and c renumbered, once each').toEqual([`${database}-b`, `${database}-c`]);
      const after = await first!.Request.find({}, { request_id: 1, number: 1 }).sort({ created_at: 1 }).lean();
      const numbers = after.map((r) => r.number);
      expect(numbers[0], 'the first sent keeps its number').toBe('TM-1001');
      expect(numbers[3]).toBe('TM-1002');
      expect(new Set(numbers).size, `every request has its own number: ${numbers.join(', ')}`).toBe(4);
      expect(numbers.slice(1, 3).every((n) => Number(n.slice(3)) > 1002), 'new numbers come after the counter').toBe(true);
      const counter = await first!.Counter.collection.findOne({ _id: 'request_number' } as never);
      // Each replica takes a block of numbers from the counter (docs/adr/0063): one block per replica that renumbered.
      const blocksTaken = new Set(changed.map((c) => (one.includes(c) ? 'one' : 'two'))).size;
      expect(counter?.seq, 'one block of numbers taken per renumbering replica').toBe(2 + blocksTaken * NUMBER_BLOCK);
    } finally {
      await connections[0]!.dropDatabase().catch(() => undefined);
      await Promise.all(connections.map((c) => c.close()));
      await Promise.all(clients.map((c) => closeRedis(c)));
    }
  });
});
