# shellcheck shell=bash
# Shared helpers for infra/local/*.sh. Sourced, never executed.
#
# Everything the local stack writes (Kafka/ClickHouse data, rendered configs, logs, pid
# files) lives under one state directory, so "reset" is: down.sh, then rm -rf it.

# Paths --------------------------------------------------------------------------------
INFRA_LOCAL_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
INFRA_DIR="$(dirname "$INFRA_LOCAL_DIR")"
REPO_ROOT="$(dirname "$INFRA_DIR")"
STATE_DIR="${FRAMEDECK_STATE_DIR:-$REPO_ROOT/.state}"
LOG_DIR="$STATE_DIR/logs"
PID_DIR="$STATE_DIR/run"   # a pid file here means "the scripts started it, down.sh may stop it"

# Addresses. Everything listens on loopback only; ports overridable for machines where the
# defaults are taken. For Postgres the port selects which Debian cluster up.sh starts (or
# creates) when nothing answers there.
HOST=127.0.0.1
KAFKA_PORT="${FRAMEDECK_KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${FRAMEDECK_KAFKA_CONTROLLER_PORT:-9093}"
# The SCRAM listeners (SASL_PLAINTEXT, SASL_SSL) and the user up.sh creates for them (dev defaults;
# override in any shared environment).
KAFKA_SASL_PORT="${FRAMEDECK_KAFKA_SASL_PORT:-9094}"
KAFKA_SASL_SSL_PORT="${FRAMEDECK_KAFKA_SASL_SSL_PORT:-9095}"
KAFKA_SCRAM_USER="${FRAMEDECK_KAFKA_SCRAM_USER:-framedeck}"
KAFKA_SCRAM_PASSWORD="${FRAMEDECK_KAFKA_SCRAM_PASSWORD:-framedeck-kafka-dev}"
# ClickHouse: two engines side by side, each on its own ports (see "ClickHouse engines" below).
CLICKHOUSE_HTTP_PORT="${FRAMEDECK_CLICKHOUSE_HTTP_PORT:-8123}"          # legacy (18.16)
CLICKHOUSE_TCP_PORT="${FRAMEDECK_CLICKHOUSE_TCP_PORT:-9000}"
CLICKHOUSE_MODERN_HTTP_PORT="${FRAMEDECK_CLICKHOUSE_MODERN_HTTP_PORT:-8124}" # modern (26.x)
CLICKHOUSE_MODERN_TCP_PORT="${FRAMEDECK_CLICKHOUSE_MODERN_TCP_PORT:-9001}"
POSTGRES_PORT="${FRAMEDECK_POSTGRES_PORT:-5432}"
REDIS_PORT="${FRAMEDECK_REDIS_PORT:-6379}"

# ClickHouse credentials (dev defaults; override in any shared environment).
CLICKHOUSE_ADMIN_USER=framedeck_admin
CLICKHOUSE_ADMIN_PASSWORD="${FRAMEDECK_CLICKHOUSE_PASSWORD:-framedeck-admin-dev}"
CLICKHOUSE_SANDBOX_USER=framedeck_sandbox
CLICKHOUSE_SANDBOX_PASSWORD="${FRAMEDECK_CLICKHOUSE_SANDBOX_PASSWORD:-framedeck-sandbox-dev}"

KAFKA_LIBS="$STATE_DIR/kafka/libs"

# ClickHouse engines --------------------------------------------------------------------
# FRAMEDECK_CLICKHOUSE_ENGINE selects the engine that `clickhouse` means on the command line
# of these scripts, that up.sh starts by default and that npm start / npm test use:
#   legacy  Debian's clickhouse-server 18.16 (component clickhouse-legacy; the default)
#   modern  ClickHouse 26.x from libchdb.so (component clickhouse-modern), see
#           infra/clickhouse-modern/ and clickhouse-modern.supervisor.mjs
CLICKHOUSE_ENGINE="${FRAMEDECK_CLICKHOUSE_ENGINE:-legacy}"
case "$CLICKHOUSE_ENGINE" in
  legacy | modern) ;;
  *) printf '[framedeck] ERROR: FRAMEDECK_CLICKHOUSE_ENGINE=%s: use modern or legacy (default legacy)\n' \
       "$CLICKHOUSE_ENGINE" >&2
     exit 1 ;;
esac
# The engine the tests run on second (test.sh).
if [[ "$CLICKHOUSE_ENGINE" == legacy ]]; then CLICKHOUSE_OTHER_ENGINE=modern; else CLICKHOUSE_OTHER_ENGINE=legacy; fi

