#!/usr/bin/env bash
# How long Distributed reads lag after a replica restart, with and without the replica-delay
# settings (docs/deployment.md, "Reads after a replica restart"). On the running cluster
# topology (FRAMEDECK_TOPOLOGY=cluster bash infra/local/up.sh): kills clickhouse-2 (shard 1) with
# -9, inserts rows while it is down, starts it again and, for 60 s, reads the row count through
# the Distributed table from node 3 (so shard 1's replica is picked at random), 10 reads a round
# with the default settings and 10 with
#   max_replica_delay_for_distributed_queries=1 & fallback_to_stale_replicas_for_distributed_queries=0.
# Prints, per round, the seconds since the restart began and the low reads of each kind.
#
#   bash bench/cluster/stale-reads.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
export FRAMEDECK_TOPOLOGY=cluster
eval "$(bash infra/local/cluster.sh env)"
AUTH="user=${FRAMEDECK_CLICKHOUSE_USER:-framedeck_admin}&password=${FRAMEDECK_CLICKHOUSE_PASSWORD:-framedeck-admin-dev}"
NODE3="http://127.0.0.1:8143/?$AUTH"
DB=stale_probe
q() { curl -sS --fail-with-body "$NODE3&$2" --data-binary "$1"; }

q "DROP DATABASE IF EXISTS $DB ON CLUSTER $FRAMEDECK_CLICKHOUSE_CLUSTER" '' >/dev/null
q "CREATE DATABASE IF NOT EXISTS $DB ON CLUSTER $FRAMEDECK_CLICKHOUSE_CLUSTER" '' >/dev/null
q "CREATE TABLE IF NOT EXISTS $DB.t_local ON CLUSTER $FRAMEDECK_CLICKHOUSE_CLUSTER (n UInt64)
   ENGINE = ReplicatedMergeTree('/clickhouse/{cluster}/tables/{shard}/$DB/t_local', '{replica}') ORDER BY n" '' >/dev/null
q "CREATE TABLE IF NOT EXISTS $DB.t ON CLUSTER $FRAMEDECK_CLICKHOUSE_CLUSTER (n UInt64)
   ENGINE = Distributed($FRAMEDECK_CLICKHOUSE_CLUSTER, $DB, t_local, n)" '' >/dev/null
q "INSERT INTO $DB.t SELECT number FROM numbers(100000)" 'insert_distributed_sync=1'

kill -9 "$(cat .state/cluster/run/clickhouse-2.pid)"
for i in 1 2 3 4 5; do q "INSERT INTO $DB.t SELECT 100000 * $i + number FROM numbers(100000)" 'insert_distributed_sync=1'; done
expected=$(q "SELECT count() FROM $DB.t" 'skip_unavailable_shards=0')
echo "rows: $expected; restarting clickhouse-2"
start=$SECONDS
bash infra/local/cluster.sh up clickhouse-2 >/dev/null
echo "clickhouse-2 answers after $((SECONDS - start)) s"
STRICT='max_replica_delay_for_distributed_queries=1&fallback_to_stale_replicas_for_distributed_queries=0'
low_rounds_default=0 low_rounds_strict=0 errors_strict=0
while ((SECONDS - start < 60)); do
  d=0 s=0 e=0
  for _ in $(seq 10); do
    [[ "$(q "SELECT count() FROM $DB.t" '' 2>/dev/null || echo error)" == "$expected" ]] || d=$((d + 1))
    got="$(q "SELECT count() FROM $DB.t" "$STRICT" 2>/dev/null || echo error)"
    if [[ "$got" == error* ]]; then e=$((e + 1)); elif [[ "$got" != "$expected" ]]; then s=$((s + 1)); fi
  done
  echo "t=$((SECONDS - start)) s: low reads default $d/10, with the settings $s/10 (errors $e/10)"
  ((d > 0)) && low_rounds_default=$((low_rounds_default + 1))
  ((s > 0)) && low_rounds_strict=$((low_rounds_strict + 1))
  ((e > 0)) && errors_strict=$((errors_strict + 1))
  sleep 0.5
done
echo "rounds with low reads: default $low_rounds_default, with the settings $low_rounds_strict (rounds with errors $errors_strict)"
q "DROP DATABASE IF EXISTS $DB ON CLUSTER $FRAMEDECK_CLICKHOUSE_CLUSTER" '' >/dev/null
