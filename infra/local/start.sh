#!/usr/bin/env bash
# `npm start`: on a fresh machine, install and start everything, seed a demo project, print
# the URLs and demo keys. Ctrl-C stops the services and the components this run started.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_ROOT"

# Components that already had a pid file were started by an earlier run; Ctrl-C leaves
# them alone and stops only what this run started.
mkdir -p "$PID_DIR"
before=()
for c in "${ALL_COMPONENTS[@]}"; do pid_alive "$c" && before+=("$c"); done

bash "$INFRA_LOCAL_DIR/prepare.sh"

started=()
for c in "${ALL_COMPONENTS[@]}"; do
  if pid_alive "$c" && [[ " ${before[*]-} " != *" $c "* ]]; then started+=("$c"); fi
done

stop_started() {
  if ((${#started[@]})); then
    log "stopping components started by this run: ${started[*]}"
    bash "$INFRA_LOCAL_DIR/down.sh" "${started[@]}" || true
  fi
}
trap stop_started EXIT

# The runner stays in the foreground: it starts the services, seeds the demo, prints the
# URLs and keys, and stops the services on Ctrl-C.
node "$INFRA_LOCAL_DIR/run-services.mjs" --seed-demo