# The modern engine's npm package: the ONE place its version is pinned. install.sh installs
# it into $CLICKHOUSE_MODERN_DIR/engine (never into the repo's package.json).
CLICKHOUSE_MODERN_PACKAGE=@chdb/lib-linux-x64-gnu@26.7.3-stable.1
CLICKHOUSE_MODERN_DIR="$STATE_DIR/clickhouse-modern"
CLICKHOUSE_MODERN_LIB="$CLICKHOUSE_MODERN_DIR/engine/node_modules/@chdb/lib-linux-x64-gnu/libchdb.so"
CLICKHOUSE_MODERN_LAUNCHER="$CLICKHOUSE_MODERN_DIR/bin/launcher"

# Every component these scripts know; DEFAULT_COMPONENTS is what up.sh starts with no
# arguments (one ClickHouse: the selected engine).
ALL_COMPONENTS=(postgres redis clickhouse-legacy clickhouse-modern kafka)
DEFAULT_COMPONENTS=(postgres redis "clickhouse-$CLICKHOUSE_ENGINE" kafka)

# Logging ------------------------------------------------------------------------------
log() { printf '[framedeck] %s\n' "$*" >&2; }
die() { printf '[framedeck] ERROR: %s\n' "$*" >&2; exit 1; }

# Ports and processes ------------------------------------------------------------------

# port_open HOST PORT: true when something accepts TCP connections there. Uses bash's
# /dev/tcp so it needs no nc/ss; `timeout` keeps a filtered port from hanging us.
port_open() {
  timeout 1 bash -c "exec 3<>/dev/tcp/$1/$2" 2>/dev/null
}

# The name of a component's pid and log files. The legacy engine keeps the names it had
# before there were two engines (run/clickhouse.pid, logs/clickhouse*.log): tests and
# scripts of other state dirs look for them.
file_name() {
  case "$1" in
    clickhouse-legacy) echo clickhouse ;;
    *) echo "$1" ;;
  esac
}

pid_file() { printf '%s/%s.pid' "$PID_DIR" "$(file_name "$1")"; }

# What each component's process command line contains: a pid file left over from before
# a reboot may point at an unrelated process, which we must never signal.
pid_pattern() {
  case "$1" in
    postgres) echo 'postgres' ;;
    redis) echo 'redis-server' ;;
    clickhouse-legacy) echo 'clickhouse-server' ;;
    clickhouse-modern) echo 'clickhouse-modern.supervisor.mjs' ;;
    kafka) echo 'kafka.Kafka' ;;
  esac
}

