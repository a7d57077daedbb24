#!/usr/bin/env bash
# The cluster topology's components on this one machine (FRAMEDECK_TOPOLOGY=cluster; up.sh,
# down.sh and status.sh hand over to this script then):
#
#   zookeeper             Apache ZooKeeper 3.9 (jars via infra/zookeeper/pom.xml)
#   clickhouse-1 … -4     ClickHouse 18.16 servers: shard 1 = nodes 1, 2; shard 2 = nodes 3, 4
#   clickhouse-balancer   tcp-balancer.mjs over the four HTTP ports: the services' ClickHouse URL
#   kafka-1 … -3          Kafka 3.9 brokers, each also a KRaft controller (quorum of three)
#
#   cluster.sh up [component…]     start what is not running (default: all), wait until healthy
#   cluster.sh down [component…]   stop what this script started (default: all)
#   cluster.sh status              one line per component
#   cluster.sh env                 `export …` lines pointing the app at the cluster
#   cluster.sh running             the components running now that this script started
#
# Postgres and Redis are the single node's (up.sh starts or reuses them; the app's database is
# framedeck_cluster, so the demo tenant and its keys match the cluster's events): the topology
# is about the distributed engines. Everything else has ports, data, logs and pid files of its
# own under $STATE_DIR/cluster, so the single-node stack (8123, 9092, …) can run beside it,
# and down only ever stops the processes whose pid files are here.
#
# Why 18.16 and not the modern engine: the modern engine here is hosted by clickhouse-local,
# which has no interserver listener and cannot replicate (issue #16).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

CLUSTER_DIR="$STATE_DIR/cluster"
LOG_DIR="$CLUSTER_DIR/logs"
PID_DIR="$CLUSTER_DIR/run"
CLUSTER_NAME="${FRAMEDECK_CLICKHOUSE_CLUSTER:-framedeck}"
ZOOKEEPER_PORT="${FRAMEDECK_CLUSTER_ZOOKEEPER_PORT:-12181}"
ZOOKEEPER_LIBS="$CLUSTER_DIR/zookeeper/libs"
# Node N (1…4) listens on BASE+N: HTTP 8141…8144, native 9141…9144, interserver 9241…9244;
# the balancer on the HTTP base itself (8140).
CLICKHOUSE_HTTP_BASE="${FRAMEDECK_CLUSTER_CLICKHOUSE_HTTP_BASE:-8140}"
CLICKHOUSE_TCP_BASE="${FRAMEDECK_CLUSTER_CLICKHOUSE_TCP_BASE:-9140}"
CLICKHOUSE_INTERSERVER_BASE="${FRAMEDECK_CLUSTER_CLICKHOUSE_INTERSERVER_BASE:-9240}"
CLICKHOUSE_NODES=4
CLICKHOUSE_REPLICAS_PER_SHARD=2
# Broker N (1…3): clients on 19091+N, controller on 19191+N.
KAFKA_BASE="${FRAMEDECK_CLUSTER_KAFKA_BASE:-19091}"
KAFKA_CONTROLLER_BASE="${FRAMEDECK_CLUSTER_KAFKA_CONTROLLER_BASE:-19191}"
KAFKA_BROKERS=3

CLICKHOUSE_COMPONENTS=()
for ((n = 1; n <= CLICKHOUSE_NODES; n++)); do CLICKHOUSE_COMPONENTS+=("clickhouse-$n"); done
KAFKA_COMPONENTS=()
for ((n = 1; n <= KAFKA_BROKERS; n++)); do KAFKA_COMPONENTS+=("kafka-$n"); done
# Start order: ZooKeeper before any ClickHouse server (an 18.16 server that started without a
# ZooKeeper session segfaults on the first ON CLUSTER DDL, issue #16).
CLUSTER_COMPONENTS=(zookeeper "${CLICKHOUSE_COMPONENTS[@]}" clickhouse-balancer "${KAFKA_COMPONENTS[@]}")

# lib.sh's pid helpers, for this script's components.
file_name() { echo "$1"; }
pid_pattern() {
  case "$1" in
    zookeeper) echo 'QuorumPeerMain' ;;
    clickhouse-balancer) echo 'tcp-balancer.mjs' ;;
    clickhouse-*) echo 'clickhouse-server' ;;
    kafka-*) echo 'kafka.Kafka' ;;
  esac
}

