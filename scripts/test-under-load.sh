#!/usr/bin/env bash
# Runs the whole test suite several times in a row (3 by default) while two other processes
# keep both cores busy, as a CI machine shared with other work is: a test whose outcome hangs
# on wall-clock margins fails here first. PostgreSQL is started as CI starts it unless
# FLEETAUTH_TEST_POSTGRES_URL is already set; the browser suites run when Chromium is installed.
#
#   scripts/test-under-load.sh        # three runs
#   scripts/test-under-load.sh 5      # five
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${1:-3}
swift build --build-tests >/dev/null

postgres_started=""
if [[ -z "${FLEETAUTH_TEST_POSTGRES_URL:-}" ]]; then
    eval "$(.ci/test-postgres.sh start)"
    postgres_started=$FLEETAUTH_TEST_POSTGRES_DIR
fi

# Two busy loops, one per core, for as long as the runs last.
hogs=()
for _ in 1 2; do
    (while :; do :; done) &
    hogs+=($!)
done
trap 'kill "${hogs[@]}" 2>/dev/null || true; [[ -z "$postgres_started" ]] || .ci/test-postgres.sh stop "$postgres_started"' EXIT

log=$(mktemp)
for run in $(seq 1 "$runs"); do
    started=$SECONDS
    if swift test --skip-build >"$log" 2>&1; then
        echo "run $run/$runs: passed in $((SECONDS - started)) s, $(grep -aE '^✔ Test run with' "$log" | tail -1)"
    else
        grep -aE '✘' "$log" | head -40
        echo "run $run/$runs: FAILED after $((SECONDS - started)) s (load average $(cut -d' ' -f1-3 /proc/loadavg))" >&2
        rm -f "$log"
        exit 1
    fi
done
rm -f "$log"
echo "$runs runs in a row passed with both cores kept busy"
