// What the kit reports to OpenTelemetry, written against the API only (docs/adr/0037): the trace
// context carried in NATS message headers, the producer and consumer spans around publish and
// handling, and the kit's metrics (HTTP requests, event lag, outbox depth). Without a started SDK
// (telemetry.ts) every call here is a no-op that costs next to nothing.
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  metrics,
  propagation,
  trace,
  type Attributes,
  type Context,
  type Counter,
  type Histogram,
  type Span,
  type TextMapGetter,
  type TextMapSetter,
} from '@opentelemetry/api';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** Name of the kit's tracer and meter. */
export const INSTRUMENTATION_SCOPE = '@tuber/kit';

/** The subset of NATS message headers the propagator reads and writes (MsgHdrs fits). */
export interface HeaderCarrier {
  get(key: string): string;
  set(key: string, value: string): void;
  keys(): string[];
}

const setter: TextMapSetter<HeaderCarrier> = {
  set: (carrier, key, value) => carrier.set(key, value),
};

const getter: TextMapGetter<HeaderCarrier | undefined> = {
  keys: (carrier) => carrier?.keys() ?? [],
  // NATS headers keep the case they were set with; the propagator asks in lower case.
  get: (carrier, key) => {
    if (!carrier) return undefined;
    const name = carrier.keys().find((k) => k.toLowerCase() === key.toLowerCase());
    return name === undefined ? undefined : carrier.get(name) || undefined;
  },
};

/** Writes the trace context of `ctx` (W3C traceparent/tracestate) into message headers. */
export function injectTraceContext(headers: HeaderCarrier, ctx: Context = context.active()): void {
  propagation.inject(ctx, headers, setter);
}

/** The context a message's headers carry (the root context when they carry none). */
export function extractTraceContext(headers: HeaderCarrier | undefined): Context {
  return propagation.extract(ROOT_CONTEXT, headers, getter);
}

const tracer = () => trace.getTracer(INSTRUMENTATION_SCOPE);

/** Records a failure on the span: exception event and error status. */
/** Runs `work` in `span`, marks the span failed when it throws, and ends it either way. */
async function endingSpan<T>(span: Span, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    failSpan(span, err);
    throw err;
  } finally {
    span.end();
  }
}

export function failSpan(span: Span | undefined, err: unknown): void {
  if (!span) return;
  span.recordException(err instanceof Error ? err : new Error(String(err)));
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
}

/**
 * Runs a publish inside a PRODUCER span `<subject> publish`; `work` gets the span's context to
 * inject into the message headers, so the consumer's span continues this trace.
 */
export async function withPublishSpan<T>(subject: string, messageId: string, work: () => Promise<T>): Promise<T> {
  return tracer().startActiveSpan(
    `${subject} publish`,
    {
      kind: SpanKind.PRODUCER,
      attributes: {
        'messaging.system': 'nats',
        'messaging.operation.type': 'send',
        'messaging.operation.name': 'publish',
        'messaging.destination.name': subject,
        'messaging.message.id': messageId,
      },
    },
    (span) => endingSpan(span, work),
  );
}

/** What the consumer span says about one delivery. */
export interface Delivery {
  subject: string;
  consumer: string;
  messageId: string;
  deliveryCount: number;
  streamSequence: number;
  /** When the stream stored the message (ms since the epoch), for the event-age histogram. */
  storedAtMs?: number;
  headers: HeaderCarrier | undefined;
}

/**
 * Runs the handling of one delivery inside a CONSUMER span `<subject> process`, a child of the
 * publisher's span (from the headers), and records the age of the event. No link besides the
 * parent: Jaeger turns a link to the parent into FOLLOWS_FROM and drops the CHILD_OF.
 */
