// The trace context carried in NATS message headers (docs/adr/0037): written by the publisher's
// PRODUCER span, read back by the consumer's CONSUMER span, in-process with an in-memory exporter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headers } from '@nats-io/transport-node';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { extractTraceContext, injectTraceContext, withConsumeSpan, withPublishSpan, type Delivery } from '../../src/observe.js';
import { startTelemetry, type Telemetry } from '../../src/telemetry.js';

const exporter = new InMemorySpanExporter();
const tracer = () => trace.getTracer('trace-context-test');

const delivery = (h: Delivery['headers'], overrides: Partial<Delivery> = {}): Delivery => ({
  subject: 'tuber.test.thing.v1',
  consumer: 'test-consumer',
  messageId: 'm-1',
  deliveryCount: 1,
  streamSequence: 42,
  headers: h,
  ...overrides,
});

describe('trace context in NATS headers, before telemetry starts', () => {
  it('writes nothing and costs nothing while no SDK runs', async () => {
    const h = headers();
    await withPublishSpan('tuber.test.thing.v1', 'm-0', async () => injectTraceContext(h));
    expect(h.keys()).toEqual([]);
  });

  it('does not start without a trace endpoint or a metrics port, or when OTEL_SDK_DISABLED says so', async () => {
    expect(await startTelemetry({ serviceName: 'unit', env: {} })).toBeUndefined();
    expect(await startTelemetry({ serviceName: 'unit', env: { METRICS_PORT: '0', OTEL_EXPORTER_OTLP_ENDPOINT: '' } })).toBeUndefined();
    expect(
      await startTelemetry({ serviceName: 'unit', env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1', OTEL_SDK_DISABLED: 'true' } }),
    ).toBeUndefined();
    expect(trace.getActiveSpan()).toBeUndefined();
  });
});

describe('trace context in NATS headers', () => {
  let telemetry: Telemetry | undefined;
  beforeAll(async () => {
    telemetry = await startTelemetry({ serviceName: 'unit', env: {}, spanProcessors: [new SimpleSpanProcessor(exporter)] });
  });
  afterAll(async () => telemetry?.shutdown());

  it('injects the active span as a W3C traceparent and extracts the same span context', () => {
    const h = headers();
    const span = tracer().startSpan('parent');
    injectTraceContext(h, trace.setSpan(extractTraceContext(undefined), span));
    span.end();
    const { traceId, spanId } = span.spanContext();
    expect(h.get('traceparent')).toBe(`00-${traceId}-${spanId}-01`);
    const extracted = trace.getSpanContext(extractTraceContext(h));
    expect(extracted).toMatchObject({ traceId, spanId, isRemote: true });
  });

  it('reads a traceparent whatever the case of the header name', () => {
    const h = headers();
    h.set('TraceParent', '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01');
    expect(trace.getSpanContext(extractTraceContext(h))?.traceId).toBe('0af7651916cd43dd8448eb211c80319c');
  });

  it('extracts no span context from a message without one (a new trace starts)', () => {
    expect(trace.getSpanContext(extractTraceContext(headers()))).toBeUndefined();
    expect(trace.getSpanContext(extractTraceContext(undefined))).toBeUndefined();
  });

  it('makes the consumer span a child of the producer span across the headers', async () => {
    exporter.reset();
    const h = headers();
    await withPublishSpan('tuber.test.thing.v1', 'm-1', async () => injectTraceContext(h));
    let activeInHandler: string | undefined;
    await withConsumeSpan(delivery(h), async () => {
      activeInHandler = trace.getActiveSpan()?.spanContext().spanId;
    });
    const [producer, consumer] = exporter.getFinishedSpans();
    expect(producer?.name).toBe('tuber.test.thing.v1 publish');
    expect(producer?.kind).toBe(SpanKind.PRODUCER);
    expect(producer?.attributes).toMatchObject({
      'messaging.system': 'nats',
      'messaging.destination.name': 'tuber.test.thing.v1',
      'messaging.message.id': 'm-1',
    });
    expect(consumer?.name).toBe('tuber.test.thing.v1 process');
    expect(consumer?.kind).toBe(SpanKind.CONSUMER);
    expect(consumer?.spanContext().traceId).toBe(producer?.spanContext().traceId);
    expect(consumer?.parentSpanContext?.spanId).toBe(producer?.spanContext().spanId);
    expect(consumer?.attributes).toMatchObject({
      'messaging.system': 'nats',
      'messaging.consumer.group.name': 'test-consumer',
      'messaging.message.id': 'm-1',
      'messaging.nats.delivery_count': 1,
      'messaging.nats.redelivered': false,
      'messaging.nats.stream_sequence': 42,
    });
    // The handler's own work (database calls, further publishes) runs inside the consumer span.
    expect(activeInHandler).toBe(consumer?.spanContext().spanId);
  });

  it('marks a failed handling and a redelivery on the consumer span', async () => {
    exporter.reset();
    await expect(
      withConsumeSpan(delivery(undefined, { deliveryCount: 3 }), async () => {
        throw new Error('the handler broke');
      }),
    ).rejects.toThrow('the handler broke');
    const [span] = exporter.getFinishedSpans();
    expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'the handler broke' });
    expect(span?.attributes['messaging.nats.redelivered']).toBe(true);
    expect(span?.parentSpanContext).toBeUndefined();
    expect(span?.events.map((e) => e.name)).toContain('exception');
  });
});
