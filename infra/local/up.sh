#!/usr/bin/env bash
# Start the local stack: Postgres, Redis, ClickHouse, Kafka (or only the ones named).
#
#   up.sh [postgres|redis|clickhouse|clickhouse-legacy|clickhouse-modern|kafka ...]
#
# `clickhouse` is the engine FRAMEDECK_CLICKHOUSE_ENGINE selects (legacy by default); the
# two engines have their own ports and data and can run side by side (lib.sh).
#
# - Runs install.sh first (fast no-op when everything is installed).
# - A component whose port already answers is reused as is ("reusing"): the project's
#   machines already run Postgres and Redis, and a second up.sh must not start duplicates.
# - Otherwise it is started in the background; only then does it get a pid file in
#   $PID_DIR, which is what lets down.sh stop it (and only it) later.
# - Returns once every component is healthy, or fails naming the component and its log.
#
# Kafka topics are NOT created here: the app's migrate command creates them with KafkaJS
# from the typed config (partitions, retention), so there is one source of truth for them.
# ClickHouse tables likewise come from the app's migrations in clickhouse/.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# FRAMEDECK_TOPOLOGY=cluster: the cluster topology's components instead (cluster.sh).
[[ "${FRAMEDECK_TOPOLOGY:-single}" == cluster ]] && exec bash "$INFRA_LOCAL_DIR/cluster.sh" up "$@"

