#!/usr/bin/env bash
# The figures behind the chart's memory requests and limits (docs/adr/0036): the resident memory
# (`ps -o rss`, KiB) of each running local process of this checkout, summed over its session (nginx
# master and workers), sampled every INTERVAL seconds for SAMPLES rounds, plus each process's peak
# since it started (VmHWM from /proc, the highest RSS the kernel saw). Reads the running stack only.
#   bash infra/helm/measure-rss.sh [SAMPLES=12] [INTERVAL=5]
# Prints one line per process: name, min / median / max of the samples, peak, in MiB.
source "$(dirname "$0")/../local/lib.sh"
samples=${1:-12}
interval=${2:-5}
names=(auth profile catalog media nutrition orders moderation shell landing buyer farmer moderation-ui gateway)
declare -A series=()

session_of() { ps -o sid= -p "$1" 2>/dev/null | tr -d ' '; }

for ((round = 0; round < samples; round++)); do
  for name in "${names[@]}"; do
    pid=$(pid_of "$name")
    [ -n "$pid" ] && is_running "$name" || continue
    sid=$(session_of "$pid")
    kib=$(ps -e -o sid=,rss= | awk -v s="$sid" '$1 == s { t += $2 } END { print t + 0 }')
    series[$name]+="$kib "
  done
  [ $round -lt $((samples - 1)) ] && sleep "$interval"
done

printf '%-10s %8s %8s %8s %8s  (MiB; %s samples, %s s apart)\n' process min median max peak "$samples" "$interval"
for name in "${names[@]}"; do
  [ -n "${series[$name]:-}" ] || { printf '%-10s not running\n' "$name"; continue; }
  pid=$(pid_of "$name")
  sid=$(session_of "$pid")
  peak=0
  for q in $(ps -e -o pid=,sid= | awk -v s="$sid" '$2 == s { print $1 }'); do
    hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$q/status" 2>/dev/null || echo 0)
    peak=$((peak + ${hwm:-0}))
  done
  tr ' ' '\n' <<< "${series[$name]}" | grep . | sort -n | awk -v n="$name" -v peak="$peak" '
    { v[NR] = $1 }
    END { printf "%-10s %8.0f %8.0f %8.0f %8.0f\n", n, v[1] / 1024, v[int((NR + 1) / 2)] / 1024, v[NR] / 1024, peak / 1024 }'
done
