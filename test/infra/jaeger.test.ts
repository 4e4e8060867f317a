// The trace store and the gateway's span (docs/adr/0038), against the running local servers:
// Jaeger (infra/local/jaeger.sh) answers and keeps what comes in over OTLP/HTTP; the gateway
// (infra/gateway/default.conf.template) starts or continues a W3C trace, hands the upstream a
// `traceparent` whose parent is its own span, and that span reaches Jaeger through the span relay.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/api.js';
import { PUBLIC_URL } from '../support/env.js';
import { jaegerApi, jaegerTrace as trace, serviceOf, type JaegerSpan, type JaegerTrace } from '../support/jaeger.js';

const env = process.env;
const repo = fileURLToPath(new URL('../..', import.meta.url));
const otlpHttp = `http://127.0.0.1:${env.OTLP_HTTP_PORT ?? 4318}`;
const relayHealth = `http://127.0.0.1:${env.GATEWAY_SPANS_PORT ?? 4320}/health`;

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

const tag = (span: JaegerSpan, key: string) => span.tags.find((t) => t.key === key)?.value;

/** The gateway's span with this span id, waiting for the relay's batch and Jaeger's. */
async function gatewaySpan(traceId: string, spanId: string): Promise<{ trace: JaegerTrace; span: JaegerSpan }> {
  const found = await eventually(
    () => trace(traceId),
    (t) => Boolean(t?.spans.some((s) => s.spanID === spanId)),
    15_000,
  );
  expect(found, `trace ${traceId} in Jaeger with span ${spanId}`).not.toBeNull();
  const span = found!.spans.find((s) => s.spanID === spanId);
  expect(span, `span ${spanId} in trace ${traceId}: ${JSON.stringify(found!.spans.map((s) => s.spanID))}`).toBeDefined();
  expect(serviceOf(found!, span!)).toBe('gateway');
  return { trace: found!, span: span! };
}

