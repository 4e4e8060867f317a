{{/*
Shared pieces of the Tuber Market chart. Every object is named <fullname>-<component> and labelled
with the chart's labels, its component and its tier (edge, frontend, service, observability: the
tiers of docs/security.md; the data tier is outside the chart).
*/}}

{{- define "tuber.fullname" -}}
{{- if contains "tuber" .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-tuber" .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* <fullname>-<component>; call with (list $ "component"). */}}
{{- define "tuber.componentName" -}}
{{- printf "%s-%s" (include "tuber.fullname" (index . 0)) (index . 1) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "tuber.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
app.kubernetes.io/part-of: tuber-market
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{- end -}}

{{/* The labels a component's pods are selected by; call with (list $ "component"). */}}
{{- define "tuber.selectorLabels" -}}
app.kubernetes.io/name: tuber
app.kubernetes.io/instance: {{ (index . 0).Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end -}}

{{/* Every label of a component; call with (list $ "component" "tier"). */}}
{{- define "tuber.componentLabels" -}}
{{ include "tuber.labels" (index . 0) }}
{{ include "tuber.selectorLabels" (list (index . 0) (index . 1)) }}
tuber.market/tier: {{ index . 2 }}
{{- end -}}

{{/*
An image reference from {repository, tag, digest}: a repository without a "/" is one of ours, under
.Values.image.registry; an empty tag is the chart's appVersion; a digest pins it further. `latest`
is refused here as well as by values.schema.json. Call with (list $ imageValues).
*/}}
{{- define "tuber.image" -}}
{{- $root := index . 0 -}}
{{- $image := index . 1 -}}
{{- $repository := $image.repository -}}
{{- if not (contains "/" $repository) -}}
{{- $repository = printf "%s/%s" $root.Values.image.registry $repository -}}
{{- end -}}
{{- $tag := $image.tag | default $root.Chart.AppVersion | toString -}}
{{- if eq $tag "latest" -}}
{{- fail (printf "image %s: the tag `latest` is not allowed; name a version or a digest" $repository) -}}
{{- end -}}
{{- if $image.digest -}}
{{- printf "%s:%s@%s" $repository $tag $image.digest -}}
{{- else -}}
{{- printf "%s:%s" $repository $tag -}}
{{- end -}}
{{- end -}}

{{/* Pod-level security: never root, the runtime's default seccomp profile. Call with the uid. */}}
{{- define "tuber.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ . }}
runAsGroup: {{ . }}
fsGroup: {{ . }}
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/* Container-level security: read-only root filesystem, no capabilities, no privilege gain. */}}
{{- define "tuber.containerSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ . }}
runAsGroup: {{ . }}
allowPrivilegeEscalation: false
privileged: false
readOnlyRootFilesystem: true
capabilities:
  drop: [ALL]
{{- end -}}

{{/* What every pod of the release shares: account, scheduling, pull secrets. Call with (list $ "component"). */}}
{{- define "tuber.podCommon" -}}
{{- $root := index . 0 -}}
serviceAccountName: {{ include "tuber.componentName" (list $root "workload") }}
automountServiceAccountToken: false
enableServiceLinks: false
{{- with $root.Values.image.pullSecrets }}
imagePullSecrets:
  {{- range . }}
  - name: {{ . }}
  {{- end }}
{{- end }}
{{- with $root.Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $root.Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $root.Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- if $root.Values.topologySpread.enabled }}
topologySpreadConstraints:
  - maxSkew: {{ $root.Values.topologySpread.maxSkew }}
    topologyKey: {{ $root.Values.topologySpread.topologyKey }}
    whenUnsatisfiable: ScheduleAnyway
    labelSelector:
      matchLabels:
        {{- include "tuber.selectorLabels" (list $root (index . 1)) | nindent 8 }}
{{- end }}
{{- end -}}

{{/* An HTTP probe from {path, periodSeconds, timeoutSeconds, failureThreshold}; call with (list probe port). */}}
{{- define "tuber.httpProbe" -}}
{{- $probe := index . 0 -}}
httpGet:
  path: {{ $probe.path }}
  port: {{ index . 1 }}
periodSeconds: {{ $probe.periodSeconds }}
timeoutSeconds: {{ $probe.timeoutSeconds }}
failureThreshold: {{ $probe.failureThreshold }}
{{- end -}}

{{/* A PodDisruptionBudget; call with (list $ "component" "tier" pdbValues). */}}
{{- define "tuber.pdb" -}}
{{- $root := index . 0 -}}
{{- $pdb := index . 3 -}}
{{- if $pdb.enabled }}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "tuber.componentName" (list $root (index . 1)) }}
  labels:
    {{- include "tuber.componentLabels" (list $root (index . 1) (index . 2)) | nindent 4 }}
spec:
  maxUnavailable: {{ $pdb.maxUnavailable }}
  selector:
    matchLabels:
      {{- include "tuber.selectorLabels" (list $root (index . 1)) | nindent 6 }}
{{- end }}
{{- end -}}

{{/* NetworkPolicy peers with their TCP ports, as one egress rule; call with (list peers ports). */}}
{{- define "tuber.egressRule" -}}
- to:
    {{- toYaml (index . 0) | nindent 4 }}
  ports:
    {{- range (index . 1) }}
    - { protocol: TCP, port: {{ . }} }
    {{- end }}
{{- end -}}

{{/* The ConfigMap-held nginx.conf of the gateway and the front ends; call with the worker count. */}}
{{- define "tuber.nginxConf" -}}
# The main nginx.conf of nginx-unprivileged, with a fixed worker count (the image's `auto` would
# start one worker per core of the node, whatever the pod's CPU limit) and everything it writes
# under /tmp (the root filesystem is read-only).
worker_processes {{ . }};
error_log /var/log/nginx/error.log notice;
pid /tmp/nginx.pid;
worker_rlimit_nofile 8192;
events {
    # Live unread streams hold two connections each for minutes (docs/adr/0067; GATEWAY_MAX_STREAMS).
    worker_connections 4096;
}
http {
    proxy_temp_path       /tmp/proxy_temp;
    client_body_temp_path /tmp/client_temp;
    fastcgi_temp_path     /tmp/fastcgi_temp;
    uwsgi_temp_path       /tmp/uwsgi_temp;
    scgi_temp_path        /tmp/scgi_temp;
    include       /etc/nginx/mime.types;
    default_type  application/octet-stream;
    log_format main '$remote_addr - $remote_user [$time_local] "$request" '
                    '$status $body_bytes_sent "$http_referer" '
                    '"$http_user_agent" "$http_x_forwarded_for"';
    access_log /var/log/nginx/access.log main;
    sendfile on;
    keepalive_timeout 65;
    include /etc/nginx/conf.d/*.conf;
}
{{- end -}}
