// The one event-bus abstraction: NATS JetStream with message-id de-duplication on publish and
// durable, explicitly acknowledged consumers with bounded redelivery. Publishing never waits long
// for a bus that is away (BusUnavailableError at once while disconnected, a bounded wait
// otherwise), and an event whose handler keeps failing is parked in the dead-letter stream
// TUBER_DLQ instead of blocking or vanishing (docs/adr/0024).
import { connect, headers, nanos, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import { Value } from '@sinclair/typebox/value';
import type { FastifyBaseLogger } from 'fastify';
import { EVENT_STREAM, EVENT_SUBJECTS, type EventContract, type EventPayload } from '@tuber/contracts';
import { registerFormats } from './formats.js';
import { natsServer } from './credentials.js';
import { unavailableDependency } from './errors.js';
import { failActiveSpan, injectTraceContext, watchConsumerLag, withConsumeSpan, withPublishSpan } from './observe.js';
import { NatsConfig, loadConfig } from './config.js';

registerFormats();

/** Core NATS signals live outside the event stream's subjects (tuber.>): see EventBus.signal. */
export const SIGNAL_SUBJECT = /^signal\.[A-Za-z0-9_-]+(\.[A-Za-z0-9_*>-]+)+$/;

/** The dead-letter stream: events a consumer gave up on, one subject per consumer. */
export const DEAD_LETTER_STREAM = 'TUBER_DLQ';
/** Subjects of the dead-letter stream: `dlq.tuber.<durable>`. */
export const DEAD_LETTER_SUBJECTS = 'dlq.tuber.>';
export const deadLetterSubject = (durable: string) => `dlq.tuber.${durable}`;

/** Headers of a parked event (its body is the event's payload exactly as it was delivered). */
export const DeadLetterHeader = {
  consumer: 'Tuber-Consumer',
  subject: 'Tuber-Subject',
  messageId: 'Tuber-Msg-Id',
  streamSeq: 'Tuber-Stream-Seq',
  deliveries: 'Tuber-Deliveries',
  error: 'Tuber-Error',
  parkedAt: 'Tuber-Parked-At',
} as const;
/** Set on a re-driven event: the message id it was first published with (EventContext.messageId). */
export const REDRIVE_OF_HEADER = 'Tuber-Redrive-Of';

/** Longest wait for JetStream's publish acknowledgement unless the caller gives its own. */
export const PUBLISH_TIMEOUT_MS = 2_000;

/**
 * The bus cannot take the event now (disconnected, reconnecting, or no acknowledgement in time).
 * Routes that meet it answer 503 (errors.ts); outbox writes keep the event for the relay.
 */
export class BusUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BusUnavailableError';
  }
}

export interface ConsumeOptions {
  /** Durable consumer name: one per (service, purpose). */
  durable: string;
  /** How long the server waits for an ack before redelivering. */
  ackWaitMs?: number;
  /**
   * Deliveries a failing handler gets before the event is parked in TUBER_DLQ (default 8, about
   * 1.5 minutes with the default back-off). Failures because a dependency is away (database,
   * Redis, the bus) never park an event: it waits, with back-off, until the dependency is back.
   */
  maxDeliver?: number;
  /** Wait before the 2nd delivery; doubled each time up to `maxBackoffMs` (defaults 1 s and 30 s). */
  backoffMs?: number;
  maxBackoffMs?: number;
}

export interface EventContext {
  /** The publisher's message id (kept across a re-drive): the natural key for idempotent handling. */
  messageId: string;
  deliveryCount: number;
}

export interface PublishOptions {
  /** Longest wait for the stream's acknowledgement (default PUBLISH_TIMEOUT_MS). */
  timeoutMs?: number;
  headers?: MsgHdrs;
}

export type EventHandler<E extends EventContract> = (payload: EventPayload<E>, context: EventContext) => Promise<void>;

export class EventBus {
  readonly #consumers: ConsumerMessages[] = [];
  readonly #running: Promise<void>[] = [];
  readonly #reconnectListeners = new Set<() => void>();
  #connected = true;

  private constructor(
    readonly connection: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly log: FastifyBaseLogger,
  ) {
    void this.#followStatus();
  }

