#!/usr/bin/env bash
# One line per component: up/down, whether these scripts started it, where its log is.
#
#   status.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

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
  printf '%-10s %-5s %-15s %-28s log: %s\n' "$c" "$state" "$HOST:$port" "$owner" "$logfile"
done