export async function withConsumeSpan<T>(delivery: Delivery, work: () => Promise<T>): Promise<T> {
  const parent = extractTraceContext(delivery.headers);
  const attributes: Attributes = {
    'messaging.system': 'nats',
    'messaging.operation.type': 'process',
    'messaging.operation.name': 'process',
    'messaging.destination.name': delivery.subject,
    'messaging.consumer.group.name': delivery.consumer,
    'messaging.message.id': delivery.messageId,
    'messaging.nats.delivery_count': delivery.deliveryCount,
    'messaging.nats.redelivered': delivery.deliveryCount > 1,
    'messaging.nats.stream_sequence': delivery.streamSequence,
  };
  if (delivery.storedAtMs !== undefined) {
    instruments()?.eventAge.record(Math.max(0, Date.now() - delivery.storedAtMs) / 1000, {
      consumer: delivery.consumer,
      subject: delivery.subject,
    });
  }
  return tracer().startActiveSpan(`${delivery.subject} process`, { kind: SpanKind.CONSUMER, attributes }, parent, (span) =>
    endingSpan(span, work),
  );
}

/** Marks the current span (the consumer's) failed without ending it: the handler threw. */
export function failActiveSpan(err: unknown): void {
  failSpan(trace.getActiveSpan(), err);
}

// ---- metrics -------------------------------------------------------------------------------------

interface Instruments {
  httpRequests: Counter;
  httpDuration: Histogram;
  eventAge: Histogram;
}

let metricsOn = false;
let cached: Instruments | undefined;
const consumerLag = new Map<string, { subject: string; read: () => Promise<{ pending: number; ackPending: number }> }>();
const outboxDepth = new Map<string, number>();
/** Services' own gauges declared before the SDK started: created once it does (observeGauge). */
const pendingGauges: (() => void)[] = [];

/** Whether a metrics endpoint runs (telemetry.ts turns it on); work done only for metrics checks it. */
export const metricsEnabled = (): boolean => metricsOn;

/**
 * Creates the kit's instruments on the meter provider telemetry.ts registered. Instruments taken
 * before a provider is registered stay no-ops for good, so this runs after the SDK started.
 */
export function enableKitMetrics(): void {
  metricsOn = true;
  const meter = metrics.getMeter(INSTRUMENTATION_SCOPE);
  cached = {
    httpRequests: meter.createCounter('tuber.http.requests', {
      description: 'HTTP requests answered, by method, route template and status code',
    }),
    httpDuration: meter.createHistogram('tuber.http.request.duration', {
      description: 'Time from request received to response sent, by method, route template and status code',
      unit: 's',
      advice: { explicitBucketBoundaries: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] },
    }),
    eventAge: meter.createHistogram('tuber.event.age', {
      description: 'Age of an event when its handler starts: time since the stream stored it',
      unit: 's',
      advice: { explicitBucketBoundaries: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 1800] },
    }),
  };
  // One sample per durable consumer from its last info; none while the bus is away (rather than a wrong one).
  const consumerGauge = (name: string, description: string, field: 'pending' | 'ackPending') =>
    meter.createObservableGauge(name, { description }).addCallback(async (result) => {
      await Promise.all(
        [...consumerLag].map(([consumer, { subject, read }]) =>
          read().then(
            (lag) => result.observe(lag[field], { consumer, subject }),
            () => undefined,
          ),
        ),
      );
    });
  consumerGauge('tuber.event.consumer.pending', 'Events in the stream not yet delivered to the durable consumer', 'pending');
  consumerGauge(
    'tuber.event.consumer.ack_pending',
    'Events delivered to the durable consumer and not yet acknowledged (in handling or waiting for a retry)',
    'ackPending',
  );
  meter
    .createObservableGauge('tuber.outbox.depth', {
      description: 'Documents whose outbox still holds events not yet published, per model (refreshed by the outbox relay)',
    })
    .addCallback((result) => {
      for (const [model, depth] of outboxDepth) result.observe(depth, { model });
    });
  // Saturation: how late the event loop runs its callbacks (p99 over each scrape interval), and memory.
  const loopDelay = monitorEventLoopDelay({ resolution: 20 });
  loopDelay.enable();
  meter
    .createObservableGauge('tuber.eventloop.delay.p99', {
      description: 'p99 of the event loop delay since the previous collection',
      unit: 's',
    })
    .addCallback((result) => {
      if (loopDelay.count > 0) result.observe(loopDelay.percentile(99) / 1e9);
      loopDelay.reset();
    });
  meter
    .createObservableGauge('tuber.process.rss', { description: 'Resident set size of the process', unit: 'By' })
    .addCallback((result) => result.observe(process.memoryUsage.rss()));
  for (const register of pendingGauges.splice(0)) register();
}