describe('Jaeger (the trace store)', () => {
  it('answers on its query API, and the gateway span relay is up', async () => {
    const services = await fetch(`${jaegerApi}/services`);
    expect(services.status).toBe(200);
    // Jaeger lists no services (data: null) until something has sent a span.
    const listed = ((await services.json()) as { data: unknown }).data;
    expect(listed === null || Array.isArray(listed), JSON.stringify(listed)).toBe(true);
    const relay = await fetch(relayHealth);
    expect(relay.status).toBe(200);
    expect(await relay.json()).toMatchObject({ endpoint: `${otlpHttp}/v1/traces` });
  });

  it('keeps a span sent over OTLP/HTTP and finds it by trace id', async () => {
    const traceId = hex(16);
    const spanId = hex(8);
    const now = BigInt(Date.now()) * 1_000_000n;
    const posted = await fetch(`${otlpHttp}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        resourceSpans: [
          {
            resource: { attributes: [{ key: 'service.name', value: { stringValue: 'tuber-trace-probe' } }] },
            scopeSpans: [
              {
                scope: { name: 'test/infra/jaeger.test.ts' },
                spans: [
                  {
                    traceId,
                    spanId,
                    name: 'probe span',
                    kind: 1,
                    startTimeUnixNano: String(now - 5_000_000n),
                    endTimeUnixNano: String(now),
                    attributes: [{ key: 'probe.crop', value: { stringValue: 'cassava' } }],
                  },
                ],
              },
            ],
          },
        ],
      }),
    });
    expect(posted.status).toBe(200);
    const found = await eventually(
      () => trace(traceId),
      (t) => t !== null,
    );
    expect(found?.spans).toHaveLength(1);
    const span = found!.spans[0]!;
    expect(span).toMatchObject({ traceID: traceId, spanID: spanId, operationName: 'probe span' });
    expect(serviceOf(found!, span)).toBe('tuber-trace-probe');
    expect(tag(span, 'probe.crop')).toBe('cassava');
    // ...and it is listed with the services the store knows.
    const services = (await (await fetch(`${jaegerApi}/services`)).json()) as { data: string[] };
    expect(services.data).toContain('tuber-trace-probe');
  });
});

describe('the gateway’s span (http://localhost:GATEWAY_PORT)', () => {
  it('starts a trace for a request without traceparent: its id is the request id the service received, the gateway span is the root', async () => {
    const response = await fetch(`${PUBLIC_URL}/api/catalog/products?gateway-trace-probe=1`);
    await response.arrayBuffer();
    // The catalog service echoes the X-Request-Id it received; the gateway's new trace id is that id.
    const requestId = response.headers.get('x-request-id') ?? '';
    expect(requestId, 'the service echoes the gateway request id').toMatch(/^[0-9a-f]{32}$/);
    const { span } = await gatewaySpan(requestId, requestId.slice(16));
    expect(span.operationName).toBe('GET /api/catalog/*');
    expect(span.references, 'a new trace: the gateway span has no parent').toEqual([]);
    expect(tag(span, 'http.response.status_code')).toBe(response.status);
    expect(tag(span, 'http.request.method')).toBe('GET');
    expect(tag(span, 'url.path')).toBe('/api/catalog/products');
    expect(tag(span, 'span.kind')).toBe('server');
  });

  it('continues an incoming traceparent: same trace id, the caller’s span as parent', async () => {
    const traceId = hex(16);
    const callerSpan = hex(8);
    const response = await fetch(`${PUBLIC_URL}/api/catalog/products?gateway-trace-probe=2`, {
      headers: { traceparent: `00-${traceId}-${callerSpan}-01` },
    });
    await response.arrayBuffer();
    const requestId = response.headers.get('x-request-id') ?? '';
    expect(requestId).toMatch(/^[0-9a-f]{32}$/);
    const { span } = await gatewaySpan(traceId, requestId.slice(16));
    expect(span.references).toEqual([{ refType: 'CHILD_OF', traceID: traceId, spanID: callerSpan }]);
    // The catalog service (OpenTelemetry, docs/observability.md) continued what the gateway sent it:
    // its server span is in the same trace with the gateway's span as parent.
    const withService = await eventually(
      () => trace(traceId),
      (t) => Boolean(t?.spans.some((s) => serviceOf(t, s) === 'catalog' && s.references.some((r) => r.spanID === span.spanID))),
      15_000,
    );
    const child = withService!.spans.find(
      (s) => serviceOf(withService!, s) === 'catalog' && s.references.some((r) => r.spanID === span.spanID),
    );
    expect(
      child,
      `a catalog span whose parent is the gateway's ${span.spanID}: ${JSON.stringify(withService!.spans.map((s) => [serviceOf(withService!, s), s.operationName, s.references.map((r) => r.spanID)]))}`,
    ).toBeDefined();
    expect(child!.operationName).toBe('GET /api/catalog/products');
  });

  it('does not continue a malformed or all-zero traceparent, and does not record a trace the caller did not sample', async () => {
    for (const bad of [`00-${'0'.repeat(32)}-${hex(8)}-01`, `00-${hex(16).toUpperCase()}-${hex(8)}-01`, 'not a trace']) {
      const response = await fetch(`${PUBLIC_URL}/api/catalog/products?gateway-trace-probe=3`, { headers: { traceparent: bad } });
      await response.arrayBuffer();
      const requestId = response.headers.get('x-request-id') ?? '';
      const { span } = await gatewaySpan(requestId, requestId.slice(16));
      expect(span.references, `${bad}: a new trace`).toEqual([]);
    }
    // Flags 00: the caller chose not to sample; the relay drops the record.
    const traceId = hex(16);
    const before = (await (await fetch(relayHealth)).json()) as { unsampled: number };
    const response = await fetch(`${PUBLIC_URL}/api/catalog/products?gateway-trace-probe=4`, {
      headers: { traceparent: `00-${traceId}-${hex(8)}-00` },
    });
    await response.arrayBuffer();
    const after = await eventually(
      async () => (await (await fetch(relayHealth)).json()) as { unsampled: number },
      (h) => h.unsampled > before.unsampled,
    );
    expect(after.unsampled).toBeGreaterThan(before.unsampled);
    expect(await trace(traceId)).toBeNull();
  });
});