node_number() { echo "${1##*-}"; }
clickhouse_node_http_port() { echo $((CLICKHOUSE_HTTP_BASE + $1)); }
kafka_broker_port() { echo $((KAFKA_BASE + $1)); }

component_port() {
  case "$1" in
    zookeeper) echo "$ZOOKEEPER_PORT" ;;
    clickhouse-balancer) echo "$CLICKHOUSE_HTTP_BASE" ;;
    clickhouse-*) clickhouse_node_http_port "$(node_number "$1")" ;;
    kafka-*) kafka_broker_port "$(node_number "$1")" ;;
  esac
}

component_log() {
  case "$1" in
    clickhouse-[0-9]*) printf '%s/%s.err.log' "$LOG_DIR" "$1" ;;
    kafka-*) printf '%s/%s/kafka.log' "$LOG_DIR" "$1" ;;
    *) printf '%s/%s.log' "$LOG_DIR" "$1" ;;
  esac
}

kafka_bootstrap() {
  local n list=()
  for ((n = 1; n <= KAFKA_BROKERS; n++)); do list+=("$HOST:$(kafka_broker_port "$n")"); done
  (IFS=,; echo "${list[*]}")
}

resolve_cluster_components() {
  local c k ok
  for c in "$@"; do
    ok=0
    for k in "${CLUSTER_COMPONENTS[@]}"; do [[ "$c" == "$k" ]] && ok=1; done
    ((ok)) || die "unknown cluster component '$c' (known: ${CLUSTER_COMPONENTS[*]})"
    echo "$c"
  done
}

# Install -------------------------------------------------------------------------------------

install_zookeeper() {
  local pom="$INFRA_DIR/zookeeper/pom.xml" stamp="$ZOOKEEPER_LIBS/.pom.sha256" sum
  sum="$(sha256sum "$pom" | cut -d' ' -f1)"
  [[ -f "$stamp" && "$(cat "$stamp")" == "$sum" ]] && return
  command -v mvn >/dev/null || die "fetching ZooKeeper needs Maven (mvn) and Java 17"
  log "fetching ZooKeeper jars from Maven Central (infra/zookeeper/pom.xml)"
  rm -rf "$ZOOKEEPER_LIBS"
  mkdir -p "$ZOOKEEPER_LIBS"
  mvn -q -f "$pom" dependency:copy-dependencies -DoutputDirectory="$ZOOKEEPER_LIBS" >&2 ||
    die "mvn could not fetch ZooKeeper (infra/zookeeper/pom.xml)"
  echo "$sum" >"$stamp"
}

# ZooKeeper -----------------------------------------------------------------------------------

zookeeper_healthy() {
  # `srvr`, not `ruok`: see infra/zookeeper/zoo.cfg.
  [[ "$(timeout 2 bash -c "exec 3<>/dev/tcp/$HOST/$ZOOKEEPER_PORT; printf srvr >&3; cat <&3" 2>/dev/null)" == *"Mode: standalone"* ]]
}

start_zookeeper() {
  local dir="$CLUSTER_DIR/zookeeper"
  mkdir -p "$dir/data"
  sed -e "s|@DATA_DIR@|$dir/data|g" -e "s|@ZOOKEEPER_PORT@|$ZOOKEEPER_PORT|g" \
    "$INFRA_DIR/zookeeper/zoo.cfg" >"$dir/zoo.cfg"
  log "zookeeper: starting on $HOST:$ZOOKEEPER_PORT"
  start_bg zookeeper "$LOG_DIR/zookeeper.stdout.log" \
    java -Xms64m -Xmx256m -XX:+UseSerialGC -Djava.awt.headless=true \
    -Dzookeeper.log.file="$LOG_DIR/zookeeper.log" \
    -Dlog4j.configuration="file:$INFRA_DIR/zookeeper/log4j.properties" \
    -cp "$ZOOKEEPER_LIBS/*" org.apache.zookeeper.server.quorum.QuorumPeerMain "$dir/zoo.cfg"
}

wait_zookeeper() { wait_for zookeeper 60 "$(component_log zookeeper)" zookeeper_healthy; }

# ClickHouse ----------------------------------------------------------------------------------

