// Jaeger's query API (the local trace store, infra/local/jaeger.sh; docs/adr/0038) for the tests
// that look a trace up: its spans, their parents and the service each came from.
import { expect } from 'vitest';

export const jaegerApi = `http://127.0.0.1:${process.env.JAEGER_UI_PORT ?? 16686}/api`;

export interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  processID: string;
  references: { refType: string; traceID: string; spanID: string }[];
  tags: { key: string; value: unknown }[];
}

export interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string }>;
}

/** The trace with this id as Jaeger's query API returns it (null while it is not there). */
export async function jaegerTrace(traceId: string): Promise<JaegerTrace | null> {
  const response = await fetch(`${jaegerApi}/traces/${traceId}`);
  if (response.status === 404) return null;
  expect(response.status, `GET ${jaegerApi}/traces/${traceId}`).toBe(200);
  return ((await response.json()) as { data?: JaegerTrace[] }).data?.[0] ?? null;
}

/** The service a span of `trace` came from. */
export const serviceOf = (trace: JaegerTrace, span: JaegerSpan) => trace.processes[span.processID]?.serviceName;
