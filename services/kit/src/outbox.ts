// Events that ride inside the document they belong to: the write and its events are one atomic
// document update (FerretDB has no multi-document transactions); publishing happens after, and
// anything left unpublished (a crash, a bus outage) is published by the relay. Message ids make
// the re-publish harmless. The publish right after a write waits at most INLINE_PUBLISH_TIMEOUT_MS
// (not at all while the bus is disconnected), so a write is answered at once during a bus outage;
// the relay runs every few seconds and right after the bus reconnects (docs/adr/0024).
import { Schema, type Model } from 'mongoose';
import { ALL_EVENTS, type EventContract, type EventPayload } from '@tuber/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { ServiceApp } from './app.js';
import type { EventBus } from './events.js';
import { metricsEnabled, setOutboxDepth } from './observe.js';

/** Longest wait for the stream's acknowledgement of an event a route has just recorded. */
export const INLINE_PUBLISH_TIMEOUT_MS = 500;

export interface PendingEvent {
  subject: string;
  message_id: string;
  payload: unknown;
}

export const OutboxField = {
  type: [new Schema({ subject: String, message_id: String, payload: Schema.Types.Mixed }, { _id: false })],
  default: [],
};

export function pendingEvent<E extends EventContract>(event: E, payload: EventPayload<E>, messageId: string): PendingEvent {
  return { subject: event.subject, message_id: messageId, payload };
}

const contractFor = (subject: string) => ALL_EVENTS.find((event) => event.subject === subject);

/** The relays running in this process (useOutboxRelay), each told by outboxNeedsSweep. */
const sweepRequests = new Set<() => void>();

/**
 * Asks every outbox relay of this process for a sweep at its next tick: events were recorded that
 * were not published at once (a failed publish, or a writer that records many and leaves the
 * publishing to the relay).
 */
export function outboxNeedsSweep(): void {
  for (const request of sweepRequests) request();
}

type OutboxModel = Model<any>;

/**
 * Serialises the writes of one document. FerretDB 1.x applies every update as a read of the whole
 * document and a write of it back, so two updates of one document at once can lose one of them
 * (e.g. taking a published event out of the outbox while a delete marks the document: the mark is
 * gone). A service whose documents have several writers registers the lock its writers take.
 */
export type DocumentLock = <T>(filter: Record<string, unknown>, work: () => Promise<T>) => Promise<T>;

const documentLocks = new WeakMap<object, DocumentLock>();

/** Every outbox write of `model` (taking published events out) from now on runs under `lock`. */
export function lockOutboxWrites(model: OutboxModel, lock: DocumentLock): void {
  documentLocks.set(model, lock);
}

/** Runs `work` under the lock registered for `model` (lockOutboxWrites), or at once when there is none. */
export const withDocumentLock = <T>(model: OutboxModel, filter: Record<string, unknown>, work: () => Promise<T>): Promise<T> => {
  const lock = documentLocks.get(model);
  return lock ? lock(filter, work) : work();
};

/** Whether the event is still in the document (a concurrent flush may have taken it out already). */
async function stillPending(model: OutboxModel, filter: Record<string, unknown>, messageId: string): Promise<boolean> {
  const doc = await model.findOne(filter, { outbox: 1 }).lean<{ outbox?: PendingEvent[] }>();
  return (doc?.outbox ?? []).some((pending) => pending.message_id === messageId);
}

/**
 * Publishes the pending events of one document, removing each once the stream has it. On a failure
 * the relays are asked for a sweep (the event stays in the document), and the error is thrown.
 */
export async function flushOutbox(
  model: OutboxModel,
  filter: Record<string, unknown>,
  bus: EventBus,
  options: { timeoutMs?: number } = {},
): Promise<number> {
  try {
    return await flushOne(model, filter, bus, options);
  } catch (err) {
    outboxNeedsSweep();
    throw err;
  }
}

async function flushOne(
  model: OutboxModel,
  filter: Record<string, unknown>,
  bus: EventBus,
  options: { timeoutMs?: number },
): Promise<number> {
  const doc = await model.findOne(filter, { outbox: 1 }).lean<{ outbox?: PendingEvent[] }>();
  let published = 0;
  for (const pending of doc?.outbox ?? []) {
    const contract = contractFor(pending.subject);
    if (contract) {
      await bus.publish(contract, pending.payload as never, pending.message_id, options);
      published += 1;
    }
    // The element exactly as stored, through the driver (no casting): FerretDB 1.x ignores a $pull
    // by condition ({ message_id }) without an error, and only removes an element equal to the value.
    await withDocumentLock(model, filter, async () => {
      const pulled = await model.collection.updateOne(filter, { $pull: { outbox: pending } } as never);
      if (pulled.modifiedCount === 0 && (await stillPending(model, filter, pending.message_id))) {
        throw new Error(`published ${pending.message_id} but could not take it out of the outbox`);
      }
    });
  }
  return published;
}

/** Publishes whatever was written but not published, in every document of the model. */
export async function flushAllOutboxes(model: OutboxModel, key: string, bus: EventBus): Promise<number> {
  const docs = await model.find({ 'outbox.0': { $exists: true } }, { [key]: 1 }).lean<Record<string, unknown>[]>();
  let published = 0;
  for (const doc of docs) published += await flushOutbox(model, { [key]: doc[key] }, bus);
  return published;
}

