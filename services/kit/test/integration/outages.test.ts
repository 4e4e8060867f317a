// Outages against the real NATS and FerretDB, each reached through a relay the test cuts or freezes
// (docs/adr/0024): a write while NATS is away is answered within 1 s from the outbox, and the relay
// publishes it right after the bus reconnects; a route that needs the bus now answers 503; a
// database that is down or paused answers 503 with a message (never 500), /ready says which, and
// both are back within 15 s of the database coming back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mongoose, { Schema } from 'mongoose';
import pino from 'pino';
import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { ImageRemoved } from '@tuber/contracts';
import { mongoUrl as testMongoUrl, natsUrl as testNatsUrl } from '../../../../test/support/credentials.js';
import {
  createServiceApp,
  EventBus,
  OutboxField,
  pendingEvent,
  publishRecorded,
  useEventBus,
  useMongo,
  useOutboxRelay,
  type ServiceApp,
} from '../../src/index.js';
import { tcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { until } from '../support/until.js';

const log = pino({ level: 'silent' });
const error = { $ref: 'ErrorResponse' };

const thingSchema = () => new Schema({ thing_id: String, n: Number, outbox: OutboxField }, { collection: 'thing', versionKey: false });
const removal = (thingId: string, n: number) =>
  pendingEvent(
    ImageRemoved,
    { image_id: thingId, farmer_id: `n${n}`, reason: 'never-attached', removed_at: new Date().toISOString() },
    `outage-test:${thingId}:${n}`,
  );

describe('a write while NATS is away', () => {
  let nats: TcpProxy;
  let app: ServiceApp;
  let observer: EventBus;
  let model: mongoose.Model<any>;
  let bus: EventBus;
  const seen: string[] = [];
  const durable = `outage-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    const target = new URL(testNatsUrl());
    nats = await tcpProxy(target.hostname, Number(target.port || 4222));
    app = await createServiceApp({ name: 'outage-test', logLevel: 'silent' });
    const mongo = await useMongo(app, testMongoUrl('kit_outage_test'));
    model = mongo.model('Thing', thingSchema());
    bus = await useEventBus(app, nats.url(testNatsUrl()), 'outage-test');
    // A long interval: only the reconnect can make the relay publish within this test.
    await useOutboxRelay(app, bus, [{ model, key: 'thing_id' }], 120_000);
    app.patch(
      '/api/outage/things/:id',
      { schema: { params: Type.Object({ id: Type.String() }), response: { 200: Type.Object({ published: Type.Boolean() }), 503: error } } },
      async (request) => {
        const thingId = request.params.id;
        await model.updateOne({ thing_id: thingId }, { $inc: { n: 1 }, $push: { outbox: removal(thingId, 1) } }, { upsert: true });
        return { published: await publishRecorded(model, { thing_id: thingId }, bus, request.log) };
      },
    );
    app.post('/api/outage/announce', { schema: { response: { 204: Type.Null(), 503: error } } }, async (_request, reply) => {
      const id = randomUUID();
      await bus.publish(ImageRemoved, { image_id: id, farmer_id: 'f', reason: 'never-attached', removed_at: new Date().toISOString() }, id);
      return reply.code(204).send(null);
    });
    await app.ready();
    // The consumer sees the stream directly (not through the relay the test cuts).
    observer = await EventBus.connect(testNatsUrl(), 'outage-observer', log);
    await observer.consume(ImageRemoved, { durable }, async (event, context) => {
      if (context.messageId.startsWith('outage-test:')) seen.push(event.image_id);
    });
  });

  afterAll(async () => {
    await nats?.restore(); // in case the test stopped half-way
    await app?.close();
    await observer?.close();
    await model?.db.dropDatabase().catch(() => undefined);
    await nats?.close().catch(() => undefined);
  });

  it('is answered within 1 s from the outbox, and the event goes out once the bus is back', async () => {
    const healthy = randomUUID();
    expect((await app.inject({ method: 'PATCH', url: `/api/outage/things/${healthy}` })).json()).toEqual({ published: true });
    await until(() => seen.includes(healthy));

    await nats.cut();
    await until(() => !bus.connected, 10_000);
    const thingIds = [randomUUID(), randomUUID(), randomUUID()];
    for (const thingId of thingIds) {
      const started = Date.now();
      const response = await app.inject({ method: 'PATCH', url: `/api/outage/things/${thingId}` });
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ published: false });
      expect((await model.findOne({ thing_id: thingId }).lean<{ outbox: unknown[] }>())?.outbox).toHaveLength(1);
    }
    // A route that needs the bus itself says so, at once.
    const started = Date.now();
    const refused = await app.inject({ method: 'POST', url: '/api/outage/announce' });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(refused.statusCode).toBe(503);
    expect(refused.json().message).toMatch(/event bus is not answering/);
    expect(refused.headers['retry-after']).toBeDefined();
    const ready = await app.inject({ url: '/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().checks.nats.ok).toBe(false);

    await nats.restore();
    const back = Date.now();
    await until(() => thingIds.every((id) => seen.includes(id)), 30_000);
    // The reconnect kicked the relay (its own interval is 2 minutes).
    expect(Date.now() - back).toBeLessThan(15_000);
    for (const thingId of thingIds) {
      expect(seen.filter((id) => id === thingId)).toHaveLength(1);
      expect((await model.findOne({ thing_id: thingId }).lean<{ outbox: unknown[] }>())?.outbox).toEqual([]);
    }
    expect((await app.inject({ url: '/ready' })).statusCode).toBe(200);
  });
});

describe('a database that is away', () => {
  let mongo: TcpProxy;
  let app: ServiceApp;
  let model: mongoose.Model<any>;

  beforeAll(async () => {
    const target = new URL(testMongoUrl('kit_outage_db_test'));
    mongo = await tcpProxy(target.hostname, Number(target.port || 27017));
    app = await createServiceApp({ name: 'outage-db-test', logLevel: 'silent' });
    const connection = await useMongo(app, mongo.url(testMongoUrl('kit_outage_db_test')));
    model = connection.model('Thing', thingSchema());
    app.get(
      '/api/outage/things/:id',
      { schema: { params: Type.Object({ id: Type.String() }), response: { 200: Type.Object({ found: Type.Boolean() }), 503: error } } },
      async (request) => ({ found: Boolean(await model.findOne({ thing_id: request.params.id }).lean()) }),
    );
    await app.ready();
  });

  afterAll(async () => {
    mongo?.thaw();
    await mongo?.restore();
    await model?.db.dropDatabase().catch(() => undefined);
    await app?.close();
    await mongo?.close().catch(() => undefined);
  });

  const expectUnavailable = async () => {
    const response = await app.inject({ url: `/api/outage/things/${randomUUID()}` });
    expect(response.statusCode, response.body).toBe(503);
    expect(response.json()).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });
    expect(response.json().message).toMatch(/database is not answering/);
    expect(response.headers['retry-after']).toBeDefined();
  };

  it('down: answers 503 (never 500), /ready names it, and both are back within 15 s', async () => {
    expect((await app.inject({ url: `/api/outage/things/x` })).statusCode).toBe(200);
    await mongo.cut();
    for (let i = 0; i < 3; i++) await expectUnavailable();
    const ready = await app.inject({ url: '/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().checks.mongodb.ok).toBe(false);

    await mongo.restore();
    const back = Date.now();
    await until(async () => (await app.inject({ url: '/ready' })).statusCode === 200, 15_000);
    await until(async () => (await app.inject({ url: `/api/outage/things/x` })).statusCode === 200, 15_000);
    expect(Date.now() - back).toBeLessThan(15_000);
  });

  it('paused (holds connections, answers nothing): a request is answered 503 within the bound, never left hanging', async () => {
    await mongo.freeze();
    const started = Date.now();
    const statuses = await Promise.all(
      [0, 1, 2].map(async () => (await app.inject({ url: `/api/outage/things/${randomUUID()}` })).statusCode),
    );
    const took = Date.now() - started;
    expect(statuses).toEqual([503, 503, 503]);
    // The driver's heartbeat (5 s, its check bounded by connectTimeoutMS 5 s) or socket time-out (30 s).
    expect(took).toBeLessThan(35_000);
    expect((await app.inject({ url: '/ready' })).statusCode).toBe(503);
    mongo.thaw();
    const back = Date.now();
    await until(async () => (await app.inject({ url: '/ready' })).statusCode === 200, 15_000);
    await until(async () => (await app.inject({ url: `/api/outage/things/x` })).statusCode === 200, 15_000);
    expect(Date.now() - back).toBeLessThan(15_000);
  }, 90_000);
});
