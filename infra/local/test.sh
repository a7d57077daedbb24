#!/usr/bin/env bash
# `npm test`: on a fresh machine, set up as `npm start` does, then run every test (unit and
# integration) against the real Kafka, ClickHouse, Postgres and Redis.
#
# ClickHouse: both engines are started (lib.sh). The whole suite runs on the engine
# FRAMEDECK_CLICKHOUSE_ENGINE selects (legacy by default); then, when no arguments were
# given, the ClickHouse-touching integration tests run a second time on the other engine
# (SECOND_RUN below; the vitest global setup migrates that engine first). Either run
# failing fails npm test.
#
#   npm test                                    whole suite on legacy, then the subset on modern
#   FRAMEDECK_CLICKHOUSE_ENGINE=modern npm test whole suite on modern, then the subset on legacy
#   npm test -- tests/sql                       only what is named, on the selected engine
#
# Tests use their own databases, topics, Redis prefix and ports (tests/support/config.ts),
# so a running `npm start` is not disturbed. Components this run had to start are stopped
# afterwards unless FRAMEDECK_KEEP_STACK=1 (handy when running the suite repeatedly).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_ROOT"

# The second run: every integration tier that reads or writes ClickHouse. (The Kafka tiers'
# ClickHouse side is the consumer's insert, which tests/ingest covers on both engines; left
# out to keep npm test within its 20 minutes.)
SECOND_RUN=(--project integration tests/foundation/migrations.test.ts tests/ingest tests/analytics tests/sql tests/alerts)

mkdir -p "$PID_DIR"
before="$(running_components)"
trap '[[ "${FRAMEDECK_KEEP_STACK:-0}" == 1 ]] || stop_components_started_since "$before" "this test run (FRAMEDECK_KEEP_STACK=1 keeps them)"' EXIT

# The integration tests' environment (databases, topics, ports) is the one migrations run
# against, so export it before prepare.sh.
eval "$(node -e '
  const env = require("./tests/support/test-env.json");
  for (const [name, value] of Object.entries(env)) console.log(`export ${name}=${JSON.stringify(value)}`);
')"
export_clickhouse_engine

bash "$INFRA_LOCAL_DIR/prepare.sh"
# The other ClickHouse engine, for the second run (and the tests of the modern engine's
# supervisor, which need it whichever engine is selected).
bash "$INFRA_LOCAL_DIR/up.sh" "clickhouse-$CLICKHOUSE_OTHER_ENGINE"
# The dashboard's browser tests drive Debian's Chromium (tests/dashboard).
bash "$INFRA_LOCAL_DIR/install.sh" chromium

banner() { printf '\n[framedeck] ===== %s =====\n\n' "$*" >&2; }

# The whole suite is the unit and integration projects; the cluster project needs the cluster
# topology and runs in `npm run test:cluster` only (docs/deployment.md).
WHOLE_SUITE=(--project unit --project integration)

# Each run of the whole suite also writes a JSON report, from which its failures are listed
# again at the end (tools/failed-tests.mjs): CI shows only a log's tail.
REPORT_DIR="$STATE_DIR/test-reports"
mkdir -p "$REPORT_DIR"
reported() { rm -f "$REPORT_DIR/$1.json" && echo --reporter=default --reporter=json "--outputFile.json=$REPORT_DIR/$1.json"; }

first=0
banner "tests on the $CLICKHOUSE_ENGINE ClickHouse engine ($FRAMEDECK_CLICKHOUSE_URL): ${*:-the whole suite}"
if (($# > 0)); then
  npx vitest run "$@" || first=$?
else
  # shellcheck disable=SC2046 # the report options are words without spaces
  npx vitest run "${WHOLE_SUITE[@]}" $(reported "$CLICKHOUSE_ENGINE") || first=$?
fi

if (($# > 0)); then
  exit "$first"
fi

second=0
other_url="http://$HOST:$(clickhouse_http_port "$CLICKHOUSE_OTHER_ENGINE")"
banner "second run, on the $CLICKHOUSE_OTHER_ENGINE ClickHouse engine ($other_url): ${SECOND_RUN[*]}"
# shellcheck disable=SC2046
FRAMEDECK_CLICKHOUSE_ENGINE="$CLICKHOUSE_OTHER_ENGINE" FRAMEDECK_CLICKHOUSE_URL="$other_url" \
  npx vitest run "${SECOND_RUN[@]}" $(reported "$CLICKHOUSE_OTHER_ENGINE") || second=$?

result() { if (($1 == 0)); then echo passed; else echo "FAILED (exit $1)"; fi; }
banner "$CLICKHOUSE_ENGINE engine, whole suite: $(result "$first"); $CLICKHOUSE_OTHER_ENGINE engine, ClickHouse tiers: $(result "$second")"
((first == 0)) || node tools/failed-tests.mjs "$REPORT_DIR/$CLICKHOUSE_ENGINE.json" "$CLICKHOUSE_ENGINE engine, whole suite" >&2
((second == 0)) || node tools/failed-tests.mjs "$REPORT_DIR/$CLICKHOUSE_OTHER_ENGINE.json" "$CLICKHOUSE_OTHER_ENGINE engine, ClickHouse tiers" >&2
((first == 0 && second == 0))
