#!/usr/bin/env bash
# Jaeger, the trace store (docs/adr/0038), built from the Go module proxy, with the gateway's span
# relay (infra/observability/gateway-spans.mjs) beside it:
#   jaeger         OTLP gRPC on OTLP_GRPC_PORT and OTLP/HTTP on OTLP_HTTP_PORT (the services and the
#                  relay send here), the query API and UI on JAEGER_UI_PORT (/api/traces, /api/services),
#                  query gRPC on JAEGER_GRPC_PORT; all on loopback; traces in memory only (MAX_TRACES).
#   gateway-spans  nginx's per-request records (syslog, UDP GATEWAY_SPANS_PORT) -> OTLP spans of service
#                  "gateway"; GET /health on the same port over TCP.
# The two start and stop together. Jaeger's own module zip carries no built UI: the page at
# JAEGER_UI_PORT is Jaeger's placeholder, the query API is complete (docs/observability.md).
source "$(dirname "$0")/lib.sh"
JAEGER_VERSION=v1.76.0
bin="$TUBER_CACHE/bin/jaeger-$JAEGER_VERSION"
# Newest traces kept; older ones are dropped (memory grows with it, roughly 1-2 KB a span).
MAX_TRACES=${JAEGER_MAX_TRACES:-20000}

install_server() {
  [ -x "$bin" ] && return 0
  log "building Jaeger $JAEGER_VERSION (once, several minutes on 2 cores; cached in $TUBER_CACHE)"
  # Like FerretDB: `go install` of this version is refused here, so build inside a small module that
  # names Jaeger as a tool (its go.sum then checks every dependency).
  local dir="$TUBER_CACHE/src/jaeger-build"
  mkdir -p "$dir"
  if [ ! -f "$dir/go.mod" ]; then (cd "$dir" && go mod init tuber.local/jaeger-build >/dev/null 2>&1); fi
  (cd "$dir" && go get -tool "github.com/jaegertracing/jaeger/cmd/jaeger@$JAEGER_VERSION" \
    && nice -n 10 go build -trimpath -o "$bin.tmp" github.com/jaegertracing/jaeger/cmd/jaeger)
  mv "$bin.tmp" "$bin"
}

render_config() {
  local conf="$TUBER_STATE/conf/jaeger.yaml"
  # Only what we use: OTLP in, memory store, query API. No self-tracing, no metrics port.
  cat > "$conf" <<YAML
# Rendered by infra/local/jaeger.sh; edit that script, not this file.
service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      processors: [batch]
      exporters: [jaeger_storage_exporter]
  telemetry:
    resource:
      service.name: jaeger
    metrics:
      level: none
    logs:
      level: warn
extensions:
  jaeger_storage:
    backends:
      memstore:
        memory:
          max_traces: $MAX_TRACES
  jaeger_query:
    storage:
      traces: memstore
    enable_tracing: false
    http:
      endpoint: 127.0.0.1:$JAEGER_UI_PORT
    grpc:
      endpoint: 127.0.0.1:$JAEGER_GRPC_PORT
receivers:
  otlp:
    protocols:
      grpc:
        endpoint: 127.0.0.1:$OTLP_GRPC_PORT
      http:
        endpoint: 127.0.0.1:$OTLP_HTTP_PORT
processors:
  batch:
    timeout: 200ms
exporters:
  jaeger_storage_exporter:
    trace_storage: memstore
YAML
  echo "$conf"
}

start_server() {
  local conf
  conf=$(render_config)
  start_daemon jaeger "$bin" --config "$conf"
  wait_http "http://127.0.0.1:${JAEGER_UI_PORT}/api/services" jaeger 60
  wait_ready http "$OTLP_HTTP_PORT" jaeger 20
  GATEWAY_SPANS_LISTEN="127.0.0.1:${GATEWAY_SPANS_PORT}" OTLP_ENDPOINT="http://127.0.0.1:${OTLP_HTTP_PORT}" \
    start_daemon gateway-spans node "$TUBER_ROOT/infra/observability/gateway-spans.mjs"
  wait_http "http://127.0.0.1:${GATEWAY_SPANS_PORT}/health" gateway-spans 20
}

stop_server() {
  stop_daemon gateway-spans
  stop_daemon jaeger
}

server_main jaeger "$@"
