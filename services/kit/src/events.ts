// The one event-bus abstraction: NATS JetStream with message-id de-duplication on publish and
// durable, explicitly acknowledged consumers with bounded redelivery.
import { connect, nanos, type NatsConnection } from '@nats-io/transport-node';
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

registerFormats();

export interface ConsumeOptions {
  /** Durable consumer name: one per (service, purpose). */
  durable: string;
  /** How long the server waits for an ack before redelivering. */
  ackWaitMs?: number;
  /** Deliveries before the message is given up (and logged). */
  maxDeliver?: number;
}

export interface EventContext {
  /** The publisher's message id: the natural key for idempotent handling. */
  messageId: string;
  deliveryCount: number;
}

export type EventHandler<E extends EventContract> = (payload: EventPayload<E>, context: EventContext) => Promise<void>;

export class EventBus {
  readonly #consumers: ConsumerMessages[] = [];
  readonly #running: Promise<void>[] = [];

  private constructor(
    readonly connection: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly log: FastifyBaseLogger,
  ) {}

  static async connect(url: string, name: string, log: FastifyBaseLogger): Promise<EventBus> {
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
    await bus.ensureStream();
    return bus;
  }

  async ensureStream(): Promise<void> {
    try {
      await this.jsm.streams.info(EVENT_STREAM);
    } catch {
      await this.jsm.streams.add({
        name: EVENT_STREAM,
        subjects: [EVENT_SUBJECTS],
        // de-duplication window for message ids set by publishers
        duplicate_window: nanos(2 * 60_000),
      });
    }
  }

  /** Publishes a validated event. `messageId` makes retries of the same publish harmless. */
  async publish<E extends EventContract>(event: E, payload: EventPayload<E>, messageId: string): Promise<{ duplicate: boolean }> {
    if (!Value.Check(event.payload, payload)) {
      const first = [...Value.Errors(event.payload, payload)][0];
      throw new Error(`Refusing to publish an invalid ${event.subject}: ${first?.path ?? ''} ${first?.message ?? ''}`);
    }
    const ack = await this.js.publish(event.subject, JSON.stringify(payload), { msgID: messageId });
    return { duplicate: ack.duplicate };
  }

  /**
   * Starts a durable consumer. A handler that throws leaves the message unacknowledged
   * (negative ack with back-off) so it is redelivered, up to maxDeliver times.
   * Handlers must be idempotent: delivery is at-least-once.
   */
  async consume<E extends EventContract>(event: E, options: ConsumeOptions, handler: EventHandler<E>): Promise<void> {
    const maxDeliver = options.maxDeliver ?? 10;
    await this.jsm.consumers.add(EVENT_STREAM, {
      durable_name: options.durable,
      filter_subject: event.subject,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(options.ackWaitMs ?? 30_000),
      max_deliver: maxDeliver,
    });
    const consumer = await this.js.consumers.get(EVENT_STREAM, options.durable);
    const messages = await consumer.consume({ max_messages: 64 });
    this.#consumers.push(messages);
    this.#running.push(this.#dispatch(event, messages, handler, maxDeliver));
  }

  async #dispatch<E extends EventContract>(event: E, messages: ConsumerMessages, handler: EventHandler<E>, maxDeliver: number) {
    for await (const message of messages) {
      await this.#handleOne(event, message, handler, maxDeliver);
    }
  }

  async #handleOne<E extends EventContract>(event: E, message: JsMsg, handler: EventHandler<E>, maxDeliver: number) {
    const messageId = message.headers?.get('Nats-Msg-Id') || `${message.info.stream}:${message.seq}`;
    const context = { messageId, deliveryCount: message.info.deliveryCount };
    let payload: unknown;
    try {
      payload = message.json();
    } catch {
      this.log.error({ subject: message.subject, messageId }, 'event is not JSON; dropping it');
      message.term();
      return;
    }
    if (!Value.Check(event.payload, payload)) {
      this.log.error({ subject: message.subject, messageId }, 'event does not match its contract; dropping it');
      message.term();
      return;
    }
    try {
      await handler(payload as EventPayload<E>, context);
      message.ack();
    } catch (err) {
      const last = context.deliveryCount >= maxDeliver;
      this.log.error({ err, subject: message.subject, messageId, delivery: context.deliveryCount, last }, 'event handler failed');
      if (last) message.term();
      else message.nak(Math.min(30_000, 500 * 2 ** context.deliveryCount));
    }
  }

  /** Readiness: the connection is up and JetStream answers. */
  async check(): Promise<void> {
    if (this.connection.isClosed()) throw new Error('connection closed');
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
