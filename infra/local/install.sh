#!/usr/bin/env bash
# Install what the local stack needs and is missing; do nothing else.
#
# Idempotent and fast on a second run: every step first checks for the file or binary it
# would produce, so apt and mvn are only called on a machine that lacks something.
#
#   ClickHouse  legacy: Debian packages clickhouse-server + clickhouse-client (18.16.1)
#               modern: npm package $CLICKHOUSE_MODERN_PACKAGE (lib.sh) into
#               $STATE_DIR/clickhouse-modern/engine (libchdb.so, the 26.x engine), and the
#               launcher built from infra/clickhouse-modern/launcher.c with gcc
#   Kafka       jars from Maven Central via infra/kafka/pom.xml into $STATE_DIR/kafka/libs
#   Postgres    Debian `postgresql`, only if nothing answers on 5432 and it is not installed
#   Redis       Debian `redis-server`, only if nothing answers on 6379 and it is not installed
#
# Optional components, installed only when named (never by default):
#   chromium    Debian `chromium`, the browser the dashboard's end-to-end tests drive
#               (test.sh asks for it; Playwright never downloads a browser of its own)
#
# Usage: install.sh [component...]   (default: the components up.sh starts by default, i.e.
#        one ClickHouse engine, the one FRAMEDECK_CLICKHOUSE_ENGINE selects)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

OPTIONAL_COMPONENTS=(chromium)
CHROMIUM_BIN=/usr/bin/chromium

components=("$@")
((${#components[@]})) || components=("${DEFAULT_COMPONENTS[@]}")
stack_components=()
optional=()
for c in "${components[@]}"; do
  if [[ " ${OPTIONAL_COMPONENTS[*]} " == *" $c "* ]]; then optional+=("$c"); else stack_components+=("$c"); fi
done
if ((${#stack_components[@]})); then
  resolved="$(resolve_components "${stack_components[@]}")" || exit 1
  mapfile -t stack_components <<<"$resolved"
fi
components=("${stack_components[@]}" "${optional[@]}")

install_clickhouse-legacy() {
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

# The modern engine: no apt, no download but the npm registry's tarball (~180 MB, ~570 MB
# unpacked). The marker holds the package spec and the launcher's holds launcher.c's
# checksum: changing either (a version bump, an edit) reinstalls / rebuilds only that part.
install_clickhouse-modern() {
  local engine_dir="$CLICKHOUSE_MODERN_DIR/engine" marker="$CLICKHOUSE_MODERN_DIR/engine/.installed"
  if [[ ! -f "$marker" || "$(cat "$marker")" != "$CLICKHOUSE_MODERN_PACKAGE" || ! -f "$CLICKHOUSE_MODERN_LIB" ]]; then
    command -v npm >/dev/null || die "installing the modern ClickHouse engine needs npm (Node 20)"
    log "installing the modern ClickHouse engine: npm $CLICKHOUSE_MODERN_PACKAGE into $engine_dir"
    rm -rf "$engine_dir"
    mkdir -p "$engine_dir" "$LOG_DIR"
    # An empty package.json makes $engine_dir its own npm project: without it npm would
    # walk up to the repo's package.json (workspaces) and install there.
    echo '{"private": true}' >"$engine_dir/package.json"
    if ! npm install --no-save --no-package-lock --no-audit --no-fund --prefix "$engine_dir" \
        "$CLICKHOUSE_MODERN_PACKAGE" >"$LOG_DIR/npm-clickhouse-modern.log" 2>&1; then
      tail -n 30 "$LOG_DIR/npm-clickhouse-modern.log" >&2
      die "npm could not install $CLICKHOUSE_MODERN_PACKAGE (full output: $LOG_DIR/npm-clickhouse-modern.log)"
    fi
    [[ -f "$CLICKHOUSE_MODERN_LIB" ]] || die "$CLICKHOUSE_MODERN_PACKAGE has no libchdb.so (not linux-x64 with glibc?)"
    echo "$CLICKHOUSE_MODERN_PACKAGE" >"$marker"
  fi

  local src="$INFRA_DIR/clickhouse-modern/launcher.c" sum
  sum="$(sha256sum "$src" | cut -d' ' -f1)"
  if [[ -x "$CLICKHOUSE_MODERN_LAUNCHER" && "$(cat "$CLICKHOUSE_MODERN_LAUNCHER.sha256" 2>/dev/null)" == "$sum" ]]; then
    return
  fi
  command -v gcc >/dev/null || apt_install gcc libc6-dev
  log "building the modern ClickHouse engine's launcher from $src"
  mkdir -p "$(dirname "$CLICKHOUSE_MODERN_LAUNCHER")"
  gcc -O2 -Wall -Wextra -Werror -o "$CLICKHOUSE_MODERN_LAUNCHER.tmp" "$src" -ldl
  mv -f "$CLICKHOUSE_MODERN_LAUNCHER.tmp" "$CLICKHOUSE_MODERN_LAUNCHER"
  echo "$sum" >"$CLICKHOUSE_MODERN_LAUNCHER.sha256"
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