# The <shard> elements of remote_servers, $1 replicas per shard, the first $2 of them listed
# (default all): with CLICKHOUSE_REPLICAS_PER_SHARD nodes 1,2 form shard 1, nodes 3,4 shard 2
# (the cluster); with 1, every node is a shard of its own (the <cluster>_replicas cluster, through
# which erasure reads every replica's mutations); with CLICKHOUSE_REPLICAS_PER_SHARD and 1, the
# first replica of each shard (the <cluster>_alter cluster, through which ALTERs run).
remote_servers_xml() {
  local per_shard="$1" listed="${2:-$1}" n shard_open=0
  for ((n = 1; n <= CLICKHOUSE_NODES; n++)); do
    if (((n - 1) % per_shard == 0)); then
      ((shard_open)) && printf '            </shard>\n'
      printf '            <shard>\n                <internal_replication>true</internal_replication>\n'
      shard_open=1
    fi
    (((n - 1) % per_shard < listed)) || continue
    printf '                <replica><host>%s</host><port>%s</port><user>%s</user><password>%s</password></replica>\n' \
      "$HOST" $((CLICKHOUSE_TCP_BASE + n)) "$CLICKHOUSE_ADMIN_USER" "$CLICKHOUSE_ADMIN_PASSWORD"
  done
  printf '            </shard>'
}

start_clickhouse_node() {
  local name="$1" n dir shard replica servers replica_servers alter_servers
  n="$(node_number "$name")"
  dir="$CLUSTER_DIR/$name"
  shard=$(((n - 1) / CLICKHOUSE_REPLICAS_PER_SHARD + 1))
  replica="replica-$n"
  render_clickhouse_config "$dir" "$(clickhouse_node_http_port "$n")" $((CLICKHOUSE_TCP_BASE + n)) "$name"
  mkdir -p "$dir/etc/config.d"
  servers="$(remote_servers_xml "$CLICKHOUSE_REPLICAS_PER_SHARD")"
  replica_servers="$(remote_servers_xml 1)"
  alter_servers="$(remote_servers_xml "$CLICKHOUSE_REPLICAS_PER_SHARD" 1)"
  (
    umask 077
    awk -v servers="$servers" -v replica_servers="$replica_servers" -v alter_servers="$alter_servers" \
      '{ if ($0 == "@REMOTE_SERVERS@") print servers; else if ($0 == "@REPLICA_SERVERS@") print replica_servers;
         else if ($0 == "@ALTER_SERVERS@") print alter_servers; else print }' \
      "$INFRA_DIR/clickhouse-cluster/cluster.xml" |
      sed -e "s|@INTERSERVER_PORT@|$((CLICKHOUSE_INTERSERVER_BASE + n))|g" \
        -e "s|@ZOOKEEPER_PORT@|$ZOOKEEPER_PORT|g" -e "s|@CLUSTER@|$CLUSTER_NAME|g" \
        -e "s|@SHARD@|$shard|g" -e "s|@REPLICA@|$replica|g" >"$dir/etc/config.d/cluster.xml"
  )
  log "$name: starting 18.16 (shard $shard, $replica) on $HOST:$(clickhouse_node_http_port "$n") (http)"
  start_bg "$name" "$LOG_DIR/$name.stdout.log" clickhouse-server --config-file="$dir/etc/config.xml"
}

wait_clickhouse_node() {
  local port
  port="$(clickhouse_node_http_port "$(node_number "$1")")"
  wait_for "$1" 90 "$(component_log "$1")" clickhouse_ping "$port"
  clickhouse_admin_ok "$port" || die "$1: up, but $CLICKHOUSE_ADMIN_USER cannot log in (see $(component_log "$1"))"
}

start_clickhouse_balancer() {
  local n backends=()
  for ((n = 1; n <= CLICKHOUSE_NODES; n++)); do backends+=("$HOST:$(clickhouse_node_http_port "$n")"); done
  log "clickhouse-balancer: starting on $HOST:$CLICKHOUSE_HTTP_BASE"
  start_bg clickhouse-balancer "$LOG_DIR/clickhouse-balancer.log" \
    node "$INFRA_LOCAL_DIR/tcp-balancer.mjs" --name clickhouse --listen "$HOST:$CLICKHOUSE_HTTP_BASE" \
    --backends "$(IFS=,; echo "${backends[*]}")"
}

wait_clickhouse_balancer() { wait_for clickhouse-balancer 30 "$(component_log clickhouse-balancer)" clickhouse_ping "$CLICKHOUSE_HTTP_BASE"; }

# Kafka ---------------------------------------------------------------------------------------

kafka_voters() {
  local n list=()
  for ((n = 1; n <= KAFKA_BROKERS; n++)); do list+=("$n@$HOST:$((KAFKA_CONTROLLER_BASE + n))"); done
  (IFS=,; echo "${list[*]}")
}

