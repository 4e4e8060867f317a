#!/usr/bin/env node
// Generates the Grafana dashboard as code (docs/adr/0038): the four golden signals per service, and
// the event lag and outbox depth. `node infra/observability/dashboard.mjs` rewrites
// infra/observability/grafana/dashboards/tuber-golden-signals.json; test/unit/observability.test.ts
// fails when the committed JSON differs from what this writes.
//
// The metrics it reads (the kit's, docs/observability.md "Metrics"; every series carries
// service_name, so the same queries work in compose, Kubernetes and the local run):
//   tuber_http_requests_total                 counter: method, route, status_code
//   tuber_http_request_duration_{bucket,...}  histogram, seconds
//   tuber_event_age_{bucket,...}              histogram, seconds: stream stored -> handler started (consumer)
//   tuber_event_consumer_pending              gauge: not yet delivered to a durable consumer
//   tuber_event_consumer_ack_pending          gauge: delivered, not yet acknowledged (in flight)
//   tuber_outbox_depth                        gauge: documents with unpublished events (model)
//   db_client_connection_count                gauge: MongoDB pool, db_client_connection_state used/idle
//   tuber_eventloop_delay_p99                 gauge, seconds: event-loop delay p99   (asked for; see
//   tuber_process_rss                         gauge, bytes: resident set size        docs/observability.md)
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const SERVICES = ['auth', 'profile', 'catalog', 'media', 'nutrition', 'orders', 'moderation'];
export const OUTPUT = fileURLToPath(new URL('./grafana/dashboards/tuber-golden-signals.json', import.meta.url));
const DATASOURCE = { type: 'prometheus', uid: 'tuber-prometheus' };
const WINDOW = '$__rate_interval';

/** The signal panels of one service: [title, unit, [expr, legend][]]. */
export function serviceSignals(service) {
  const sel = `service_name="${service}"`;
  // Probes are the platform's, not traffic.
  const traffic = `${sel},route!~"/health|/ready"`;
  return [
    ['Rate', 'reqps', [[`sum(rate(tuber_http_requests_total{${traffic}}[${WINDOW}]))`, 'requests/s']]],
    [
      'Errors',
      'percentunit',
      [
        [
          `sum(rate(tuber_http_requests_total{${traffic},status_code=~"5.."}[${WINDOW}])) / clamp_min(sum(rate(tuber_http_requests_total{${traffic}}[${WINDOW}])), 1e-9)`,
          '5xx share',
        ],
      ],
    ],
    [
      'Latency',
      's',
      [0.5, 0.95, 0.99].map((q) => [
        `histogram_quantile(${q}, sum by (le) (rate(tuber_http_request_duration_bucket{${traffic}}[${WINDOW}])))`,
        `p${Math.round(q * 100)}`,
      ]),
    ],
    [
      'Saturation: in flight',
      'short',
      [
        [`sum(db_client_connection_count{${sel},db_client_connection_state="used"})`, 'MongoDB connections in use'],
        [`max by (consumer) (tuber_event_consumer_ack_pending{${sel}})`, 'events in flight: {{consumer}}'],
      ],
    ],
    ['Saturation: event-loop delay p99', 's', [[`max by (instance) (tuber_eventloop_delay_p99{${sel}})`, '{{instance}}']]],
    ['Saturation: memory (RSS)', 'bytes', [[`max by (instance) (tuber_process_rss{${sel}})`, '{{instance}}']]],
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
      [
        [
          `histogram_quantile(0.95, sum by (le, service_name, consumer) (rate(tuber_event_age_bucket[${WINDOW}])))`,
          '{{service_name}} {{consumer}}',
        ],
      ],
      { h: 8, w: 8, x: 0, y },
      'From the stream storing an event to a consumer starting to handle it (each delivery).',
    ),
    panel(
      'Events waiting per consumer',
      'short',
      [['max by (service_name, consumer) (tuber_event_consumer_pending)', '{{service_name}} {{consumer}}']],
      { h: 8, w: 8, x: 8, y },
      'Events in the stream not yet delivered to the durable consumer (replicas report the same number).',
    ),
    panel(
      'Outbox depth',
      'short',
      [['max by (service_name, model) (tuber_outbox_depth)', '{{service_name}} {{model}}']],
      { h: 8, w: 8, x: 16, y },
      'Documents whose outbox still holds unpublished events; a rising line means the relay or the bus is behind.',
    ),
  );
  y += 8;
  for (const service of SERVICES) {
    panels.push(row(`Service: ${service}`, y++));
    const signals = serviceSignals(service);
    const width = Math.floor(24 / signals.length);
    signals.forEach(([title, unit, queries], i) => {
      panels.push(
        panel(`${service} · ${title}`, unit, queries, { h: 7, w: i === signals.length - 1 ? 24 - width * i : width, x: width * i, y }),
      );
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

/** The file's text: the dashboard as JSON, laid out by the repo's Prettier settings. */
export async function render() {
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(OUTPUT)) ?? {};
  return prettier.format(JSON.stringify(dashboard()), { ...options, parser: 'json' });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(OUTPUT, await render());
  console.log(`wrote ${OUTPUT}`);
}
