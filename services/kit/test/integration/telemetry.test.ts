// Telemetry against the real NATS (docs/adr/0037): a publish and its consumption in one process
// make one trace (PRODUCER span, CONSUMER span as its child), and the metrics endpoint reports the
// HTTP requests served and the consumers' backlog.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import pino from 'pino';
import { randomUUID } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { EVENT_STREAM, type EventContract } from '@tuber/contracts';
import { startTelemetry, type Telemetry } from '../../src/telemetry.js';
import { createServiceApp, EventBus, type ServiceApp } from '../../src/index.js';
import { ANSWERS } from '../../src/app.js';
import { natsUrl } from '../../../../test/support/credentials.js';
import { freePort } from '../../../../test/support/ports.js';
import { until } from '../support/until.js';

const log = pino({ level: 'silent' });
const exporter = new InMemorySpanExporter();

const testEvent = (): EventContract => ({
  subject: `tuber.test.${randomUUID().slice(0, 8)}.v1`,
  version: 1,
  payload: Type.Object({ n: Type.Integer() }),
});

const spansNamed = (name: string): ReadableSpan[] => exporter.getFinishedSpans().filter((s) => s.name === name);

let telemetry: Telemetry | undefined;
let bus: EventBus;
let app: ServiceApp;
const durables: string[] = [];