  /** Tracks the connection: publishes fail at once while it is down; listeners hear of a reconnect. */
  async #followStatus(): Promise<void> {
    for await (const status of this.connection.status()) {
      if (status.type === 'disconnect' || status.type === 'reconnecting') {
        if (this.#connected) this.log.warn('event bus disconnected; publishing waits for the outbox relay until it is back');
        this.#connected = false;
      } else if (status.type === 'reconnect') {
        this.#connected = true;
        this.log.info('event bus reconnected');
        for (const listener of this.#reconnectListeners) listener();
      }
    }
  }

  /** Whether the connection is up right now (false while NATS is away and the client reconnects). */
  get connected(): boolean {
    return this.#connected && !this.connection.isClosed();
  }

  /** Calls `listener` each time the connection comes back after an outage; returns the unsubscribe. */
  onReconnect(listener: () => void): () => void {
    this.#reconnectListeners.add(listener);
    return () => this.#reconnectListeners.delete(listener);
  }

  /**
   * Copies JetStream keeps of each stream this bus declares (NATS_STREAM_REPLICAS; docs/adr/0040);
   * unset: 1 for a new stream, and an existing one keeps its count.
   */
  #streamReplicas: number | undefined;

  static async connect(
    url: string,
    name: string,
    log: FastifyBaseLogger,
    // Default: NATS_STREAM_REPLICAS from the environment (app.sh and compose set it: 1, or 3 for the cluster).
    streamOptions: { replicas?: number } = {},
  ): Promise<EventBus> {
    // Credentials come in the URL (docs/adr/0017); replies use the user's own inbox prefix,
    // the only subjects its NATS permissions let it subscribe to.
    const { servers, user, pass } = natsServer(url);
    const connection = await connect({
      servers,
      ...(user ? { user, pass, inboxPrefix: `_INBOX_${user}` } : {}),
      name,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1_000,
    });
    const jsm = await jetstreamManager(connection);
    const bus = new EventBus(connection, jetstream(connection), jsm, log);
    bus.#streamReplicas = streamOptions.replicas ?? loadConfig(NatsConfig).NATS_STREAM_REPLICAS;
    // A service that cannot declare its streams does not start, and leaves no connection behind.
    await bus.ensureStream().catch(async (err: unknown) => {
      await connection.close();
      throw err;
    });
    return bus;
  }

  async ensureStream(): Promise<void> {
    await this.#ensure(EVENT_STREAM, EVENT_SUBJECTS);
    // Parked events are kept until re-driven (`make redrive`); nothing expires them. A server whose
    // users may not reach TUBER_DLQ yet (permissions not re-rendered) does not stop the service: a
    // message that cannot be parked stays in TUBER and is tried again (see #park).
    await this.#ensure(DEAD_LETTER_STREAM, DEAD_LETTER_SUBJECTS).catch((err: unknown) =>
      this.log.error(
        { err, stream: DEAD_LETTER_STREAM },
        `the dead-letter stream ${DEAD_LETTER_STREAM} is out of reach; failing events stay in ${EVENT_STREAM}`,
      ),
    );
  }

  /**
   * Creates the stream with NATS_STREAM_REPLICAS copies, or brings an existing stream to that
   * count (JetStream scales a stream's replicas on update; consumers that did not set their own
   * count follow their stream). More copies than the server has nodes is refused with the reason.
   */
  async #ensure(name: string, subjects: string): Promise<void> {
    const replicas = this.#streamReplicas ?? 1;
    // With one copy an error is what it always was; with more, it says which setting to change.
    const refused = (err: unknown) =>
      replicas === 1
        ? err
        : new Error(
            `JetStream refused ${replicas} replica(s) for the stream ${name}: ${err instanceof Error ? err.message : String(err)}. ` +
              `NATS_STREAM_REPLICAS must not exceed the number of clustered NATS servers (1 for a single server, 3 for the cluster; docs/adr/0040).`,
            { cause: err },
          );
    // A single server refuses to create such a stream, but (nats-server 2.9) accepts the update and
    // then keeps one copy that claims three: never ask a server outside a cluster for more than one.
    if (replicas > 1 && !this.connection.info?.cluster) throw refused(new Error('the server is not part of a cluster'));
    let current: number | undefined;
    try {
      current = (await this.jsm.streams.info(name)).config.num_replicas;
    } catch {
      await this.jsm.streams
        .add({
          name,
          subjects: [subjects],
          // de-duplication window for message ids set by publishers
          duplicate_window: nanos(2 * 60_000),
          num_replicas: replicas,
        })
        .catch((err: unknown) => {
          throw refused(err);
        });
      return;
    }
    if (this.#streamReplicas === undefined || (current || 1) === replicas) return;
    await this.jsm.streams.update(name, { num_replicas: replicas }).catch((err: unknown) => {
      throw refused(err);
    });
    this.log.info({ stream: name, from: current, to: replicas }, `stream ${name} now keeps ${replicas} replica(s) (was ${current})`);
  }

