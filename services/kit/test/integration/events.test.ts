import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import pino from 'pino';
import { randomUUID } from 'node:crypto';
import { jetstream, jetstreamManager, AckPolicy } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import { EVENT_STREAM, type EventContract } from '@tuber/contracts';
import { EventBus, type EventContext } from '../../src/index.js';
import { natsUrl as testNatsUrl } from '../../../../test/support/credentials.js';

// Signed in as the tests' user (docs/adr/0017).
const natsUrl = testNatsUrl();
const log = pino({ level: 'silent' });

/** A throw-away event on its own subject so tests never see each other's messages. */
const testEvent = (): EventContract => ({
  subject: `tuber.test.${randomUUID().slice(0, 8)}.v1`,
  version: 1,
  payload: Type.Object({ n: Type.Integer() }),
});

function waitFor<T>(check: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      const value = check();
      if (value !== undefined) return resolve(value);
      if (Date.now() - started > timeoutMs) return reject(new Error('timed out waiting'));
      setTimeout(tick, 50);
    };
    tick();
  });
}

let bus: EventBus;
beforeAll(async () => {
  bus = await EventBus.connect(natsUrl, 'kit-test', log);
});
afterAll(async () => bus?.close());

describe('JetStream event bus', () => {
  it('delivers a published event to a durable consumer and acknowledges it', async () => {
    const event = testEvent();
    const seen: number[] = [];
    await bus.consume(event, { durable: `t-${randomUUID().slice(0, 8)}` }, async (payload) => {
      seen.push((payload as { n: number }).n);
    });
    await bus.publish(event, { n: 7 }, randomUUID());
    await waitFor(() => (seen.length ? seen : undefined));
    expect(seen).toEqual([7]);
  });

  it('treats a second publish with the same message id as a duplicate', async () => {
    const event = testEvent();
    const id = randomUUID();
    expect((await bus.publish(event, { n: 1 }, id)).duplicate).toBe(false);
    expect((await bus.publish(event, { n: 1 }, id)).duplicate).toBe(true);
  });

  it('checks string formats the contracts use (date-time)', async () => {
    const event = { ...testEvent(), payload: Type.Object({ at: Type.String({ format: 'date-time' }) }) };
    expect((await bus.publish(event, { at: new Date().toISOString() }, randomUUID())).duplicate).toBe(false);
    await expect(bus.publish(event, { at: 'yesterday' }, randomUUID())).rejects.toThrow(/invalid/);
  });

  it('refuses to publish a payload that breaks the contract', async () => {
    await expect(bus.publish(testEvent(), { n: 'seven' } as never, randomUUID())).rejects.toThrow(/invalid/);
  });

  it('redelivers an event whose handler failed, with the same message id', async () => {
    const event = testEvent();
    const deliveries: EventContext[] = [];
    await bus.consume(event, { durable: `t-${randomUUID().slice(0, 8)}`, ackWaitMs: 2_000 }, async (_payload, context) => {
      deliveries.push(context);
      if (deliveries.length === 1) throw new Error('simulated failure');
    });
    const id = randomUUID();
    await bus.publish(event, { n: 2 }, id);
    await waitFor(() => (deliveries.length >= 2 ? deliveries : undefined));
    expect(deliveries.map((d) => d.deliveryCount)).toEqual([1, 2]);
    expect(deliveries.every((d) => d.messageId === id)).toBe(true);
  });

  it('redelivers a message that was never acknowledged once the ack wait passes', async () => {
    const event = testEvent();
    const jsm = await jetstreamManager(bus.connection);
    const durable = `t-${randomUUID().slice(0, 8)}`;
    await jsm.consumers.add(EVENT_STREAM, {
      durable_name: durable,
      filter_subject: event.subject,
      ack_policy: AckPolicy.Explicit,
      ack_wait: nanos(1_000),
    });
    await bus.publish(event, { n: 3 }, randomUUID());
    const consumer = await jetstream(bus.connection).consumers.get(EVENT_STREAM, durable);
    const first = await consumer.next({ expires: 5_000 });
    expect(first?.json()).toEqual({ n: 3 });
    expect(first?.redelivered).toBe(false); // deliberately not acknowledged
    const second = await consumer.next({ expires: 5_000 });
    expect(second?.seq).toBe(first?.seq);
    expect(second?.redelivered).toBe(true);
    second?.ack();
  });
});