// The same template in a private nginx whose upstreams are all one echo server: what the upstream
// received is read directly, and matched against the span in Jaeger.
describe('the gateway template in a private nginx, with an upstream that echoes what it received', () => {
  let work: string;
  let echo: http.Server;
  let nginx: ChildProcess | undefined;
  let base: string;
  const received: Record<string, string | undefined>[] = [];

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'tuber-gateway-trace-'));
    echo = http.createServer((request, response) => {
      received.push({
        traceparent: request.headers.traceparent as string | undefined,
        requestId: request.headers['x-request-id'] as string,
      });
      response.setHeader('content-type', 'application/json');
      response.end('{}');
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    const echoPort = (echo.address() as AddressInfo).port;
    const free = http.createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const gatewayPort = (free.address() as AddressInfo).port;
    await new Promise((resolve) => free.close(resolve));
    base = `http://127.0.0.1:${gatewayPort}`;

    const spansAddress = `127.0.0.1:${env.GATEWAY_SPANS_PORT ?? 4320}`;
    const rendered = execFileSync('bash', [join(repo, 'infra/local/gateway.sh'), 'print'], { encoding: 'utf8' });
    expect(rendered).toContain(`syslog:server=${spansAddress},`);
    // Every upstream address becomes the echo server; the listen address our free port; the span
    // relay's address stays.
    const conf = rendered
      .replace(/listen 127\.0\.0\.1:\d+;/, `listen 127.0.0.1:${gatewayPort};`)
      .replace(/127\.0\.0\.1:\d+/g, (match) =>
        match === spansAddress || match === `127.0.0.1:${gatewayPort}` ? match : `127.0.0.1:${echoPort}`,
      );
    const temp = join(work, 'temp');
    mkdirSync(temp);
    writeFileSync(join(work, 'default.conf'), conf);
    writeFileSync(
      join(work, 'nginx.conf'),
      [
        'worker_processes 1;',
        'daemon off;',
        `pid ${work}/nginx.pid;`,
        `error_log ${work}/error.log warn;`,
        'events { worker_connections 64; }',
        'http {',
        '  include /etc/nginx/mime.types;',
        `  access_log ${work}/access.log;`,
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((k) => `  ${k}_temp_path ${temp}/${k};`),
        `  include ${work}/default.conf;`,
        '}',
      ].join('\n'),
    );
    nginx = spawn('nginx', ['-c', join(work, 'nginx.conf'), '-p', work], { stdio: 'ignore' });
    const health = await eventually(
      () =>
        fetch(`${base}/gateway-health`).then(
          (r) => r.status,
          () => 0,
        ),
      (status) => status === 200,
      10_000,
    );
    const errors = join(work, 'error.log');
    expect(health, `private nginx did not start: ${existsSync(errors) ? readFileSync(errors, 'utf8') : 'no error log'}`).toBe(200);
  });

  afterAll(async () => {
    if (nginx?.pid) nginx.kill('SIGTERM');
    await new Promise((resolve) => echo?.close(resolve));
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('hands the upstream a traceparent whose trace id and parent are the gateway span’s in Jaeger', async () => {
    for (const incoming of [undefined, `00-${hex(16)}-${hex(8)}-01`]) {
      received.length = 0;
      const response = await fetch(`${base}/api/orders/requests`, { headers: incoming ? { traceparent: incoming } : {} });
      expect(response.status).toBe(200);
      expect(received).toHaveLength(1);
      const [, traceId = '', parent = '', flags = ''] =
        /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(received[0]!.traceparent ?? '') ?? [];
      expect(traceId, `upstream got traceparent ${received[0]!.traceparent}`).toMatch(/^[0-9a-f]{32}$/);
      expect(flags).toBe('01');
      if (incoming) {
        expect(traceId, 'the incoming trace is continued').toBe(incoming.split('-')[1]);
        expect(parent, 'the upstream’s parent is the gateway, not the caller').not.toBe(incoming.split('-')[2]);
      } else expect(traceId, 'a new trace takes the request id').toBe(received[0]!.requestId);
      const { span } = await gatewaySpan(traceId, parent);
      expect(span.operationName).toBe('GET /api/orders/*');
      expect(span.references.map((r) => r.spanID)).toEqual(incoming ? [incoming.split('-')[2]] : []);
    }
  });
});
