#!/usr/bin/env bash
# `npm run test:cluster`: the tests of the cluster topology (tests/cluster, vitest project
# `cluster`) on the topology's own components, which this run starts when they are not running
# and stops afterwards (only those it started). Same preparation as npm test (prepare.sh:
# node modules, build, migrations), then the cluster tests; their global setup migrates the
# cluster test databases and topics.
#
#   bash infra/local/test-cluster.sh [vitest args…]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_ROOT"

export FRAMEDECK_TOPOLOGY=cluster
before="$(bash "$INFRA_LOCAL_DIR/cluster.sh" running)"
trap 'stop_components_started_since "$before" "the cluster tests" cluster' EXIT
eval "$(bash "$INFRA_LOCAL_DIR/cluster.sh" env)"

started=$SECONDS
bash "$INFRA_LOCAL_DIR/prepare.sh"
npx vitest run --project cluster "$@"
log "cluster tests took $((SECONDS - started)) s (with the topology's start and the build)"
