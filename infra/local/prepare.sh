#!/usr/bin/env bash
# Shared first half of `npm start` and `npm test`: everything a fresh clone needs before a
# service or a test can run. Idempotent and fast when nothing changed.
#
#   prepare.sh            node modules, the local stack (up.sh), build, migrations
#
# Environment: whatever FRAMEDECK_* variables the caller exported (test.sh exports the test
# databases and topics) are what `framedeck migrate` migrates. ClickHouse: the engine
# FRAMEDECK_CLICKHOUSE_ENGINE selects, at FRAMEDECK_CLICKHOUSE_URL (default: its port).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_ROOT"
export_clickhouse_engine

# Node modules: a clean `npm ci` on a fresh clone; `npm install` when package-lock.json
# changed since the last install (a pulled branch with new dependencies must not fail at
# build time, and wiping node_modules under a running service would break it).
lock_hash="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [[ ! -d node_modules ]]; then
  log "installing node modules (npm ci)"
  npm ci --no-audit --no-fund >&2
  echo "$lock_hash" >node_modules/.framedeck-lock-hash
elif [[ "$(cat node_modules/.framedeck-lock-hash 2>/dev/null)" != "$lock_hash" ]]; then
  log "package-lock.json changed: npm install"
  npm install --no-audit --no-fund >&2
  echo "$lock_hash" >node_modules/.framedeck-lock-hash
fi

bash "$INFRA_LOCAL_DIR/up.sh"

log "building (tsc -b)"
npm run --silent build >&2

log "migrating Postgres, ClickHouse and Kafka topics"
node services/cli/bin/framedeck.js migrate >&2
