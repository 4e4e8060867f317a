// Dead letters against the real NATS (docs/adr/0024): an event whose handler keeps failing is retried
// with back-off up to a bound, then parked in TUBER_DLQ with its subject, message id, payload, error
// and delivery count, and an alert in the log; the events published after it are handled meanwhile.
// Failures because a dependency is away never park an event. A re-drive publishes the parked event
// again under its original message id (as the handler sees it) and empties the dead letter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import pino from 'pino';
import { Writable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { EVENT_STREAM, type EventContract } from '@tuber/contracts';
import { DEAD_LETTER_STREAM, EventBus, listDeadLetters, redrive, retryDelay, type EventContext } from '../../src/index.js';
import { natsUrl } from '../../../../test/support/credentials.js';
import { sleep, until } from '../support/until.js';

/** Log lines the bus writes, parsed (pino JSON), to find the alert. */
const lines: Record<string, unknown>[] = [];
const log = pino(
  { level: 'info' },
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  }),
);

const testEvent = (): EventContract => ({
  subject: `tuber.test.${randomUUID().slice(0, 8)}.v1`,
  version: 1,
  payload: Type.Object({ n: Type.Integer() }),
});
const durableName = () => `t-dlq-${randomUUID().slice(0, 8)}`;

let bus: EventBus;
const durables: string[] = [];
beforeAll(async () => {
  bus = await EventBus.connect(natsUrl(), 'kit-dlq-test', log);
});
afterAll(async () => {
  const jsm = await jetstreamManager(bus.connection);
  for (const durable of durables) await jsm.consumers.delete(EVENT_STREAM, durable).catch(() => undefined);
  await bus?.close();
});

describe('dead letters', () => {
  it('backs off between deliveries, doubling up to the cap', () => {
    const policy = { backoffMs: 1_000, maxBackoffMs: 30_000 };
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelay(policy, n))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
  });

  it('parks a poison event after the bound, with an alert, while the events after it keep flowing; a re-drive delivers it once', async () => {
    const event = testEvent();
    const durable = durableName();
    durables.push(durable);
    let fixed = false;
    const poisonAttempts: { at: number; context: EventContext }[] = [];
    const handled = new Map<number, { count: number; at: number; messageId: string }>();
    await bus.consume(event, { durable, maxDeliver: 4, backoffMs: 300, maxBackoffMs: 1_000 }, async (payload, context) => {
      const { n } = payload as { n: number };
      if (n === 0) {
        poisonAttempts.push({ at: Date.now(), context });
        if (!fixed) throw new Error('cannot handle product 0: simulated bug');
      }
      const seen = handled.get(n);
      handled.set(n, { count: (seen?.count ?? 0) + 1, at: Date.now(), messageId: context.messageId });
    });

    const poisonId = `poison-${randomUUID()}`;
    await bus.publish(event, { n: 0 }, poisonId);
    for (let n = 1; n <= 20; n++) await bus.publish(event, { n }, `good-${n}-${randomUUID()}`);

    // Retried with back-off (300, 600, 1000 ms), then parked after the 4th delivery.
    const parked = await until(async () => {
      const letters = await listDeadLetters(bus.connection, { consumer: durable });
      return letters.length ? letters : undefined;
    });
    expect(parked).toHaveLength(1);
    const [letter] = parked;
    expect(letter).toMatchObject({ consumer: durable, subject: event.subject, messageId: poisonId, deliveries: 4 });
    expect(JSON.parse(letter!.payload)).toEqual({ n: 0 });
    expect(letter!.error).toContain('simulated bug');
    expect(poisonAttempts.map((a) => a.context.deliveryCount)).toEqual([1, 2, 3, 4]);
    const gaps = poisonAttempts.slice(1).map((a, i) => a.at - poisonAttempts[i]!.at);
    expect(gaps[0]).toBeGreaterThanOrEqual(250);
    expect(gaps[2]).toBeGreaterThan(gaps[0]!);

    // The good events were all handled once, and before the poison event was given up on.
    expect([...handled.keys()].filter((n) => n > 0).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect([...handled.values()].every((h) => h.count === 1)).toBe(true);
    expect(Math.max(...[...handled.values()].map((h) => h.at))).toBeLessThan(poisonAttempts[3]!.at);

    // The alert: level error, naming consumer, subject and message id.
    const alert = lines.find((l) => l.alert === 'dead-letter' && l.messageId === poisonId && l.level === 50);
    expect(alert).toBeDefined();
    expect(alert!.msg).toContain(durable);
    expect(alert!.msg).toContain(event.subject);
    expect(alert!.msg).toContain(poisonId);

    // Not delivered again once parked.
    await sleep(1_500);
    expect(poisonAttempts).toHaveLength(4);

    // The cause is fixed; the re-drive delivers it once, under its original message id.
    fixed = true;
    const result = await redrive(bus.connection, { consumer: durable });
    expect(result.failed).toEqual([]);
    expect(result.redriven.map((l) => l.messageId)).toEqual([poisonId]);
    await until(() => handled.get(0));
    expect(handled.get(0)).toMatchObject({ count: 1, messageId: poisonId });
    expect(await listDeadLetters(bus.connection, { consumer: durable })).toEqual([]);
    // Running it again finds nothing to do.
    expect((await redrive(bus.connection, { consumer: durable })).redriven).toEqual([]);
    await sleep(500);
    expect(handled.get(0)!.count).toBe(1);
  });

  it('never parks an event while a dependency is away: it is retried until the dependency is back', async () => {
    const event = testEvent();
    const durable = durableName();
    durables.push(durable);
    const attempts: number[] = [];
    await bus.consume(event, { durable, maxDeliver: 2, backoffMs: 100, maxBackoffMs: 200 }, async (_payload, context) => {
      attempts.push(context.deliveryCount);
      if (attempts.length <= 5) {
        const err = new Error('connect ECONNREFUSED 127.0.0.1:27017');
        err.name = 'MongoNetworkError';
        throw err;
      }
    });
    await bus.publish(event, { n: 1 }, randomUUID());
    await until(() => attempts.length >= 6);
    expect(attempts).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await listDeadLetters(bus.connection, { consumer: durable })).toEqual([]);
  });

  it('parks an event that breaks its contract at once (no retry can fix it)', async () => {
    const event = testEvent();
    const durable = durableName();
    durables.push(durable);
    const handled: number[] = [];
    await bus.consume(event, { durable }, async (payload) => {
      handled.push((payload as { n: number }).n);
    });
    const id = randomUUID();
    // Published around the contract check, as a broken publisher would.
    await bus.publishRaw(event.subject, JSON.stringify({ n: 'one' }), id);
    await bus.publish(event, { n: 2 }, randomUUID());
    const letters = await until(async () => {
      const found = await listDeadLetters(bus.connection, { consumer: durable });
      return found.length ? found : undefined;
    });
    expect(letters).toHaveLength(1);
    expect(letters[0]).toMatchObject({ messageId: id, deliveries: 1, subject: event.subject });
    expect(letters[0]!.error).toMatch(/contract/);
    await until(() => handled.length === 1);
    expect(handled).toEqual([2]);
    // Clean up: nothing to re-drive in a test stream.
    const jsm = await jetstreamManager(bus.connection);
    await jsm.streams.deleteMessage(DEAD_LETTER_STREAM, letters[0]!.seq);
  });
});