  /**
   * Publishes a validated event. `messageId` makes retries of the same publish harmless. Throws
   * BusUnavailableError at once while the connection is down, and when the stream does not
   * acknowledge within `timeoutMs`.
   */
  async publish<E extends EventContract>(
    event: E,
    payload: EventPayload<E>,
    messageId: string,
    options: PublishOptions = {},
  ): Promise<{ duplicate: boolean }> {
    if (!Value.Check(event.payload, payload)) {
      const first = [...Value.Errors(event.payload, payload)][0];
      throw new Error(`Refusing to publish an invalid ${event.subject}: ${first?.path ?? ''} ${first?.message ?? ''}`);
    }
    return this.publishRaw(event.subject, JSON.stringify(payload), messageId, options);
  }

  /** Publishes bytes as they are (dead letters, re-drives), with the same bounded wait. */
  async publishRaw(
    subject: string,
    data: string | Uint8Array,
    messageId: string,
    options: PublishOptions = {},
  ): Promise<{ duplicate: boolean }> {
    if (!this.connected) throw new BusUnavailableError(`The event bus is not connected; ${subject} was not published.`);
    // A PRODUCER span; its context rides in the headers (W3C traceparent) to the consumer's span.
    return withPublishSpan(subject, messageId, async () => {
      const h = options.headers ?? headers();
      injectTraceContext(h);
      try {
        const ack = await this.js.publish(subject, data, {
          msgID: messageId,
          timeout: options.timeoutMs ?? PUBLISH_TIMEOUT_MS,
          headers: h,
        });
        return { duplicate: ack.duplicate };
      } catch (err) {
        throw new BusUnavailableError(`The event bus did not take ${subject}: ${err instanceof Error ? err.message : String(err)}`, {
          cause: err,
        });
      }
    });
  }

  /**
   * Signals: core NATS messages to every running instance of the services listening (no stream, no
   * acknowledgement, nothing kept). For hints that something changed, such as "this person's unread
   * count moved" (docs/adr/0067), where a lost one costs only a late badge: readers fall back to polling.
   * Never throws: while the connection is down the signal is dropped.
   */
  signal(subject: string, payload: unknown): boolean {
    if (!SIGNAL_SUBJECT.test(subject)) throw new Error(`A signal subject starts with "signal.": ${subject}`);
    if (!this.connected) return false;
    try {
      this.connection.publish(subject, JSON.stringify(payload));
      return true;
    } catch (err) {
      this.log.warn({ err, subject }, 'a signal was not sent; readers will see the change at their next poll');
      return false;
    }
  }

  /** Calls `handler` with each signal on `subject` (wildcards allowed); returns the unsubscribe. */
  onSignal(subject: string, handler: (payload: unknown, subject: string) => void): () => void {
    if (!SIGNAL_SUBJECT.test(subject)) throw new Error(`A signal subject starts with "signal.": ${subject}`);
    const subscription = this.connection.subscribe(subject, {
      callback: (err, message) => {
        if (err) return this.log.warn({ err, subject }, 'signal subscription failed');
        try {
          handler(message.json(), message.subject);
        } catch (error) {
          this.log.warn({ err: error, subject: message.subject }, 'a signal could not be handled');
        }
      },
    });
    return () => subscription.unsubscribe();
  }