start_kafka_broker() {
  local name="$1" n dir
  n="$(node_number "$name")"
  dir="$CLUSTER_DIR/$name"
  mkdir -p "$dir/data"
  sed -e "s|@NODE_ID@|$n|g" -e "s|@PORT@|$(kafka_broker_port "$n")|g" \
    -e "s|@CONTROLLER_PORT@|$((KAFKA_CONTROLLER_BASE + n))|g" -e "s|@VOTERS@|$(kafka_voters)|g" \
    -e "s|@DATA_DIR@|$dir/data|g" "$INFRA_LOCAL_DIR/cluster/kafka-broker.properties" >"$dir/server.properties"
  # One cluster id for the three, generated once; each broker's storage formatted once.
  if [[ ! -s "$CLUSTER_DIR/kafka.cluster.id" ]]; then
    kafka_java kafka.tools.StorageTool random-uuid >"$CLUSTER_DIR/kafka.cluster.id"
  fi
  if [[ ! -f "$dir/data/meta.properties" ]]; then
    kafka_java kafka.tools.StorageTool format -t "$(cat "$CLUSTER_DIR/kafka.cluster.id")" \
      -c "$dir/server.properties" >/dev/null
  fi
  # Only a "started" line written after this point counts (the log survives restarts).
  stat -c %s "$(component_log "$name")" 2>/dev/null >"$dir/log.offset" || echo 0 >"$dir/log.offset"
  log "$name: starting on $HOST:$(kafka_broker_port "$n") (controller $HOST:$((KAFKA_CONTROLLER_BASE + n)))"
  # infra/kafka/log4j.properties writes <kafka.logs.dir>/kafka.log: a logs dir per broker.
  mkdir -p "$LOG_DIR/$name"
  start_bg "$name" "$LOG_DIR/$name.stdout.log" \
    java -Xms128m -Xmx384m -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Djava.awt.headless=true \
    -Dkafka.logs.dir="$LOG_DIR/$name" -Dlog4j.configuration="file:$INFRA_DIR/kafka/log4j.properties" \
    -cp "$KAFKA_LIBS/*" kafka.Kafka "$dir/server.properties"
}

kafka_broker_ready() {
  local name="$1" offset
  offset="$(cat "$CLUSTER_DIR/$name/log.offset" 2>/dev/null || echo 0)"
  port_open "$HOST" "$(kafka_broker_port "$(node_number "$name")")" || return 1
  # grep reads to the end (no -q): under pipefail, tail cut off by SIGPIPE would fail the check.
  tail -c +"$((offset + 1))" "$(component_log "$name")" 2>/dev/null | grep 'Kafka Server started' >/dev/null
}

wait_kafka_broker() { wait_for "$1" 120 "$(component_log "$1")" kafka_broker_ready "$1"; }

# Commands ------------------------------------------------------------------------------------

# Which start_*/wait_* pair handles a component.
component_kind() {
  case "$1" in
    zookeeper) echo zookeeper ;;
    clickhouse-balancer) echo clickhouse_balancer ;;
    clickhouse-*) echo clickhouse_node ;;
    kafka-*) echo kafka_broker ;;
  esac
}

start_component() { "start_$(component_kind "$1")" "$1"; }
wait_component() { "wait_$(component_kind "$1")" "$1"; }

lock_cluster() {
  mkdir -p "$CLUSTER_DIR"
  # fd 9: start_bg closes it for the servers (lib.sh), so none of them inherits the lock.
  exec 9>"$CLUSTER_DIR/.lock"
  flock -w 300 9 || die "another cluster.sh holds $CLUSTER_DIR/.lock for over 300 s"
}

