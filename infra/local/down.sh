#!/usr/bin/env bash
# Stop what up.sh started: only components with a pid file in $PID_DIR. A server that was
# already running before up.sh (no pid file) is never touched.
#
#   down.sh [postgres|redis|clickhouse|clickhouse-legacy|clickhouse-modern|kafka ...]
#   (default: all, both ClickHouse engines; `clickhouse` = the one FRAMEDECK_CLICKHOUSE_ENGINE selects)
#
# SIGTERM, wait up to 20 s, then SIGKILL. Kafka and the legacy ClickHouse shut down cleanly
# on SIGTERM; the modern ClickHouse's pid is its supervisor's, which on SIGTERM stops the
# engine the clean way (KILL QUERY of its keep-alive query, see
# clickhouse-modern.supervisor.mjs) and exits.
# Data stays in the state dir; the next up.sh restarts from it.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# FRAMEDECK_TOPOLOGY=cluster: the cluster topology's components instead (cluster.sh).
[[ "${FRAMEDECK_TOPOLOGY:-single}" == cluster ]] && exec bash "$INFRA_LOCAL_DIR/cluster.sh" down "$@"

components=("$@")
# Reverse start order: Kafka and ClickHouse first, the stores the services use last.
((${#components[@]})) || components=(kafka clickhouse-modern clickhouse-legacy redis postgres)
resolved="$(resolve_components "${components[@]}")" || exit 1
mapfile -t components <<<"$resolved"
lock_state

stop_component() {
  local name="$1" pid
  if [[ ! -f "$(pid_file "$name")" ]]; then
    log "$name: not started by these scripts, leaving it alone"
    return
  fi
  if ! pid="$(pid_of "$name")"; then
    log "$name: not running (removing stale pid file)"
    rm -f "$(pid_file "$name")" "$PID_DIR/$name.cluster" "$PID_DIR/$name.engine.pid"
    return
  fi
  log "$name: stopping pid $pid"
  if [[ "$name" == postgres && -f "$PID_DIR/postgres.cluster" ]]; then
    # Fast shutdown through Debian's wrapper: SIGTERM to the postmaster would be a "smart"
    # shutdown that waits for every client to disconnect.
    local ver cluster
    read -r ver cluster <"$PID_DIR/postgres.cluster"
    pg_ctlcluster --skip-systemctl-redirect "$ver" "$cluster" stop -m fast || kill -TERM "$pid" 2>/dev/null || true
  else
    kill -TERM "$pid" 2>/dev/null || true
  fi
  local deadline=$((SECONDS + 20))
  while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do
    sleep 0.2
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "$name: still running after 20 s, sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  [[ "$name" == clickhouse-modern ]] && after_modern_supervisor
  rm -f "$(pid_file "$name")" "$PID_DIR/$name.cluster" "$PID_DIR/$name.engine.pid"
  log "$name: stopped"
}

# The modern engine dies with its supervisor (the launcher asks the kernel for that); make
# sure of it before the port is handed to the next up.sh, and say how the engine stopped.
after_modern_supervisor() {
  local engine_pid_file="$PID_DIR/clickhouse-modern.engine.pid" epid deadline=$((SECONDS + 5))
  while port_open "$HOST" "$CLICKHOUSE_MODERN_HTTP_PORT" && ((SECONDS < deadline)); do sleep 0.2; done
  if [[ -s "$engine_pid_file" ]]; then
    epid="$(head -n1 "$engine_pid_file")"
    if [[ "$epid" =~ ^[0-9]+$ ]] && tr '\0' ' ' <"/proc/$epid/cmdline" 2>/dev/null | grep -q 'launcher'; then
      log "clickhouse-modern: its engine (pid $epid) outlived the supervisor: SIGKILL to its process group"
      kill -KILL -- "-$epid" 2>/dev/null || true
    fi
  fi
  local last
  last="$(grep -E 'stopped cleanly|stopped via KILL QUERY|not via KILL QUERY|SIGKILL to its process group|no engine running' \
    "$LOG_DIR/clickhouse-modern.stdout.log" 2>/dev/null | tail -n1 | sed 's/^.*\] //')" || true
  [[ -z "$last" ]] || log "clickhouse-modern: supervisor: $last"
}

for c in "${components[@]}"; do
  stop_component "$c"
done