# pid_of NAME: the pid from NAME's pid file, if that process is alive and is NAME.
pid_of() {
  local f pid
  f="$(pid_file "$1")"
  [[ -s "$f" ]] || return 1
  pid="$(head -n1 "$f")"
  [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null || return 1
  # Not `| grep -q`: under pipefail, grep leaving at its first match fails tr with SIGPIPE on a
  # long command line (a JVM's), and a live server would count as dead.
  local cmdline
  cmdline="$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" || return 1
  [[ "$cmdline" == *"$(pid_pattern "$1")"* ]] || return 1
  echo "$pid"
}

pid_alive() { pid_of "$1" >/dev/null; }

# wait_for NAME SECONDS LOGFILE CMD...: run CMD every 0.5 s until it succeeds. On timeout,
# or as soon as the process we started for NAME has died, say which component failed,
# where its log is, and show the log's tail: "timed out" alone sends people digging.
wait_for() {
  local name="$1" seconds="$2" logfile="$3"
  shift 3
  local deadline=$((SECONDS + seconds)) why=""
  until "$@" >/dev/null 2>&1; do
    if [[ -f "$(pid_file "$name")" ]] && ! pid_alive "$name"; then
      why="its process exited"
    elif ((SECONDS >= deadline)); then
      why="it did not become healthy within ${seconds}s"
    fi
    if [[ -n "$why" ]]; then
      log "$name failed to start: $why. Log: $logfile"
      if [[ -f "$logfile" ]]; then
        log "last 30 lines of $logfile:"
        tail -n 30 "$logfile" >&2
      fi
      # Errors from before the server configured its own logging land in its stdout file.
      local stdout_log="$LOG_DIR/$(file_name "$name").stdout.log"
      if [[ -s "$stdout_log" ]]; then
        log "last 10 lines of $stdout_log:"
        tail -n 10 "$stdout_log" >&2
      fi
      rm -f "$(pid_file "$name")"
      die "$name failed to start (log: $logfile)"
    fi
    sleep 0.5
  done
}

# apt ------------------------------------------------------------------------------------
APT_UPDATED=0

apt_update_once() {
  if ((APT_UPDATED == 0)); then
    log "apt-get update"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    APT_UPDATED=1
  fi
}

# apt_install PKG...: install Debian packages without starting their services.
# The packages' maintainer scripts would otherwise start the system-wide daemon
# (e.g. clickhouse-server on 8123/9000 with Debian's config and an open `default` user);
# we run our own process with our own config instead. policy-rc.d exit 101 is Debian's
# documented way to say "do not start services" to invoke-rc.d; we only add one when the
# machine has none and remove it afterwards.
apt_install() {
  [[ $EUID -eq 0 ]] || die "installing $* needs root (apt-get); run as root or install them yourself"
  local pkg need_update=0
  # An empty or stale package list has no candidate: update first (once per run).
  # (Output captured first: `apt-cache | grep -q` under pipefail fails on SIGPIPE.)
  local policy_out
  for pkg in "$@"; do
    policy_out="$(apt-cache policy "$pkg" 2>/dev/null || true)"
    [[ "$policy_out" == *"Candidate: "[0-9]* ]] || need_update=1
  done
  ((need_update)) && apt_update_once

  local policy=/usr/sbin/policy-rc.d added_policy=0
  if [[ ! -e "$policy" ]]; then
    printf '#!/bin/sh\n# temporary, added by FrameDeck infra/local/lib.sh\nexit 101\n' >"$policy"
    chmod 755 "$policy"
    added_policy=1
  fi
  log "apt-get install $*"
  local rc=0
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >&2 || rc=$?
  if ((rc != 0 && APT_UPDATED == 0)); then
    # Stale lists give 404s on download: refresh once and retry.
    apt_update_once
    rc=0
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >&2 || rc=$?
  fi
  ((added_policy)) && rm -f "$policy"
  ((rc == 0)) || die "apt-get install $* failed"
}

# lock_state: serialize up.sh/down.sh runs on one state dir (e.g. parallel test runners
# calling up.sh at once would otherwise both start a Kafka). Held until the script exits.
lock_state() {
  mkdir -p "$STATE_DIR"
  exec 9>"$STATE_DIR/.lock"
  if ! flock -w 120 9; then
    die "another up.sh/down.sh holds $STATE_DIR/.lock for over 120 s"
  fi
}

# Component helpers ------------------------------------------------------------------------

# Background a long-running server with its own session (so Ctrl-C in the calling terminal
# does not reach it) and record its pid. Output goes to OUTFILE.
start_bg() {
  local name="$1" outfile="$2"
  shift 2
  mkdir -p "$PID_DIR" "$LOG_DIR"
  # 9>&-: the server must not inherit the state lock (it would hold it for its lifetime).
  setsid "$@" </dev/null >>"$outfile" 2>&1 9>&- &
  echo $! >"$(pid_file "$name")"
}

# clickhouse_http_port ENGINE: the HTTP port of clickhouse-legacy / clickhouse-modern.
clickhouse_http_port() {
  case "$1" in
    clickhouse-legacy | legacy) echo "$CLICKHOUSE_HTTP_PORT" ;;
    clickhouse-modern | modern) echo "$CLICKHOUSE_MODERN_HTTP_PORT" ;;
    *) die "clickhouse_http_port: unknown engine '$1'" ;;
  esac
}

# Both ClickHouse engines (and the cluster topology's nodes, cluster.sh) run as our own
# processes with configs rendered from infra/clickhouse/*.xml into DIR/etc.
# render_clickhouse_config DIR HTTP_PORT TCP_PORT LOG_NAME
render_clickhouse_config() {
  local dir="$1" http_port="$2" tcp_port="$3" log_name="$4"
  mkdir -p "$dir/etc" "$dir/data/tmp" "$dir/data/user_files" "$dir/data/format_schemas"
  sed -e "s|@DATA_DIR@|$dir/data|g" -e "s|@LOG_DIR@|$LOG_DIR|g" -e "s|@LOG_NAME@|$log_name|g" \
      -e "s|@HTTP_PORT@|$http_port|g" -e "s|@TCP_PORT@|$tcp_port|g" \
      "$INFRA_DIR/clickhouse/config.xml" >"$dir/etc/config.xml"
  # Passwords are stored as SHA-256, never in clear, and the file is private.
  local admin_sha sandbox_sha
  admin_sha="$(printf '%s' "$CLICKHOUSE_ADMIN_PASSWORD" | sha256sum | cut -d' ' -f1)"
  sandbox_sha="$(printf '%s' "$CLICKHOUSE_SANDBOX_PASSWORD" | sha256sum | cut -d' ' -f1)"
  (
    umask 077
    sed -e "s|@ADMIN_PASSWORD_SHA256@|$admin_sha|g" -e "s|@SANDBOX_PASSWORD_SHA256@|$sandbox_sha|g" \
      -e "s|@CPU_COUNT@|$(nproc)|g" "$INFRA_DIR/clickhouse/users.xml" >"$dir/etc/users.xml.tmp"
  )
  # Replace atomically: a running 18.16 reloads users.xml when it changes.
  mv -f "$dir/etc/users.xml.tmp" "$dir/etc/users.xml"
}

