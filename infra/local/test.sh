#!/usr/bin/env bash
# `npm test`: on a fresh machine, set up as `npm start` does, then run every test (unit and
# integration) against the real Kafka, ClickHouse, Postgres and Redis.
#
# Tests use their own databases, topics, Redis prefix and ports (tests/support/test-env.ts),
# so a running `npm start` is not disturbed. Components this run had to start are stopped
# afterwards unless FRAMEDECK_KEEP_STACK=1 (handy when running the suite repeatedly).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_ROOT"

mkdir -p "$PID_DIR"
before="$(running_components)"
trap '[[ "${FRAMEDECK_KEEP_STACK:-0}" == 1 ]] || stop_components_started_since "$before" "this test run (FRAMEDECK_KEEP_STACK=1 keeps them)"' EXIT

# The integration tests' environment (databases, topics, ports) is the one migrations run
# against, so export it before prepare.sh.
eval "$(node -e '
  const env = require("./tests/support/test-env.json");
  for (const [name, value] of Object.entries(env)) console.log(`export ${name}=${JSON.stringify(value)}`);
')"

bash "$INFRA_LOCAL_DIR/prepare.sh"
# The dashboard's browser tests drive Debian's Chromium (tests/dashboard).
bash "$INFRA_LOCAL_DIR/install.sh" chromium

log "running tests"
npx vitest run "$@"