// ---- a service's own metrics (e.g. the catalog's read model, docs/adr/0061) ----------------------

/** One sample of a service's gauge. */
export interface GaugeSample {
  value: number;
  attributes?: Attributes;
}

/**
 * A gauge of the service's own, read on every scrape; a read that fails gives no sample (rather
 * than a wrong one). Nothing is read while metrics are off.
 */
export function observeGauge(name: string, description: string, read: () => GaugeSample[] | Promise<GaugeSample[]>): void {
  const register = () =>
    metrics
      .getMeter(INSTRUMENTATION_SCOPE)
      .createObservableGauge(name, { description })
      .addCallback(async (result) => {
        const samples = await Promise.resolve()
          .then(read)
          .catch(() => []);
        for (const sample of samples) result.observe(sample.value, sample.attributes);
      });
  if (metricsOn) register();
  else pendingGauges.push(register);
}

/** A counter of the service's own: the returned function adds to it (a no-op while metrics are off). */
export function serviceCounter(name: string, description: string): (attributes?: Attributes, value?: number) => void {
  let counter: Counter | undefined;
  return (attributes, value = 1) => {
    if (!metricsOn) return;
    counter ??= metrics.getMeter(INSTRUMENTATION_SCOPE).createCounter(name, { description });
    counter.add(value, attributes);
  };
}

const instruments = (): Instruments | undefined => cached;

/** Counts one answered HTTP request (the app's onResponse hook). */
export function recordHttpRequest(method: string, route: string, statusCode: number, seconds: number): void {
  const i = instruments();
  if (!i) return;
  const attributes = { method, route, status_code: String(statusCode) };
  i.httpRequests.add(1, attributes);
  i.httpDuration.record(seconds, attributes);
}

/** Reports a durable consumer's backlog on every scrape; returns the unregister. */
export function watchConsumerLag(
  consumer: string,
  subject: string,
  read: () => Promise<{ pending: number; ackPending: number }>,
): () => void {
  // One scrape asks the server once per consumer, however many gauges read it.
  let last: { at: number; value: Promise<{ pending: number; ackPending: number }> } | undefined;
  const cachedRead = () => {
    if (!last || Date.now() - last.at > 1_000) last = { at: Date.now(), value: read() };
    return last.value;
  };
  consumerLag.set(consumer, { subject, read: cachedRead });
  return () => consumerLag.delete(consumer);
}

/** Sets the outbox depth of one model (documents with a non-empty outbox). */
export function setOutboxDepth(model: string, documents: number): void {
  outboxDepth.set(model, documents);
}

let fastifyInstrumenter: ((app: unknown) => void) | undefined;

/** telemetry.ts hands over how to add @fastify/otel's hooks to an app. */
export function setFastifyInstrumenter(instrument: (app: unknown) => void): void {
  fastifyInstrumenter = instrument;
}

/**
 * Adds the Fastify spans (request, handler, each hook) to an app when telemetry runs. Called by
 * createServiceApp after its own onRoute hooks: the tracing wraps route hooks in functions of its
 * own, and the kit reads the statuses tagged on its pre-handlers (ANSWERS) before that.
 */
export function instrumentFastify(app: unknown): void {
  fastifyInstrumenter?.(app);
}

let shutdownHook: (() => Promise<void>) | undefined;

/** telemetry.ts registers how to flush and stop the SDK; runService calls it last on shutdown. */
export function onTelemetryShutdown(hook: () => Promise<void>): void {
  shutdownHook = hook;
}

/** Flushes pending spans and stops the SDK, if one was started (bounded by the caller's grace period). */
export async function shutdownTelemetry(): Promise<void> {
  const hook = shutdownHook;
  shutdownHook = undefined;
  await hook?.();
}