# clickhouse_ping PORT
clickhouse_ping() {
  [[ "$(curl -fsS --max-time 2 "http://$HOST:$1/ping" 2>/dev/null)" == "Ok." ]]
}

# clickhouse_admin_query PORT SQL: runs SQL as framedeck_admin, prints the answer.
clickhouse_admin_query() {
  curl -fsS --max-time 5 -u "$CLICKHOUSE_ADMIN_USER:$CLICKHOUSE_ADMIN_PASSWORD" \
    "http://$HOST:$1/" --data-binary "$2" 2>/dev/null
}

# clickhouse_admin_ok PORT: our admin user logs in there.
clickhouse_admin_ok() {
  [[ "$(clickhouse_admin_query "$1" 'SELECT 1')" == "1" ]]
}

# export_clickhouse_engine: for npm start / npm test. Exports the selected engine, and the
# URL of its HTTP port unless the caller chose one (FRAMEDECK_CLICKHOUSE_URL).
export_clickhouse_engine() {
  export FRAMEDECK_CLICKHOUSE_ENGINE="$CLICKHOUSE_ENGINE"
  export FRAMEDECK_CLICKHOUSE_URL="${FRAMEDECK_CLICKHOUSE_URL:-http://$HOST:$(clickhouse_http_port "$CLICKHOUSE_ENGINE")}"
}

kafka_java() {
  java -cp "$KAFKA_LIBS/*" -Dlog4j.configuration="file:$INFRA_DIR/kafka/tools-log4j.properties" "$@"
}

component_log() {
  case "$1" in
    postgres) if [[ -f "$PID_DIR/postgres.cluster" ]]; then
                printf '/var/log/postgresql/postgresql-%s.log' "$(tr ' ' '-' <"$PID_DIR/postgres.cluster")"
              else printf -- '-'; fi ;;
    redis) printf '%s/redis.log' "$LOG_DIR" ;;
    clickhouse-legacy) printf '%s/clickhouse.log' "$LOG_DIR" ;;
    clickhouse-modern) printf '%s/clickhouse-modern.log' "$LOG_DIR" ;;
    kafka) printf '%s/kafka.log' "$LOG_DIR" ;;
  esac
}

component_port() {
  case "$1" in
    postgres) echo "$POSTGRES_PORT" ;;
    redis) echo "$REDIS_PORT" ;;
    clickhouse-*) clickhouse_http_port "$1" ;;
    kafka) echo "$KAFKA_PORT" ;;
  esac
}

# resolve_components NAME...: prints the names one per line, `clickhouse` replaced by the
# selected engine's component, each name once. Dies on an unknown name, listing the valid ones.
resolve_components() {
  local c k ok seen=" "
  for c in "$@"; do
    [[ "$c" == clickhouse ]] && c="clickhouse-$CLICKHOUSE_ENGINE"
    ok=0
    for k in "${ALL_COMPONENTS[@]}"; do [[ "$c" == "$k" ]] && ok=1; done
    ((ok)) || die "unknown component '$c' (known: ${ALL_COMPONENTS[*]}; clickhouse = clickhouse-$CLICKHOUSE_ENGINE, from FRAMEDECK_CLICKHOUSE_ENGINE)"
    [[ "$seen" == *" $c "* ]] && continue
    seen+="$c "
    echo "$c"
  done
}

# Runs started by `npm start` / `npm test` stop, when they end, only the components they
# started themselves: whatever an earlier run left running stays up.

# running_components: the components that have a live pid file (started by these scripts).
running_components() {
  local c
  for c in "${ALL_COMPONENTS[@]}"; do pid_alive "$c" && printf '%s ' "$c"; done
  return 0
}

# stop_components_started_since "BEFORE" WHO [cluster]: stops the components running now that
# were not in BEFORE (an earlier output of running_components, or with `cluster` of
# `cluster.sh running`: the cluster topology's components).
stop_components_started_since() {
  local before=" $1 " c started=() running=(running_components) down=(bash "$INFRA_LOCAL_DIR/down.sh")
  if [[ "${3:-}" == cluster ]]; then
    running=(bash "$INFRA_LOCAL_DIR/cluster.sh" running)
    down=(bash "$INFRA_LOCAL_DIR/cluster.sh" down)
  fi
  for c in $("${running[@]}"); do [[ "$before" == *" $c "* ]] || started+=("$c"); done
  ((${#started[@]})) || return 0
  log "stopping components started by $2: ${started[*]}"
  "${down[@]}" "${started[@]}" || true
}
