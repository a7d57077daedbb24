#!/usr/bin/env bash
# Install what the local stack needs and is missing; do nothing else.
#
# Idempotent and fast on a second run: every step first checks for the file or binary it
# would produce, so apt and mvn are only called on a machine that lacks something.
#
#   ClickHouse  Debian packages clickhouse-server + clickhouse-client (18.16.1)
#   Kafka       jars from Maven Central via infra/kafka/pom.xml into $STATE_DIR/kafka/libs
#   Postgres    Debian `postgresql`, only if nothing answers on 5432 and it is not installed
#   Redis       Debian `redis-server`, only if nothing answers on 6379 and it is not installed
#
# Optional components, installed only when named (never by default):
#   chromium    Debian `chromium`, the browser the dashboard's end-to-end tests drive
#               (test.sh asks for it; Playwright never downloads a browser of its own)
#
# Usage: install.sh [component...]   (default: all stack components)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

OPTIONAL_COMPONENTS=(chromium)
CHROMIUM_BIN=/usr/bin/chromium

components=("$@")
((${#components[@]})) || components=("${ALL_COMPONENTS[@]}")
stack_components=()
for c in "${components[@]}"; do
  [[ " ${OPTIONAL_COMPONENTS[*]} " == *" $c "* ]] || stack_components+=("$c")
done
((${#stack_components[@]} == 0)) || check_components "${stack_components[@]}"

install_clickhouse() {
  if command -v clickhouse-server >/dev/null && command -v clickhouse-client >/dev/null; then
    return
  fi
  apt_install clickhouse-server clickhouse-client
  # We run ClickHouse as our own process with our own config. Make sure the package's
  # system service is neither running nor enabled, or it would hold 8123/9000 with
  # Debian's config (open `default` user, data in /var/lib/clickhouse).
  if [[ -d /run/systemd/system ]] && command -v systemctl >/dev/null; then
    systemctl disable --now clickhouse-server >/dev/null 2>&1 || true
  else
    # No systemd running (containers, CI): the postinst still enabled the unit and the
    # sysv script for a later boot; undo both.
    deb-systemd-helper disable clickhouse-server.service >/dev/null 2>&1 || true
    update-rc.d clickhouse-server disable >/dev/null 2>&1 || true
    if [[ -x /etc/init.d/clickhouse-server ]] && pgrep -u clickhouse -x clickhouse-server >/dev/null 2>&1; then
      /etc/init.d/clickhouse-server stop >/dev/null 2>&1 || true
    fi
  fi
}

install_kafka() {
  command -v java >/dev/null || apt_install openjdk-17-jre-headless
  # The marker holds the pom's checksum: editing the pom (e.g. a 3.9.x bump) re-fetches.
  local pom="$INFRA_DIR/kafka/pom.xml" marker="$KAFKA_LIBS/.pom.sha256" sum
  sum="$(sha256sum "$pom" | cut -d' ' -f1)"
  if [[ -f "$marker" && "$(cat "$marker")" == "$sum" ]]; then
    return
  fi
  command -v mvn >/dev/null || apt_install maven
  log "fetching Kafka jars from Maven Central into $KAFKA_LIBS"
  rm -rf "$KAFKA_LIBS"
  mkdir -p "$KAFKA_LIBS"
  # Maven's output goes to a file and is shown only on failure (it is noise otherwise).
  mkdir -p "$LOG_DIR"
  if ! mvn -q -B -f "$pom" dependency:copy-dependencies -DoutputDirectory="$KAFKA_LIBS" \
      >"$LOG_DIR/mvn-kafka.log" 2>&1; then
    tail -n 40 "$LOG_DIR/mvn-kafka.log" >&2
    die "mvn could not fetch the Kafka jars (full output: $LOG_DIR/mvn-kafka.log)"
  fi
  echo "$sum" >"$marker"
}

install_postgres() {
  # Someone's server already answers (the project's machines run one): use it as is.
  port_open "$HOST" "$POSTGRES_PORT" && return
  compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null && return
  apt_install postgresql
}

install_redis() {
  port_open "$HOST" "$REDIS_PORT" && return
  command -v redis-server >/dev/null && command -v redis-cli >/dev/null && return
  apt_install redis-server
}

install_chromium() {
  [[ -x "$CHROMIUM_BIN" ]] && return
  apt_install chromium
}

for c in "${components[@]}"; do
  "install_$c"
done
