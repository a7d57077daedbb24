#!/usr/bin/env bash
# Checks the docker-compose ClickHouse files (infra/docker/clickhouse/{config.d,users.d})
# without Docker (the project's machines have none): merges them, the way the image does,
# into a minimal base config.xml/users.xml of the image's shape (a `default` user and
# profile, data in one folder) and runs that on the modern engine of the native scripts
# (ClickHouse 26.x, installed by infra/local/install.sh clickhouse-modern) under its
# supervisor, then logs in as framedeck_admin and framedeck_sandbox with the passwords
# from the environment, as docker-compose passes them.
#
#   bash infra/docker/check-clickhouse-config.sh
#
# The modern engine needs a passwordless `default` user for its own keep-alive query, which
# users.d/framedeck.xml removes: the modern engine's users.d overlay is merged last to add
# it back. Ports: FRAMEDECK_DOCKER_CHECK_HTTP_PORT (28124) / _TCP_PORT (29001).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../local/lib.sh"

http_port="${FRAMEDECK_DOCKER_CHECK_HTTP_PORT:-28124}"
tcp_port="${FRAMEDECK_DOCKER_CHECK_TCP_PORT:-29001}"
port_open "$HOST" "$http_port" && die "port $http_port is taken (set FRAMEDECK_DOCKER_CHECK_HTTP_PORT)"
bash "$INFRA_LOCAL_DIR/install.sh" clickhouse-modern

dir="$(mktemp -d /tmp/framedeck-docker-check.XXXXXX)"
supervisor=""
cleanup() {
  if [[ -n "$supervisor" ]] && kill -0 "$supervisor" 2>/dev/null; then
    kill -TERM "$supervisor"
    wait "$supervisor" 2>/dev/null || true
  fi
  rm -rf "$dir"
}
trap cleanup EXIT
mkdir -p "$dir/etc/config.d" "$dir/etc/users.d" "$dir/data"

cat >"$dir/etc/config.xml" <<XML
<clickhouse>
    <logger><level>information</level><log>$dir/clickhouse.log</log><errorlog>$dir/clickhouse.err.log</errorlog></logger>
    <listen_host>127.0.0.1</listen_host>
    <http_port>$http_port</http_port>
    <tcp_port>$tcp_port</tcp_port>
    <path>$dir/data/</path>
    <tmp_path>$dir/data/tmp/</tmp_path>
    <user_files_path>$dir/data/user_files/</user_files_path>
    <users_config>users.xml</users_config>
    <default_profile>default</default_profile>
    <default_database>default</default_database>
</clickhouse>
XML
cat >"$dir/etc/users.xml" <<XML
<clickhouse>
    <profiles><default /><readonly><readonly>1</readonly></readonly></profiles>
    <users>
        <default>
            <password></password>
            <networks><ip>::/0</ip></networks>
            <profile>default</profile>
            <quota>default</quota>
        </default>
    </users>
    <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors>
        <result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time></interval></default></quotas>
</clickhouse>
XML
cp "$INFRA_DIR/docker/clickhouse/config.d/framedeck.xml" "$dir/etc/config.d/"
cp "$INFRA_DIR/docker/clickhouse/users.d/framedeck.xml" "$dir/etc/users.d/"
cp "$INFRA_DIR/clickhouse-modern/users.d/framedeck-modern.xml" "$dir/etc/users.d/zz-keepalive.xml"

export FRAMEDECK_CLICKHOUSE_PASSWORD="$CLICKHOUSE_ADMIN_PASSWORD"
export FRAMEDECK_CLICKHOUSE_SANDBOX_PASSWORD="$CLICKHOUSE_SANDBOX_PASSWORD"
node "$INFRA_LOCAL_DIR/clickhouse-modern.supervisor.mjs" \
  --launcher "$CLICKHOUSE_MODERN_LAUNCHER" --library "$CLICKHOUSE_MODERN_LIB" \
  --config "$dir/etc/config.xml" --data "$dir/data" --http-port "$http_port" \
  --pid-file "$dir/supervisor.pid" --engine-pid-file "$dir/engine.pid" >"$dir/supervisor.log" 2>&1 &
supervisor=$!

fail() {
  log "docker ClickHouse config check FAILED: $*"
  tail -n 20 "$dir/supervisor.log" >&2
  grep -h '<Error>' "$dir"/clickhouse.err.log 2>/dev/null | tail -n 5 | cut -c1-400 >&2 || true
  exit 1
}
for _ in $(seq 1 100); do
  clickhouse_ping "$http_port" && break
  kill -0 "$supervisor" 2>/dev/null || fail "the engine refused the config"
  sleep 0.2
done
clickhouse_ping "$http_port" || fail "no /ping within 20 s"

as() { curl -fsS --max-time 5 -u "$1" "http://$HOST:$http_port/" --data-binary "$2" 2>&1; }
admin="$CLICKHOUSE_ADMIN_USER:$CLICKHOUSE_ADMIN_PASSWORD"
sandbox="$CLICKHOUSE_SANDBOX_USER:$CLICKHOUSE_SANDBOX_PASSWORD"
version="$(as "$admin" 'SELECT version()')" || fail "framedeck_admin cannot log in: $version"
out="$(as "$admin" "SELECT count() FROM system.users WHERE name IN ('framedeck_admin', 'framedeck_sandbox')")"
[[ "$out" == 2 ]] || fail "users: $out"
out="$(as "$sandbox" "SELECT name, value FROM system.settings WHERE name IN ('readonly', 'max_result_rows', 'max_execution_time') ORDER BY name FORMAT CSV")"
[[ "$out" == $'"max_execution_time","10"\n"max_result_rows","1000000"\n"readonly","1"' ]] || fail "sandbox settings: $out"
out="$(as "$sandbox" 'CREATE TABLE t (a UInt8) ENGINE = Memory')" && fail "sandbox could create a table"
out="$(as "$admin" "SELECT value FROM system.server_settings WHERE name = 'keep_alive_timeout'")"
[[ "$out" == 10 ]] || fail "keep_alive_timeout: $out"
log "docker ClickHouse config check passed on $version: config.d and users.d accepted, both users log in, sandbox limits in force"
