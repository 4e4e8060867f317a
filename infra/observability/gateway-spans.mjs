#!/usr/bin/env node
// The gateway's span relay (docs/adr/0038). nginx has no OpenTelemetry module in Debian, so the
// gateway writes one JSON record per request to syslog over UDP (log_format tuber_span in
// infra/gateway/default.conf.template); this process turns each record into an OTLP span of
// service "gateway" (kind SERVER) and posts them in batches to an OTLP/HTTP endpoint (Jaeger
// locally, the OpenTelemetry Collector in compose). No dependencies: Node 20's dgram, http, fetch.
//
// Environment:
//   GATEWAY_SPANS_LISTEN  host:port for syslog (UDP) and, on the same port, GET /health (TCP)
//                         (default 127.0.0.1:4320)
//   OTLP_ENDPOINT         base URL of the OTLP/HTTP receiver (default http://127.0.0.1:4318)
//   GATEWAY_SPANS_SERVICE service.name of the spans (default gateway)
// /health answers {received, exported, unsampled, malformed, dropped, failedPosts, queued, lastError}.
import dgram from 'node:dgram';
import http from 'node:http';
import { pathToFileURL } from 'node:url';

const [host = '127.0.0.1', portText = '4320'] = (process.env.GATEWAY_SPANS_LISTEN ?? '127.0.0.1:4320').split(/:(?=\d+$)/);
const port = Number(portText);
const endpoint = `${(process.env.OTLP_ENDPOINT ?? 'http://127.0.0.1:4318').replace(/\/+$/, '')}/v1/traces`;
const serviceName = process.env.GATEWAY_SPANS_SERVICE ?? 'gateway';

const BATCH = 256;
const FLUSH_MS = 250;
const MAX_QUEUE = 20_000;

const counts = { received: 0, exported: 0, unsampled: 0, malformed: 0, dropped: 0, failedPosts: 0 };
let lastError = '';
/** @type {object[]} */
let queue = [];

const HEX32 = /^[0-9a-f]{32}$/;
const HEX16 = /^[0-9a-f]{16}$/;

/** "1732560000.123" (seconds with up to 9 decimals) -> nanoseconds as a BigInt. */
function nanos(seconds) {
  const [whole = '0', fraction = ''] = String(seconds).split('.');
  return BigInt(whole) * 1_000_000_000n + BigInt((fraction + '000000000').slice(0, 9));
}

const str = (key, value) => ({ key, value: { stringValue: String(value) } });
const int = (key, value) => ({ key, value: { intValue: String(value) } });

/** One nginx record -> an OTLP/JSON span, or null when it is not one we can use. */
export function toSpan(record) {
  const { trace: traceId, span: spanId, parent = '', flags = '01' } = record;
  if (!HEX32.test(traceId ?? '') || !HEX16.test(spanId ?? '') || (parent && !HEX16.test(parent))) return null;
  if (!/^[0-9a-f]{2}$/.test(flags)) return null;
  const status = Number(record.status);
  const end = nanos(record.end);
  const start = end - nanos(record.duration || '0');
  const route = record.route || '/';
  const attributes = [
    str('http.request.method', record.method || '_OTHER'),
    str('http.route', route),
    str('url.path', record.path ?? ''),
    int('http.response.status_code', Number.isFinite(status) ? status : 0),
    str('network.protocol.version', String(record.protocol ?? '').replace(/^HTTP\//, '')),
    str('url.scheme', record.scheme ?? 'http'),
    str('tuber.request_id', record.request_id ?? ''),
  ];
  if (record.upstream) attributes.push(str('tuber.upstream.address', record.upstream));
  if (record.upstream_status) attributes.push(str('tuber.upstream.status', record.upstream_status));
  if (record.body_bytes) attributes.push(int('http.response.body.size', Number(record.body_bytes) || 0));
  return {
    traceId,
    spanId,
    ...(parent ? { parentSpanId: parent } : {}),
    flags: parseInt(flags, 16) & 0xff,
    name: `${record.method || '_OTHER'} ${route}`,
    kind: 2, // SERVER
    startTimeUnixNano: String(start),
    endTimeUnixNano: String(end),
    attributes,
    // A server span is in error for 5xx answers only; a 4xx is the client's.
    status: status >= 500 ? { code: 2, message: `HTTP ${status}` } : { code: 0 },
  };
}

function receive(message) {
  counts.received += 1;
  const text = message.toString('utf8');
  const at = text.indexOf('{');
  let record;
  try {
    record = JSON.parse(text.slice(at));
  } catch {
    counts.malformed += 1;
    return;
  }
  // Not sampled upstream of us (W3C flags bit 0 off): not recorded.
  if (typeof record.flags === 'string' && (parseInt(record.flags, 16) & 1) === 0) {
    counts.unsampled += 1;
    return;
  }
  const span = at >= 0 ? toSpan(record) : null;
  if (!span) {
    counts.malformed += 1;
    return;
  }
  if (queue.length >= MAX_QUEUE) {
    queue.shift();
    counts.dropped += 1;
  }
  queue.push(span);
  if (queue.length >= BATCH) void flush();
}

let flushing = false;
async function flush() {
  if (flushing || queue.length === 0) return;
  flushing = true;
  const batch = queue.slice(0, BATCH);
  const body = {
    resourceSpans: [
      {
        resource: {
          attributes: [str('service.name', serviceName), str('service.namespace', 'tuber'), str('telemetry.sdk.name', 'nginx-syslog')],
        },
        scopeSpans: [{ scope: { name: 'tuber.gateway', version: '1' }, spans: batch }],
      },
    ],
  };
  try {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(5000),
    });
    if (!response.ok) throw new Error(`${endpoint} answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
    queue = queue.slice(batch.length);
    counts.exported += batch.length;
    if (lastError) console.log(`gateway-spans: posting to ${endpoint} works again`);
    lastError = '';
  } catch (error) {
    counts.failedPosts += 1;
    const why = error instanceof Error ? error.message : String(error);
    // Said once per streak of failures; the spans stay queued (up to MAX_QUEUE) and are tried again.
    if (!lastError) console.error(`gateway-spans: could not post spans to ${endpoint} (${why}); keeping them and retrying`);
    lastError = why;
  } finally {
    flushing = false;
  }
}

function main() {
  const socket = dgram.createSocket(host.includes(':') ? 'udp6' : 'udp4');
  socket.on('message', receive);
  socket.on('error', (error) => {
    console.error(`gateway-spans: syslog socket ${host}:${port}/udp failed: ${error.message}`);
    process.exit(1);
  });

  const health = http.createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/health') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ...counts, queued: queue.length, endpoint, lastError }));
      return;
    }
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end('{"message":"Only GET /health is here."}');
  });
  health.on('error', (error) => {
    console.error(`gateway-spans: health port ${host}:${port}/tcp failed: ${error.message}`);
    process.exit(1);
  });

  const timer = setInterval(() => void flush(), FLUSH_MS);

  async function shutdown() {
    clearInterval(timer);
    socket.close();
    health.close();
    const deadline = Date.now() + 3000;
    while (queue.length > 0 && Date.now() < deadline) {
      await flush();
      if (lastError) break;
    }
    process.exit(0);
  }
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
  socket.bind(port, host, () => {
    health.listen(port, host, () =>
      console.log(`gateway-spans: syslog ${host}:${port}/udp -> ${endpoint}; health on http://${host}:${port}/health`),
    );
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
