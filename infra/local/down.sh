#!/usr/bin/env bash
# Stop what up.sh started: only components with a pid file in $PID_DIR. A server that was
# already running before up.sh (no pid file) is never touched.
#
#   down.sh [postgres|redis|clickhouse|kafka ...]   (default: all)
#
# SIGTERM (Kafka and ClickHouse shut down cleanly on it), wait up to 20 s, then SIGKILL.
# Data stays in the state dir; the next up.sh restarts from it.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

components=("$@")
# Reverse start order: Kafka and ClickHouse first, the stores the services use last.
((${#components[@]})) || components=(kafka clickhouse redis postgres)
check_components "${components[@]}"
lock_state

stop_component() {
  local name="$1" pid
  if [[ ! -f "$(pid_file "$name")" ]]; then
    log "$name: not started by these scripts, leaving it alone"
    return
  fi
  if ! pid="$(pid_of "$name")"; then
    log "$name: not running (removing stale pid file)"
    rm -f "$(pid_file "$name")" "$PID_DIR/$name.cluster"
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
  rm -f "$(pid_file "$name")" "$PID_DIR/$name.cluster"
  log "$name: stopped"
}

for c in "${components[@]}"; do
  stop_component "$c"
done