  /**
   * Every event of `event`'s subject the stream holds, from its start, in stream order (a rebuild of a read model,
   * docs/adr/0072). Reads through a durable of its own (`durable`, granted with its DELETE in the service's NATS
   * permissions as a replay), made fresh and deleted afterwards; the live consumers are not touched. Events that
   * do not match the contract are left out and counted.
   */
  async replay<E extends EventContract>(
    event: E,
    durable: string,
  ): Promise<{ events: { seq: number; payload: EventPayload<E> }[]; invalid: number }> {
    await this.jsm.consumers.delete(EVENT_STREAM, durable).catch(() => undefined);
    await this.jsm.consumers.add(EVENT_STREAM, {
      durable_name: durable,
      filter_subject: event.subject,
      ack_policy: AckPolicy.None,
      deliver_policy: DeliverPolicy.All,
    });
    const events: { seq: number; payload: EventPayload<E> }[] = [];
    let invalid = 0;
    try {
      const consumer = await this.js.consumers.get(EVENT_STREAM, durable);
      let pending = (await consumer.info()).num_pending;
      while (pending > 0) {
        const batch = await consumer.fetch({ max_messages: Math.min(pending, 500), expires: 5_000 });
        let got = 0;
        for await (const message of batch) {
          got += 1;
          let payload: unknown;
          try {
            payload = message.json();
          } catch {
            invalid += 1;
            continue;
          }
          if (Value.Check(event.payload, payload)) events.push({ seq: message.seq, payload: payload as EventPayload<E> });
          else invalid += 1;
        }
        if (got === 0) break;
        pending = (await consumer.info()).num_pending;
      }
    } finally {
      await this.jsm.consumers.delete(EVENT_STREAM, durable).catch(() => undefined);
    }
    return { events, invalid };
  }

  /**
   * Starts a durable consumer. A handler that throws leaves the message unacknowledged (negative
   * ack with back-off) so it is redelivered; after `maxDeliver` failed deliveries it is parked in
   * TUBER_DLQ with an alert in the log, and the consumer goes on with the next events meanwhile.
   * A failure because a dependency is away is retried with back-off for as long as it lasts.
   * Handlers must be idempotent: delivery is at-least-once.
   */
  async consume<E extends EventContract>(event: E, options: ConsumeOptions, handler: EventHandler<E>): Promise<void> {
    const policy: DeliveryPolicy = {
      durable: options.durable,
      maxDeliver: options.maxDeliver ?? 8,
      backoffMs: options.backoffMs ?? 1_000,
      maxBackoffMs: options.maxBackoffMs ?? 30_000,
    };
    await this.jsm.consumers.add(EVENT_STREAM, {
      durable_name: options.durable,
      filter_subject: event.subject,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(options.ackWaitMs ?? 30_000),
      // No bound on the server: the kit decides when an event is parked (never while a dependency is away).
      max_deliver: -1,
    });
    const consumer = await this.js.consumers.get(EVENT_STREAM, options.durable);
    const messages = await consumer.consume({ max_messages: 64 });
    this.#consumers.push(messages);
    // Event lag for the metrics endpoint: asked of the server on a scrape only.
    const unwatch = watchConsumerLag(options.durable, event.subject, async () => {
      const info = await consumer.info();
      return { pending: info.num_pending, ackPending: info.num_ack_pending };
    });
    void messages.closed().finally(unwatch);
    this.#running.push(this.#dispatch(event, messages, handler, policy));
  }

  async #dispatch<E extends EventContract>(event: E, messages: ConsumerMessages, handler: EventHandler<E>, policy: DeliveryPolicy) {
    for await (const message of messages) {
      // A CONSUMER span `<subject> process`, child of the publisher's span carried in the headers.
      const delivery = {
        subject: message.subject,
        consumer: policy.durable,
        messageId:
          message.headers?.get(REDRIVE_OF_HEADER) || message.headers?.get('Nats-Msg-Id') || `${message.info.stream}:${message.seq}`,
        deliveryCount: message.info.deliveryCount,
        streamSequence: message.seq,
        storedAtMs: Number(message.info.timestampNanos) / 1_000_000,
        headers: message.headers,
      };
      await withConsumeSpan(delivery, () => this.#handleOne(event, message, handler, policy));
    }
  }

