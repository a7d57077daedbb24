#!/usr/bin/env bash
# `npm start`: on a fresh machine, install and start everything, seed a demo project, print
# the URLs and demo keys. Ctrl-C stops the services and the components this run started.
#
# ClickHouse: the engine FRAMEDECK_CLICKHOUSE_ENGINE selects (legacy by default;
# `FRAMEDECK_CLICKHOUSE_ENGINE=modern npm start` for 26.x); migrations and services are
# pointed at it (FRAMEDECK_CLICKHOUSE_URL, unless set by the caller).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_ROOT"

mkdir -p "$PID_DIR"
if [[ "${FRAMEDECK_TOPOLOGY:-single}" == cluster ]]; then
  # The cluster topology (docs/deployment.md): the app pointed at its ClickHouse and Kafka; on
  # exit, the cluster components this run started are stopped.
  eval "$(bash "$INFRA_LOCAL_DIR/cluster.sh" env)"
  before="$(bash "$INFRA_LOCAL_DIR/cluster.sh" running)"
  trap 'stop_components_started_since "$before" "this run" cluster' EXIT
else
  before="$(running_components)"
  trap 'stop_components_started_since "$before" "this run"' EXIT
fi
export_clickhouse_engine

bash "$INFRA_LOCAL_DIR/prepare.sh"

# The runner stays in the foreground: it starts the services, seeds the demo, prints the
# URLs and keys, and stops the services on Ctrl-C.
node "$INFRA_LOCAL_DIR/run-services.mjs" --seed-demo