components=("$@")
((${#components[@]})) || components=("${DEFAULT_COMPONENTS[@]}")
resolved="$(resolve_components "${components[@]}")" || exit 1
mapfile -t components <<<"$resolved"
lock_state

bash "$INFRA_LOCAL_DIR/install.sh" "${components[@]}"
mkdir -p "$LOG_DIR" "$PID_DIR"

# Components started in this run; they are waited for after all were launched, so the
# JVM and ClickHouse start-ups overlap.
started=()

# "reusing" / "already running": shared by all components.
# Returns 0 when the component is already up (nothing to start).
already_up() {
  local name="$1" port="$2" pid
  port_open "$HOST" "$port" || return 1
  if pid="$(pid_of "$name")"; then
    log "$name: already running (started by these scripts, pid $pid) on $HOST:$port"
  else
    log "$name: reusing the server already listening on $HOST:$port"
  fi
  return 0
}

# Postgres -----------------------------------------------------------------------------

# Debian's cluster for our port, as "VERSION NAME", creating one if the package has none.
postgres_cluster() {
  local line
  line="$(pg_lsclusters -h 2>/dev/null | awk -v p="$POSTGRES_PORT" '$3 == p {print $1, $2; exit}')"
  if [[ -z "$line" ]]; then
    # Normally the package created 15/main on 5432; this only runs when no cluster uses
    # our port (FRAMEDECK_POSTGRES_PORT elsewhere, or main was dropped).
    local ver name=main
    ver="$(ls /usr/lib/postgresql | sort -n | tail -n1)"
    [[ -d "/etc/postgresql/$ver/main" ]] && name=framedeck
    log "postgres: creating cluster $ver/$name on port $POSTGRES_PORT"
    pg_createcluster --port "$POSTGRES_PORT" "$ver" "$name" >&2
    line="$ver $name"
  fi
  echo "$line"
}

start_postgres() {
  already_up postgres "$POSTGRES_PORT" && return
  local ver name datadir
  read -r ver name < <(postgres_cluster)
  log "postgres: starting Debian cluster $ver/$name"
  # --skip-systemctl-redirect: start it directly, with or without systemd as PID 1.
  pg_ctlcluster --skip-systemctl-redirect "$ver" "$name" start 9>&-
  datadir="$(pg_lsclusters -h | awk -v v="$ver" -v n="$name" '$1 == v && $2 == n {print $6}')"
  head -n1 "$datadir/postmaster.pid" >"$(pid_file postgres)"
  echo "$ver $name" >"$PID_DIR/postgres.cluster"
  started+=(postgres)
}

wait_postgres() {
  wait_for postgres 30 "$(component_log postgres)" pg_isready -q -h "$HOST" -p "$POSTGRES_PORT"
  # The app's default URL is postgres://postgres:postgres@127.0.0.1:5432/framedeck and
  # Debian's pg_hba asks for a password over TCP: give the superuser that dev password.
  # Only on a server we started (a reused one is someone else's to configure).
  runuser -u postgres -- psql -qX -p "$POSTGRES_PORT" -c "ALTER USER postgres PASSWORD 'postgres'" >/dev/null
}

# Create the app's database if it is missing (works on reused servers too when the dev
# credentials are accepted; otherwise the app's migrate step reports the problem).
ensure_postgres_database() {
  command -v psql >/dev/null || return 0
  local url="postgresql://postgres:postgres@$HOST:$POSTGRES_PORT/postgres"
  if ! psql -qAtX "$url" -c "SELECT 1 FROM pg_database WHERE datname = 'framedeck'" 2>/dev/null | grep -q 1; then
    if psql -qAtX "$url" -c 'CREATE DATABASE framedeck' >/dev/null 2>&1; then
      log "postgres: created database framedeck"
    else
      log "postgres: WARNING could not check/create database framedeck as postgres/postgres"
    fi
  fi
}

# Redis --------------------------------------------------------------------------------

start_redis() {
  already_up redis "$REDIS_PORT" && return
  log "redis: starting on $HOST:$REDIS_PORT"
  mkdir -p "$STATE_DIR/redis"
  # Pure cache and rate-limit windows: no persistence (--save "" --appendonly no).
  # Redis daemonizes itself and writes the pid file. A restart right after a SIGKILL (the fault
  # tests) can find the port not yet released and exit at once: try again a few times.
  local attempt tick
  for attempt in 1 2 3 4 5; do
    redis-server --daemonize yes --bind "$HOST" --port "$REDIS_PORT" --save "" --appendonly no \
      --dir "$STATE_DIR/redis" --pidfile "$(pid_file redis)" --logfile "$LOG_DIR/redis.log" 9>&-
    for tick in 1 2 3 4 5 6 7 8 9 10; do
      redis_ping && break 2
      sleep 0.2
    done
    log "redis: not answering 2 s after start (attempt $attempt); starting it again"
  done
  started+=(redis)
}

redis_ping() { [[ "$(redis-cli -h "$HOST" -p "$REDIS_PORT" ping 2>/dev/null)" == "PONG" ]]; }

wait_redis() {
  wait_for redis 20 "$LOG_DIR/redis.log" redis_ping
}

# ClickHouse ---------------------------------------------------------------------------
# Both engines run as our own processes with configs rendered from infra/clickhouse/*.xml
# (shared by both) into $STATE_DIR/clickhouse{,-modern}/etc; the modern engine adds the
# overlays of infra/clickhouse-modern/{config.d,users.d} (merged by ClickHouse itself).

# A server on the port that is not ours (e.g. Debian's own service) lacks our users.
warn_if_foreign_clickhouse() {
  clickhouse_admin_ok "$1" || log "$2: WARNING $CLICKHOUSE_ADMIN_USER cannot log in on port $1; is that server started with infra/clickhouse/*.xml?"
}

start_clickhouse-legacy() {
  if already_up clickhouse-legacy "$CLICKHOUSE_HTTP_PORT"; then
    warn_if_foreign_clickhouse "$CLICKHOUSE_HTTP_PORT" clickhouse-legacy
    return
  fi
  if pid_alive clickhouse-legacy; then
    # Launched by an earlier up.sh and still starting: just wait for it.
    started+=(clickhouse-legacy)
    return
  fi
  render_clickhouse_config "$STATE_DIR/clickhouse" "$CLICKHOUSE_HTTP_PORT" "$CLICKHOUSE_TCP_PORT" clickhouse
  log "clickhouse-legacy: starting 18.16 on $HOST:$CLICKHOUSE_HTTP_PORT (http) / $CLICKHOUSE_TCP_PORT (native)"
  start_bg clickhouse-legacy "$LOG_DIR/clickhouse.stdout.log" \
    clickhouse-server --config-file="$STATE_DIR/clickhouse/etc/config.xml"
  started+=(clickhouse-legacy)
}

wait_clickhouse-legacy() {
  wait_for clickhouse-legacy 60 "$LOG_DIR/clickhouse.err.log" clickhouse_ping "$CLICKHOUSE_HTTP_PORT"
  clickhouse_admin_ok "$CLICKHOUSE_HTTP_PORT" ||
    die "clickhouse-legacy: up, but $CLICKHOUSE_ADMIN_USER cannot log in (see $LOG_DIR/clickhouse.log)"
}

start_clickhouse-modern() {
  if already_up clickhouse-modern "$CLICKHOUSE_MODERN_HTTP_PORT"; then
    warn_if_foreign_clickhouse "$CLICKHOUSE_MODERN_HTTP_PORT" clickhouse-modern
    return
  fi
  if pid_alive clickhouse-modern; then
    started+=(clickhouse-modern)
    return
  fi
  local dir="$CLICKHOUSE_MODERN_DIR" overlay
  render_clickhouse_config "$dir" "$CLICKHOUSE_MODERN_HTTP_PORT" "$CLICKHOUSE_MODERN_TCP_PORT" clickhouse-modern
  # The modern-only overlays, merged by ClickHouse into config.xml / users.xml.
  for overlay in config.d users.d; do
    rm -rf "$dir/etc/$overlay"
    mkdir -p "$dir/etc/$overlay"
    cp "$INFRA_DIR/clickhouse-modern/$overlay/"*.xml "$dir/etc/$overlay/"
  done
  log "clickhouse-modern: starting 26.x on $HOST:$CLICKHOUSE_MODERN_HTTP_PORT (http) / $CLICKHOUSE_MODERN_TCP_PORT (native)"
  FRAMEDECK_CLICKHOUSE_PASSWORD="$CLICKHOUSE_ADMIN_PASSWORD" \
    start_bg clickhouse-modern "$LOG_DIR/clickhouse-modern.stdout.log" \
    node "$INFRA_LOCAL_DIR/clickhouse-modern.supervisor.mjs" \
      --launcher "$CLICKHOUSE_MODERN_LAUNCHER" --library "$CLICKHOUSE_MODERN_LIB" \
      --config "$dir/etc/config.xml" --data "$dir/data" --http-port "$CLICKHOUSE_MODERN_HTTP_PORT" \
      --pid-file "$(pid_file clickhouse-modern)" --engine-pid-file "$PID_DIR/clickhouse-modern.engine.pid"
  started+=(clickhouse-modern)
}

wait_clickhouse-modern() {
  wait_for clickhouse-modern 60 "$LOG_DIR/clickhouse-modern.err.log" clickhouse_ping "$CLICKHOUSE_MODERN_HTTP_PORT"
  clickhouse_admin_ok "$CLICKHOUSE_MODERN_HTTP_PORT" ||
    die "clickhouse-modern: up, but $CLICKHOUSE_ADMIN_USER cannot log in (see $LOG_DIR/clickhouse-modern.log)"
}

# Kafka --------------------------------------------------------------------------------

KAFKA_DIR="$STATE_DIR/kafka"
KAFKA_LOG_OFFSET=0

start_kafka() {
  if already_up kafka "$KAFKA_PORT"; then
    port_open "$HOST" "$KAFKA_SASL_PORT" ||
      log "kafka: WARNING no SCRAM listener on $HOST:$KAFKA_SASL_PORT (this broker started before it was" \
        "configured); tests/kafka need it: restart Kafka (down.sh kafka; up.sh kafka)"
    return
  fi
  if pid_alive kafka; then
    started+=(kafka)
    return
  fi
  mkdir -p "$KAFKA_DIR/data"
  sed -e "s|@DATA_DIR@|$KAFKA_DIR/data|g" -e "s|@KAFKA_PORT@|$KAFKA_PORT|g" \
      -e "s|@KAFKA_CONTROLLER_PORT@|$KAFKA_CONTROLLER_PORT|g" -e "s|@KAFKA_SASL_PORT@|$KAFKA_SASL_PORT|g" \
      -e "s|@KAFKA_SASL_SSL_PORT@|$KAFKA_SASL_SSL_PORT|g" -e "s|@TLS_DIR@|$KAFKA_DIR/tls|g" \
      "$INFRA_DIR/kafka/server.properties" >"$KAFKA_DIR/server.properties"

  ensure_kafka_tls

  # KRaft storage is formatted exactly once, with a cluster id kept in the state dir;
  # meta.properties in the data dir is what the broker itself checks.
  if [[ ! -f "$KAFKA_DIR/data/meta.properties" ]]; then
    if [[ ! -s "$KAFKA_DIR/cluster.id" ]]; then
      kafka_java kafka.tools.StorageTool random-uuid >"$KAFKA_DIR/cluster.id"
    fi
    log "kafka: formatting storage (cluster id $(cat "$KAFKA_DIR/cluster.id"))"
    kafka_java kafka.tools.StorageTool format -t "$(cat "$KAFKA_DIR/cluster.id")" \
      -c "$KAFKA_DIR/server.properties" >/dev/null
  fi

  # Only a "started" line written after this point counts (the log survives restarts).
  KAFKA_LOG_OFFSET="$(stat -c %s "$LOG_DIR/kafka.log" 2>/dev/null || echo 0)"
  log "kafka: starting on $HOST:$KAFKA_PORT (controller $HOST:$KAFKA_CONTROLLER_PORT)"
  start_bg kafka "$LOG_DIR/kafka.stdout.log" \
    java -Xms256m -Xmx512m -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Djava.awt.headless=true \
      -Dkafka.logs.dir="$LOG_DIR" \
      -Dlog4j.configuration="file:$INFRA_DIR/kafka/log4j.properties" \
      -cp "$KAFKA_LIBS/*" kafka.Kafka "$KAFKA_DIR/server.properties"
  started+=(kafka)
}

# Healthy = the broker logged that it finished starting (it has joined its own quorum and
# serves metadata) and the client port accepts connections.
kafka_ready() {
  port_open "$HOST" "$KAFKA_PORT" || return 1
  local size
  size="$(stat -c %s "$LOG_DIR/kafka.log" 2>/dev/null || echo 0)"
  ((size >= KAFKA_LOG_OFFSET)) || KAFKA_LOG_OFFSET=0 # rotated meanwhile
  tail -c +"$((KAFKA_LOG_OFFSET + 1))" "$LOG_DIR/kafka.log" 2>/dev/null | grep -q 'Kafka Server started'
}

wait_kafka() {
  wait_for kafka 90 "$LOG_DIR/kafka.log" kafka_ready
  ensure_kafka_scram_user
}

# The SASL_SSL listener's certificate: a CA of its own (clients trust $KAFKA_DIR/tls/ca.pem)
# signing a certificate for 127.0.0.1, made once with openssl and kept with the broker's state.
ensure_kafka_tls() {
  local dir="$KAFKA_DIR/tls"
  [[ -s "$dir/broker.pem" && -s "$dir/ca.pem" ]] && return
  command -v openssl >/dev/null || die "kafka: openssl is needed to make the SASL_SSL listener's certificate"
  log "kafka: making a local CA and a certificate for 127.0.0.1 in $dir"
  mkdir -p "$dir"
  (
    cd "$dir"
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=FrameDeck local Kafka CA" \
      -keyout ca.key -out ca.pem 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout broker.key -out broker.csr 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >broker.ext
    openssl x509 -req -in broker.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 3650 \
      -extfile broker.ext -out broker.crt 2>/dev/null
    cat broker.key broker.crt >broker.pem
    chmod 600 ca.key broker.key broker.pem
    rm -f broker.csr broker.ext
  ) || die "kafka: could not make the TLS certificate in $dir"
}

# The SCRAM user of the SCRAM listeners. KRaft keeps SCRAM credentials in its
# metadata log; setting them through the running broker (rather than at storage format)
# also covers data dirs formatted before the listener existed. Runs when this script started
# the broker, and only when this cluster (its id) has not got this user and password yet: the
# stamp file saves two JVM starts on every restart (the fault tests restart Kafka often).
ensure_kafka_scram_user() {
  local mechanism stamp marker="$KAFKA_DIR/scram-user.stamp"
  stamp="$(grep -h '^cluster.id=' "$KAFKA_DIR/data/meta.properties") $KAFKA_SCRAM_USER $(
    printf '%s' "$KAFKA_SCRAM_PASSWORD" | sha256sum | cut -c1-16
  )"
  [[ -f "$marker" && "$(cat "$marker")" == "$stamp" ]] && return
  # One mechanism per request: the broker refuses two changes to one user in a request.
  for mechanism in SCRAM-SHA-256 SCRAM-SHA-512; do
    kafka_java kafka.admin.ConfigCommand --bootstrap-server "$HOST:$KAFKA_PORT" --alter \
      --entity-type users --entity-name "$KAFKA_SCRAM_USER" \
      --add-config "$mechanism=[password=$KAFKA_SCRAM_PASSWORD]" \
      >/dev/null || die "kafka: could not create the $mechanism user $KAFKA_SCRAM_USER"
  done
  printf '%s\n' "$stamp" >"$marker"
  log "kafka: SCRAM user $KAFKA_SCRAM_USER on SASL_PLAINTEXT $HOST:$KAFKA_SASL_PORT and SASL_SSL $HOST:$KAFKA_SASL_SSL_PORT"
}

# Main ---------------------------------------------------------------------------------

for c in "${components[@]}"; do
  "start_$c"
done
for c in "${started[@]}"; do
  "wait_$c"
  log "$c: up (started by these scripts, log $(component_log "$c"))"
done
if [[ " ${components[*]} " == *" postgres "* ]]; then
  ensure_postgres_database
fi
log "ready: ${components[*]} (status: bash infra/local/status.sh)"
