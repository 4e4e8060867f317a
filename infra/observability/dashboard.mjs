#!/usr/bin/env node
// Generates the Grafana dashboard as code (docs/adr/0038): the four golden signals per service, and
// the event lag and outbox depth. `node infra/observability/dashboard.mjs` rewrites
// infra/observability/grafana/dashboards/tuber-golden-signals.json; test/unit/observability.test.ts
// fails when the committed JSON differs from what this writes.
//
// The metrics it reads (Prometheus names; the services expose them on METRICS_PORT 9464, and
// infra/observability/prometheus.yml adds the label `service`):
//   http_server_request_duration_seconds_{bucket,count}  OTel HTTP server histogram (seconds), with
//                                                        http_response_status_code
//   nodejs_eventloop_delay_p99_seconds                   event-loop delay, p99 (runtime instrumentation)
//   process_memory_usage_bytes                           resident set size
//   tuber_event_lag_seconds_{bucket,count}               event created (outbox) -> handled, label consumer
//   tuber_outbox_depth                                   events waiting in an outbox, label source
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const SERVICES = ['auth', 'profile', 'catalog', 'media', 'nutrition', 'orders'];
export const OUTPUT = fileURLToPath(new URL('./grafana/dashboards/tuber-golden-signals.json', import.meta.url));
const DATASOURCE = { type: 'prometheus', uid: 'tuber-prometheus' };
const WINDOW = '$__rate_interval';

/** The signal panels of one service: [title, unit, [expr, legend][]]. */
export function serviceSignals(service) {
  const sel = `service="${service}"`;
  const duration = 'http_server_request_duration_seconds';
  return [
    ['Rate', 'reqps', [[`sum(rate(${duration}_count{${sel}}[${WINDOW}]))`, 'requests/s']]],
    [
      'Errors',
      'percentunit',
      [
        [
          `sum(rate(${duration}_count{${sel},http_response_status_code=~"5.."}[${WINDOW}])) / clamp_min(sum(rate(${duration}_count{${sel}}[${WINDOW}])), 1e-9)`,
          '5xx share',
        ],
      ],
    ],
    [
      'Latency',
      's',
      [0.5, 0.95, 0.99].map((q) => [
        `histogram_quantile(${q}, sum by (le) (rate(${duration}_bucket{${sel}}[${WINDOW}])))`,
        `p${Math.round(q * 100)}`,
      ]),
    ],
    ['Saturation: event-loop delay p99', 's', [[`max by (instance) (nodejs_eventloop_delay_p99_seconds{${sel}})`, '{{instance}}']]],
    ['Saturation: memory (RSS)', 'bytes', [[`max by (instance) (process_memory_usage_bytes{${sel}})`, '{{instance}}']]],
  ];
}

let nextId = 1;
function panel(title, unit, queries, gridPos, description) {
  return {
    id: nextId++,
    type: 'timeseries',
    title,
    ...(description ? { description } : {}),
    datasource: DATASOURCE,
    gridPos,
    fieldConfig: { defaults: { unit, min: 0 }, overrides: [] },
    options: { legend: { displayMode: 'list', placement: 'bottom', showLegend: true }, tooltip: { mode: 'multi', sort: 'desc' } },
    targets: queries.map(([expr, legendFormat], i) => ({ datasource: DATASOURCE, expr, legendFormat, refId: String.fromCharCode(65 + i) })),
  };
}
const row = (title, y) => ({ id: nextId++, type: 'row', title, collapsed: false, gridPos: { h: 1, w: 24, x: 0, y }, panels: [] });

export function dashboard() {
  nextId = 1;
  const panels = [];
  let y = 0;
  panels.push(row('Events: lag and outbox depth', y++));
  panels.push(
    panel(
      'Event lag p95 by consumer',
      's',
      [[`histogram_quantile(0.95, sum by (le, service, consumer) (rate(tuber_event_lag_seconds_bucket[${WINDOW}])))`, '{{service}} {{consumer}}']],
      { h: 8, w: 12, x: 0, y },
      'From the moment an event is written to its outbox to the moment a consumer has handled it.',
    ),
    panel(
      'Outbox depth',
      'short',
      [['sum by (service, source) (tuber_outbox_depth)', '{{service}} {{source}}']],
      { h: 8, w: 12, x: 12, y },
      'Events written but not yet published to the bus; a rising line means the relay or the bus is behind.',
    ),
  );
  y += 8;
  for (const service of SERVICES) {
    panels.push(row(`Service: ${service}`, y++));
    const signals = serviceSignals(service);
    const width = Math.floor(24 / signals.length);
    signals.forEach(([title, unit, queries], i) => {
      panels.push(panel(`${service} · ${title}`, unit, queries, { h: 7, w: i === signals.length - 1 ? 24 - width * i : width, x: width * i, y }));
    });
    y += 7;
  }
  return {
    uid: 'tuber-golden-signals',
    title: 'Tuber Market · golden signals',
    description: 'Rate, errors, latency and saturation per service; event lag and outbox depth (docs/observability.md).',
    tags: ['tuber', 'golden-signals'],
    timezone: 'utc',
    editable: false,
    refresh: '30s',
    schemaVersion: 39,
    version: 1,
    time: { from: 'now-1h', to: 'now' },
    templating: { list: [] },
    annotations: { list: [] },
    panels,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(OUTPUT, `${JSON.stringify(dashboard(), null, 2)}\n`);
  console.log(`wrote ${OUTPUT}`);
}
