// Starts the OpenTelemetry Node SDK for one service (docs/adr/0037). A service's server.ts imports
// this module (`@tuber/kit/telemetry`) and calls startTelemetry before it imports anything else, so
// that the instrumentations hook `http`, `mongodb` and `@redis/client` before the first require of
// them; createServiceApp adds @fastify/otel's hooks to each app. Off unless a trace endpoint
// (OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) or a metrics port
// (METRICS_PORT) is set, or a test hands in its own span processors: tests and development without
// a trace store run without it. This module must not import the kit's index (fastify, mongoose).
import type { IncomingMessage } from 'node:http';
import { Type } from '@sinclair/typebox';
import { diag, DiagLogLevel, type DiagLogger } from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { MongooseInstrumentation } from '@opentelemetry/instrumentation-mongoose';
import { RedisInstrumentation } from '@opentelemetry/instrumentation-redis';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import { loadConfig } from './config.js';
import { enableKitMetrics, onTelemetryShutdown, setFastifyInstrumenter } from './observe.js';

export const TelemetryConfig = Type.Object({
  /** Base URL of an OTLP/HTTP receiver (e.g. http://127.0.0.1:4318); traces go to <it>/v1/traces. Empty: no traces. */
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.String({ default: '' }),
  /** Full URL for traces only; wins over OTEL_EXPORTER_OTLP_ENDPOINT. */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: Type.String({ default: '' }),
  /** The standard switch: `true` turns all of it off whatever else is set. */
  OTEL_SDK_DISABLED: Type.String({ default: 'false' }),
  /** Port of the Prometheus endpoint (GET /metrics), a port of its own, not behind the gateway. 0: no metrics. */
  METRICS_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 0 }),
  /** Address the metrics endpoint listens on. */
  METRICS_HOST: Type.String({ default: '127.0.0.1' }),
});

export interface TelemetryOptions {
  /** The service's name (service.name): auth, profile, catalog, media, nutrition, orders. */
  serviceName: string;
  env?: NodeJS.ProcessEnv;
  /** Span processors to use instead of the OTLP exporter (tests: an in-memory exporter). */
  spanProcessors?: SpanProcessor[];
  /** Overrides METRICS_PORT (tests). */
  metricsPort?: number;
}

export interface Telemetry {
  tracing: boolean;
  /** The metrics endpoint, when one runs. */
  metricsUrl?: string;
  shutdown(): Promise<void>;
}

let running: Telemetry | undefined;

/** Paths that are not worth a trace: probes and the API description. */
const quietPath = (url: string | undefined) => url === '/health' || url === '/ready' || /\/openapi\.json$/.test(url ?? '');

/** The text of a diagnostic: the SDK hands some errors over as their JSON. */
const diagText = (value: unknown): string => {
  try {
    const parsed = JSON.parse(String(value)) as { message?: unknown };
    return typeof parsed.message === 'string' ? parsed.message : String(value);
  } catch {
    return String(value);
  }
};

/**
 * The SDK's own warnings go to stderr as one JSON line, like the logs; one line per distinct
 * message a minute at most (an absent trace store fails every export), with what to do about it.
 */
const diagLogger = (service: string, tracesUrl: string): DiagLogger => {
  const said = new Map<string, number>();
  const line =
    (level: string) =>
    (message: string, ...args: unknown[]) => {
      const text = diagText(message);
      const now = Date.now();
      if ((said.get(text) ?? -Infinity) > now - 60_000) return;
      said.set(text, now);
      const hint =
        tracesUrl && /ECONNREFUSED|ETIMEDOUT|ENOTFOUND|timeout/i.test(text)
          ? `; spans are not reaching ${tracesUrl}: start the trace store (make up does) or set OTEL_EXPORTER_OTLP_ENDPOINT= (empty) to turn tracing off`
          : '';
      const detail = args.map(diagText).join(' ') || undefined;
      process.stderr.write(`${JSON.stringify({ level, service, msg: `opentelemetry: ${text}${hint}`, detail })}\n`);
    };
  return { error: line('error'), warn: line('warn'), info: () => {}, debug: () => {}, verbose: () => {} };
};

/**
 * Starts tracing and/or metrics when configured; returns undefined when both are off. Idempotent
 * within a process (the second call returns the first's handle).
 */
export async function startTelemetry(options: TelemetryOptions): Promise<Telemetry | undefined> {
  if (running) return running;
  const config = loadConfig(TelemetryConfig, options.env ?? process.env);
  if (config.OTEL_SDK_DISABLED.trim().toLowerCase() === 'true') return undefined;

  const tracesUrl =
    config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ||
    (config.OTEL_EXPORTER_OTLP_ENDPOINT ? `${config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces` : '');
  const spanProcessors = options.spanProcessors ?? (tracesUrl ? [new BatchSpanProcessor(new OTLPTraceExporter({ url: tracesUrl }))] : []);
  const metricsPort = options.metricsPort ?? config.METRICS_PORT;
  if (spanProcessors.length === 0 && !metricsPort) return undefined;

  diag.setLogger(diagLogger(options.serviceName, tracesUrl), DiagLogLevel.WARN);

  let metricsUrl: string | undefined;
  const readers: PrometheusExporter[] = [];
  if (metricsPort) {
    const host = config.METRICS_HOST;
    const listening = new Promise<void>((resolve, reject) => {
      readers.push(
        new PrometheusExporter(
          // service.name on every series (service_name), so one Prometheus query covers all replicas of a service.
          { host, port: metricsPort, withResourceConstantLabels: /^service\.name$/ },
          (err) => (err ? reject(new Error(`The metrics endpoint could not listen on ${host}:${metricsPort}: ${String(err)}`)) : resolve()),
        ),
      );
    });
    await listening;
    metricsUrl = `http://${host}:${metricsPort}/metrics`;
  }

  // Added to each app by createServiceApp (observe.ts instrumentFastify), after the kit's own
  // onRoute hooks, not on Fastify's initialization: it wraps route hooks the kit inspects.
  const fastifyOtel = new FastifyOtelInstrumentation({ ignorePaths: (route: { url: string }) => quietPath(route.url) });
  setFastifyInstrumenter((app) => fastifyOtel.plugin()(app as never, {}, () => {}));

  const sdk = new NodeSDK({
    serviceName: options.serviceName,
    // Only what is configured here: no exporter or detector is taken from the environment.
    autoDetectResources: false,
    spanProcessors,
    metricReaders: readers,
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request: IncomingMessage) => quietPath(request.url?.split('?')[0]),
      }),
      fastifyOtel,
      new MongoDBInstrumentation({ dbStatementSerializer: () => '' }),
      new MongooseInstrumentation(),
      // Only inside a request or an event: not the readiness probes and lock renewals of an idle service.
      new RedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  if (metricsPort) enableKitMetrics();

  const handle: Telemetry = {
    tracing: spanProcessors.length > 0,
    ...(metricsUrl ? { metricsUrl } : {}),
    shutdown: async () => {
      if (running === handle) running = undefined;
      await sdk.shutdown();
    },
  };
  running = handle;
  // runService flushes the last spans after the app has closed.
  onTelemetryShutdown(handle.shutdown);
  return handle;
}

/** Flushes and stops the SDK started by startTelemetry (no-op when none runs). */
export async function stopTelemetry(): Promise<void> {
  await running?.shutdown();
}
