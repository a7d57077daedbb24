#!/usr/bin/env bash
# One line per component: up/down, whether these scripts started it, where its log is; for
# each ClickHouse engine that answers, its server version (SELECT version() as
# framedeck_admin). The engine FRAMEDECK_CLICKHOUSE_ENGINE selects is marked "(selected)".
#
#   status.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# FRAMEDECK_TOPOLOGY=cluster: the cluster topology's components instead (cluster.sh).
[[ "${FRAMEDECK_TOPOLOGY:-single}" == cluster ]] && exec bash "$INFRA_LOCAL_DIR/cluster.sh" status "$@"

for c in "${ALL_COMPONENTS[@]}"; do
  port="$(component_port "$c")"
  if port_open "$HOST" "$port"; then state=up; else state=down; fi
  if pid="$(pid_of "$c")"; then
    owner="started-by-us (pid $pid)"
    logfile="$(component_log "$c")"
  elif [[ $state == up ]]; then
    owner="external"
    logfile="-"
  else
    owner="-"
    logfile="$(component_log "$c")"
  fi
  extra=""
  if [[ "$c" == clickhouse-* ]]; then
    [[ "$c" == "clickhouse-$CLICKHOUSE_ENGINE" ]] && extra="(selected) "
    if [[ $state == up ]]; then
      version="$(clickhouse_admin_query "$port" 'SELECT version()')" || version="? ($CLICKHOUSE_ADMIN_USER cannot log in)"
      extra+="version $version "
    fi
  fi
  printf '%-17s %-5s %-15s %-28s %slog: %s\n' "$c" "$state" "$HOST:$port" "$owner" "$extra" "$logfile"
done