cmd_up() {
  local components=("$@") c started=() t0=$SECONDS
  ((${#components[@]})) || components=("${CLUSTER_COMPONENTS[@]}")
  mapfile -t components < <(resolve_cluster_components "${components[@]}")
  lock_cluster
  # The single node's Postgres and Redis (reused when running), and the binaries and jars.
  FRAMEDECK_TOPOLOGY=single bash "$INFRA_LOCAL_DIR/up.sh" postgres redis
  bash "$INFRA_LOCAL_DIR/install.sh" clickhouse-legacy kafka
  install_zookeeper
  mkdir -p "$LOG_DIR" "$PID_DIR"
  for c in "${components[@]}"; do
    if pid_alive "$c"; then
      log "$c: already running (pid $(pid_of "$c"))"
      continue
    fi
    port_open "$HOST" "$(component_port "$c")" &&
      die "$c: port $HOST:$(component_port "$c") is taken by a process these scripts did not start"
    start_component "$c"
    started+=("$c")
    # ClickHouse servers must find ZooKeeper up (see CLUSTER_COMPONENTS).
    [[ "$c" == zookeeper ]] && wait_component zookeeper
  done
  for c in "${started[@]+"${started[@]}"}"; do
    [[ "$c" == zookeeper ]] || wait_component "$c"
  done
  log "cluster ready in $((SECONDS - t0)) s: ${components[*]} (status: FRAMEDECK_TOPOLOGY=cluster bash infra/local/status.sh)"
}

# stop_together NAME…: SIGTERM to each (started by this script), then up to 30 s for all of them,
# then SIGKILL to what is left. Together, not one by one: a KRaft broker shutting down cleanly
# needs a controller quorum, which the last broker stopped alone no longer has.
stop_together() {
  local name pid pids=() deadline
  for name in "$@"; do
    if ! pid="$(pid_of "$name")"; then
      [[ -f "$(pid_file "$name")" ]] && log "$name: not running (removing stale pid file)"
      rm -f "$(pid_file "$name")"
      continue
    fi
    log "$name: stopping pid $pid"
    kill -TERM "$pid" 2>/dev/null || true
    pids+=("$name:$pid")
  done
  deadline=$((SECONDS + 30))
  for entry in "${pids[@]+"${pids[@]}"}"; do
    name="${entry%%:*}" pid="${entry##*:}"
    while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.2; done
    if kill -0 "$pid" 2>/dev/null; then
      log "$name: still running after 30 s, sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$(pid_file "$name")"
  done
}

cmd_down() {
  local requested=" $* " group c wanted
  ((${#@})) && resolve_cluster_components "$@" >/dev/null
  lock_cluster
  # Reverse start order, by group: the brokers, the balancer, the ClickHouse servers, and
  # ZooKeeper last, so the servers close their sessions.
  for group in "${KAFKA_COMPONENTS[*]}" clickhouse-balancer "${CLICKHOUSE_COMPONENTS[*]}" zookeeper; do
    wanted=()
    for c in $group; do [[ "$requested" == "  " || "$requested" == *" $c "* ]] && wanted+=("$c"); done
    ((${#wanted[@]})) && stop_together "${wanted[@]}"
  done
  return 0
}

cmd_status() {
  local c port state owner
  for c in "${CLUSTER_COMPONENTS[@]}"; do
    port="$(component_port "$c")"
    if port_open "$HOST" "$port"; then state=up; else state=down; fi
    if pid="$(pid_of "$c")"; then owner="started-by-us (pid $pid)"; elif [[ $state == up ]]; then owner=external; else owner=-; fi
    printf '%-20s %-5s %-16s %-28s log: %s\n' "$c" "$state" "$HOST:$port" "$owner" "$(component_log "$c")"
  done
}

cmd_running() {
  local c
  for c in "${CLUSTER_COMPONENTS[@]}"; do pid_alive "$c" && printf '%s ' "$c"; done
  return 0
}

# What the app needs to use the cluster (sourced by start.sh / the cluster tests through eval).
cmd_env() {
  cat <<EOF
export FRAMEDECK_TOPOLOGY=cluster
export FRAMEDECK_CLICKHOUSE_ENGINE=legacy
export FRAMEDECK_CLICKHOUSE_URL=http://$HOST:$CLICKHOUSE_HTTP_BASE
export FRAMEDECK_CLICKHOUSE_CLUSTER=$CLUSTER_NAME
export FRAMEDECK_KAFKA_BROKERS=$(kafka_bootstrap)
export FRAMEDECK_KAFKA_REPLICATION_FACTOR=$KAFKA_BROKERS
export FRAMEDECK_KAFKA_MIN_INSYNC_REPLICAS=2
export FRAMEDECK_POSTGRES_URL=${FRAMEDECK_POSTGRES_URL:-postgres://postgres:postgres@$HOST:$POSTGRES_PORT/framedeck_cluster}
EOF
}

command="${1:-}"
shift || true
case "$command" in
  up) cmd_up "$@" ;;
  down) cmd_down "$@" ;;
  status) cmd_status ;;
  env) cmd_env ;;
  running) cmd_running ;;
  *) die "usage: cluster.sh up|down|status|env|running [component…]" ;;
esac