/**
 * Publishes what a write just recorded. The write already stands, so a bus failure is not the
 * caller's failure: it is logged and the relay publishes the event later. Bounded: no wait at all
 * while the bus is disconnected, at most INLINE_PUBLISH_TIMEOUT_MS for an acknowledgement otherwise.
 */
export async function publishRecorded(
  model: OutboxModel,
  filter: Record<string, unknown>,
  bus: EventBus,
  log: FastifyBaseLogger,
): Promise<boolean> {
  if (!bus.connected) {
    log.info({ filter }, 'event recorded while the bus is away; the outbox relay publishes it once the bus is back');
    outboxNeedsSweep();
    return false;
  }
  try {
    await flushOutbox(model, filter, bus, { timeoutMs: INLINE_PUBLISH_TIMEOUT_MS });
    return true;
  } catch (err) {
    log.warn({ err, filter }, 'event recorded but not yet published; the outbox relay will retry');
    return false;
  }
}

export interface OutboxSource {
  model: OutboxModel;
  /** The field that identifies one document. */
  key: string;
  /** Work that waits for a document's events to be out (e.g. removing a product marked deleted). */
  afterFlush?: () => Promise<unknown>;
  /** The lock every writer of one of these documents takes (registered with lockOutboxWrites). */
  lock?: DocumentLock;
}


/**
 * Publishes whatever was recorded but not published: once before the service starts serving (a
 * previous run may have stopped in between), right after the bus reconnects, at the next tick after
 * an inline publish failed in this process, and at least every `sweepEveryMs` (a replica that died
 * between a write and its publish), so that a bus outage delays events instead of losing them.
 *   A sweep reads every document of the model (`outbox.0` exists): MongoDB answers it from an
 * index, but FerretDB 1.x reads and decodes the whole collection. Swept every 5 s, that was the
 * largest cost of the local stack under load (4.3 s of PostgreSQL time a sweep at 5 800 requests;
 * docs/adr/0063), while the inline publish had already sent nearly every event. Between sweeps a tick
 * (`intervalMs`) only runs the waiting work (`afterFlush`), which reads by equality.
 */
export async function useOutboxRelay(
  app: ServiceApp,
  bus: EventBus,
  sources: OutboxSource[],
  intervalMs = 5_000,
  sweepEveryMs = Math.max(60_000, intervalMs),
): Promise<void> {
  for (const source of sources) if (source.lock) lockOutboxWrites(source.model, source.lock);
  const waitingWork = async () => {
    for (const source of sources) await source.afterFlush?.();
  };
  const sweep = async () => {
    let published = 0;
    for (const source of sources) {
      const out = await flushAllOutboxes(source.model, source.key, bus);
      published += out;
      // Every document found was emptied (a failure throws): nothing is waiting now.
      if (metricsEnabled()) setOutboxDepth(source.model.modelName, 0);
      await source.afterFlush?.();
    }
    return published;
  };
  let lastSweep = Date.now();
  let wanted = false;
  const leftOver = await sweep();
  if (leftOver) app.log.info({ published: leftOver }, 'published events left over from a previous run');

  let running = false;
  let again = false;
  const kick = () => {
    if (running) {
      again = true; // e.g. a reconnect while a run that failed is still finishing: run once more after it
      return;
    }
    if (!bus.connected) return; // nothing can go out; the reconnect kicks the relay
    running = true;
    again = false;
    wanted = false;
    lastSweep = Date.now();
    sweep()
      .then((published) => {
        if (published) app.log.info({ published }, 'outbox relay published delayed events');
      })
      .catch((err: unknown) => {
        wanted = true; // the next tick tries again
        app.log.warn({ err }, 'outbox relay could not publish; will retry');
      })
      .finally(() => {
        running = false;
        if (again) kick();
      });
  };
  const wantSweep = () => {
    wanted = true;
  };
  sweepRequests.add(wantSweep);
  // While the bus is away the outbox grows: its depth is counted on every tick (a full read, only then).
  const measure = () => {
    if (metricsEnabled()) measureOutboxDepth(sources).catch((err: unknown) => app.log.debug({ err }, 'outbox depth not measured'));
  };
  const timer = setInterval(() => {
    if (!bus.connected) {
      measure();
      return;
    }
    if (wanted || Date.now() - lastSweep >= sweepEveryMs) {
      kick();
      return;
    }
    if (running) return;
    running = true;
    waitingWork()
      .catch((err: unknown) => app.log.warn({ err }, 'work waiting for published events failed; will retry'))
      .finally(() => {
        running = false;
        if (again) kick();
      });
  }, intervalMs);
  timer.unref();
  // JetStream may need a moment after the connection is back; the interval catches a failed first try.
  let soon: NodeJS.Timeout | undefined;
  const stopListening = bus.onReconnect(() => {
    clearTimeout(soon);
    soon = setTimeout(kick, 250);
    soon.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    clearTimeout(soon);
    stopListening();
    sweepRequests.delete(wantSweep);
  });
}

/** Counts, per model, the documents whose outbox still holds events (the tuber_outbox_depth gauge). */
export async function measureOutboxDepth(sources: OutboxSource[]): Promise<void> {
  for (const source of sources) {
    setOutboxDepth(source.model.modelName, await source.model.countDocuments({ 'outbox.0': { $exists: true } }));
  }
}