  async #handleOne<E extends EventContract>(event: E, message: JsMsg, handler: EventHandler<E>, policy: DeliveryPolicy) {
    const messageId =
      message.headers?.get(REDRIVE_OF_HEADER) || message.headers?.get('Nats-Msg-Id') || `${message.info.stream}:${message.seq}`;
    const context = { messageId, deliveryCount: message.info.deliveryCount };
    let payload: unknown;
    try {
      payload = message.json();
    } catch {
      // No retry can make it readable: park it at once.
      return this.#park(message, policy, messageId, 'the event is not JSON');
    }
    if (!Value.Check(event.payload, payload)) {
      const first = [...Value.Errors(event.payload, payload)][0];
      return this.#park(message, policy, messageId, `the event does not match its contract: ${first?.path ?? ''} ${first?.message ?? ''}`);
    }
    try {
      await handler(payload as EventPayload<E>, context);
      message.ack();
    } catch (err) {
      failActiveSpan(err);
      const away = unavailableDependency(err);
      const reason = err instanceof Error ? err.message : String(err);
      if (!away && context.deliveryCount >= policy.maxDeliver) return this.#park(message, policy, messageId, reason);
      const delay = retryDelay(policy, context.deliveryCount);
      const details = {
        err,
        consumer: policy.durable,
        subject: message.subject,
        messageId,
        delivery: context.deliveryCount,
        retryInMs: delay,
      };
      if (away) this.log.warn({ ...details, dependency: away }, `event handling waits for the ${away}; it will be retried`);
      else this.log.warn({ ...details, maxDeliver: policy.maxDeliver }, 'event handler failed; it will be retried');
      message.nak(delay);
    }
  }

  /**
   * Puts a message the consumer gave up on into TUBER_DLQ (subject, message id, payload, error,
   * deliveries) and only then terminates it. If the dead-letter stream cannot take it, the
   * message stays in the event stream and is tried again later: it is never lost.
   */
  async #park(message: JsMsg, policy: DeliveryPolicy, messageId: string, reason: string): Promise<void> {
    const h = headers();
    h.set(DeadLetterHeader.consumer, policy.durable);
    h.set(DeadLetterHeader.subject, message.subject);
    h.set(DeadLetterHeader.messageId, messageId);
    h.set(DeadLetterHeader.streamSeq, String(message.seq));
    h.set(DeadLetterHeader.deliveries, String(message.info.deliveryCount));
    h.set(DeadLetterHeader.error, reason.replace(/[\r\n]+/g, ' ').slice(0, 1_000));
    h.set(DeadLetterHeader.parkedAt, new Date().toISOString());
    const alert = {
      alert: 'dead-letter',
      consumer: policy.durable,
      subject: message.subject,
      messageId,
      deliveries: message.info.deliveryCount,
      error: reason,
    };
    try {
      // One dead letter per (consumer, stream message), however often parking is retried.
      await this.publishRaw(deadLetterSubject(policy.durable), message.data, `dlq:${policy.durable}:${message.seq}`, { headers: h });
    } catch (err) {
      this.log.error(
        { ...alert, err },
        `event could not be parked in ${DEAD_LETTER_STREAM}; it stays in ${EVENT_STREAM} and is tried again`,
      );
      message.nak(policy.maxBackoffMs);
      return;
    }
    message.term(`parked in ${DEAD_LETTER_STREAM}`);
    this.log.error(
      { ...alert, deadLetterSubject: deadLetterSubject(policy.durable) },
      `event parked in ${DEAD_LETTER_STREAM}: consumer ${policy.durable} gave up on ${message.subject} message ${messageId} after ${message.info.deliveryCount} deliveries (${reason}); fix the cause, then re-drive it with \`make redrive\``,
    );
  }

  /** Readiness: the connection is up and JetStream answers. */
  async check(): Promise<void> {
    if (this.connection.isClosed()) throw new Error('connection closed');
    if (!this.#connected) throw new Error('disconnected; reconnecting');
    await this.connection.flush();
    await this.jsm.getAccountInfo();
  }

  /** Stops consumers (letting in-flight handlers finish), then drains the connection. */
  async close(): Promise<void> {
    for (const messages of this.#consumers) messages.stop();
    await Promise.allSettled(this.#running);
    if (!this.connection.isClosed()) await this.connection.drain();
  }
}

interface DeliveryPolicy {
  durable: string;
  maxDeliver: number;
  backoffMs: number;
  maxBackoffMs: number;
}

/** Back-off before the next delivery: backoffMs, doubled per delivery, at most maxBackoffMs. */
export function retryDelay(policy: { backoffMs: number; maxBackoffMs: number }, deliveryCount: number): number {
  return Math.min(policy.maxBackoffMs, policy.backoffMs * 2 ** Math.max(0, deliveryCount - 1));
}