beforeAll(async () => {
  telemetry = await startTelemetry({
    serviceName: 'kit-telemetry-test',
    env: {},
    spanProcessors: [new SimpleSpanProcessor(exporter)],
    metricsPort: await freePort(),
  });
  bus = await EventBus.connect(natsUrl(), 'kit-telemetry-test', log);
  app = await createServiceApp({ name: 'telemetry-test', logLevel: 'silent' });
  app.get('/api/telemetry-test/ping/:id', async () => ({ pong: true }));
  // A route behind a kit pre-handler that declares what it may answer (as authenticate does).
  const guard = Object.assign(async () => undefined, { [ANSWERS]: [401, 503] });
  app.get(
    '/api/telemetry-test/guarded',
    { onRequest: guard, schema: { response: { 200: Type.Object({ ok: Type.Boolean() }) } } },
    async () => ({ ok: true }),
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  const jsm = bus ? await jetstreamManager(bus.connection) : undefined;
  for (const durable of durables) await jsm?.consumers.delete(EVENT_STREAM, durable).catch(() => undefined);
  await app?.close();
  await bus?.close();
  await telemetry?.shutdown();
});

describe('telemetry with the real bus', () => {
  it('starts only because a span processor and a metrics port were given', () => {
    expect(telemetry?.tracing).toBe(true);
    expect(telemetry?.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
  });

  it('keeps the statuses the kit’s pre-handlers declare although the Fastify tracing wraps them', async () => {
    const doc = app.swagger() as { paths: Record<string, { get: { responses: Record<string, unknown> } }> };
    expect(Object.keys(doc.paths['/api/telemetry-test/guarded']!.get.responses).sort()).toEqual(['200', '401', '503']);
    // ...and the route is traced: its handler span is there.
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    expect((await fetch(`${base}/api/telemetry-test/guarded`)).status).toBe(200);
    await until(
      () =>
        exporter
          .getFinishedSpans()
          .some((s) => s.name.startsWith('handler') && s.attributes['http.route'] === '/api/telemetry-test/guarded'),
      5_000,
    );
  });

  it('a publish and its consumption make one trace: the consumer span is the producer span’s child', async () => {
    const event = testEvent();
    const durable = `t-otel-${randomUUID().slice(0, 8)}`;
    durables.push(durable);
    const handled: { traceId?: string; spanId?: string }[] = [];
    await bus.consume(event, { durable }, async () => {
      handled.push({ ...trace.getActiveSpan()?.spanContext() });
    });

    const messageId = randomUUID();
    // As a route does: the publish happens inside the request's span.
    await trace.getTracer('test').startActiveSpan('POST /api/test', async (span) => {
      await bus.publish(event, { n: 1 }, messageId);
      span.end();
    });
    await until(() => handled.length > 0 && spansNamed(`${event.subject} process`).length > 0, 15_000);

    const [producer] = spansNamed(`${event.subject} publish`);
    const [consumer] = spansNamed(`${event.subject} process`);
    const [route] = exporter
      .getFinishedSpans()
      .filter((s) => s.name === 'POST /api/test' && s.spanContext().traceId === producer?.spanContext().traceId);
    expect(producer?.kind).toBe(SpanKind.PRODUCER);
    expect(producer?.parentSpanContext?.spanId).toBe(route?.spanContext().spanId);
    expect(producer?.attributes).toMatchObject({
      'messaging.system': 'nats',
      'messaging.destination.name': event.subject,
      'messaging.message.id': messageId,
    });
    expect(consumer?.kind).toBe(SpanKind.CONSUMER);
    expect(consumer?.spanContext().traceId).toBe(producer?.spanContext().traceId);
    expect(consumer?.parentSpanContext?.spanId).toBe(producer?.spanContext().spanId);
    expect(consumer?.attributes).toMatchObject({
      'messaging.system': 'nats',
      'messaging.destination.name': event.subject,
      'messaging.consumer.group.name': durable,
      'messaging.message.id': messageId,
      'messaging.nats.delivery_count': 1,
    });
    // The handler ran inside the consumer span (its database calls and publishes join the trace).
    expect(handled[0]).toEqual({ traceId: consumer?.spanContext().traceId, spanId: consumer?.spanContext().spanId, traceFlags: 1 });
  });

  it('a failed handling is an error span, and the redelivery another span of the same trace', async () => {
    const event = testEvent();
    const durable = `t-otel-${randomUUID().slice(0, 8)}`;
    durables.push(durable);
    let calls = 0;
    await bus.consume(event, { durable, backoffMs: 100 }, async () => {
      calls += 1;
      if (calls === 1) throw new Error('simulated failure');
    });
    await bus.publish(event, { n: 2 }, randomUUID());
    await until(() => spansNamed(`${event.subject} process`).length >= 2, 15_000);

    const [producer] = spansNamed(`${event.subject} publish`);
    const deliveries = spansNamed(`${event.subject} process`).sort(
      (a, b) => Number(a.attributes['messaging.nats.delivery_count']) - Number(b.attributes['messaging.nats.delivery_count']),
    );
    expect(deliveries.map((s) => s.attributes['messaging.nats.delivery_count'])).toEqual([1, 2]);
    expect(deliveries.map((s) => s.status.code)).toEqual([SpanStatusCode.ERROR, SpanStatusCode.UNSET]);
    expect(deliveries[1]?.attributes['messaging.nats.redelivered']).toBe(true);
    for (const span of deliveries) expect(span.parentSpanContext?.spanId).toBe(producer?.spanContext().spanId);
  });

  it('the metrics endpoint counts the requests served, with their route, and reports event lag', async () => {
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    for (const id of ['a', 'b', 'c']) expect((await fetch(`${base}/api/telemetry-test/ping/${id}`)).status).toBe(200);
    expect((await fetch(`${base}/api/telemetry-test/nowhere`)).status).toBe(404);

    const response = await fetch(telemetry!.metricsUrl!);
    expect(response.status).toBe(200);
    const text = await response.text();
    const sample = (name: string, labels: string[]) =>
      text
        .split('\n')
        .find((line) => line.startsWith(`${name}{`) && labels.every((label) => line.includes(label)))
        ?.split(' ')
        .at(-1);
    expect(sample('tuber_http_requests_total', ['route="/api/telemetry-test/ping/:id"', 'status_code="200"', 'method="GET"'])).toBe('3');
    expect(sample('tuber_http_requests_total', ['route="unmatched"', 'status_code="404"'])).toBe('1');
    expect(sample('tuber_http_request_duration_count', ['route="/api/telemetry-test/ping/:id"'])).toBe('3');
    expect(sample('tuber_http_requests_total', ['service_name="kit-telemetry-test"'])).toBeDefined();
    // Both consumers of the tests above: caught up (nothing pending) and each event's age recorded.
    for (const durable of durables) {
      expect(sample('tuber_event_consumer_pending', [`consumer="${durable}"`])).toBe('0');
      expect(Number(sample('tuber_event_age_count', [`consumer="${durable}"`]))).toBeGreaterThanOrEqual(1);
    }
    // Saturation, for the dashboard: this process's memory, and its event loop's p99 delay (seconds).
    const rss = Number(sample('tuber_process_rss', ['service_name="kit-telemetry-test"']));
    expect(rss).toBeGreaterThan(10 * 1024 * 1024);
    expect(rss).toBeLessThan(4 * 1024 * 1024 * 1024);
    const delay = Number(sample('tuber_eventloop_delay_p99', ['service_name="kit-telemetry-test"']));
    expect(delay).toBeGreaterThan(0);
    expect(delay).toBeLessThan(5);
  });
});
