// The outbox relay against the real servers: an event recorded while the bus was unreachable is
// published later by the relay, and the work waiting for it runs once it is out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mongoose, { Schema } from 'mongoose';
import pino from 'pino';
import { randomUUID } from 'node:crypto';
import { ImageRemoved } from '@tuber/contracts';
import { mongoUrl as testMongoUrl, natsUrl as testNatsUrl } from '../../../../test/support/credentials.js';
import {
  createServiceApp,
  EventBus,
  OutboxField,
  pendingEvent,
  publishRecorded,
  useOutboxRelay,
  type ServiceApp,
} from '../../src/index.js';

// Signed in as the tests' user (docs/adr/0017).
const natsUrl = testNatsUrl();
const mongoUrl = testMongoUrl('kit_outbox_test');
const log = pino({ level: 'silent' });

let connection: mongoose.Connection;
let bus: EventBus;
let app: ServiceApp;
let thingModel: mongoose.Model<any> | undefined;
const Thing = () =>
  (thingModel ??= connection.model(
    'Thing',
    new Schema({ thing_id: String, outbox: OutboxField }, { collection: 'thing', versionKey: false }),
  ));

beforeAll(async () => {
  connection = await mongoose.createConnection(mongoUrl).asPromise();
  bus = await EventBus.connect(natsUrl, 'outbox-test', log);
});
afterAll(async () => {
  await app?.close();
  await bus?.close();
  await connection?.dropDatabase();
  await connection?.close();
});

const removal = (imageId: string) =>
  pendingEvent(
    ImageRemoved,
    { image_id: imageId, farmer_id: 'f', reason: 'never-attached', removed_at: new Date().toISOString() },
    `outbox-test:${imageId}`,
  );

describe('outbox', () => {
  it('keeps the event in the document when the bus cannot take it, and says so', async () => {
    const model = Thing();
    const thingId = randomUUID();
    await model.create({ thing_id: thingId, outbox: [removal(thingId)] });
    const closed = await EventBus.connect(natsUrl, 'outbox-test-closed', log);
    await closed.close();
    expect(await publishRecorded(model, { thing_id: thingId }, closed, log)).toBe(false);
    expect((await model.findOne({ thing_id: thingId }).lean())?.outbox).toHaveLength(1);
  });

  it('has the relay publish what is left, empty the outbox and then run the waiting work', async () => {
    const model = Thing();
    const thingId = randomUUID();
    const seen: string[] = [];
    await bus.consume(ImageRemoved, { durable: `outbox-test-${thingId.slice(0, 8)}` }, async (event) => {
      if (event.image_id === thingId) seen.push(event.image_id);
    });
    await model.create({ thing_id: thingId, outbox: [removal(thingId)] });
    let afterFlushRuns = 0;
    app = await createServiceApp({ name: 'outbox-test', logLevel: 'silent' });
    await useOutboxRelay(app, bus, [{ model, key: 'thing_id', afterFlush: async () => (afterFlushRuns += 1) }], 200);

    const started = Date.now();
    while (seen.length === 0 && Date.now() - started < 10_000) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen).toEqual([thingId]);
    expect((await model.findOne({ thing_id: thingId }).lean())?.outbox).toEqual([]);
    expect(afterFlushRuns).toBeGreaterThan(0);
  });
});
