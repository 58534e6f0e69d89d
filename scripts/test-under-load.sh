#!/usr/bin/env bash
# Runs the whole test suite several times in a row (3 by default) while two other processes
# keep both cores busy, as a CI machine shared with other work is: a test whose outcome hangs
# on wall-clock margins fails here first. Each run is `swift test`, then the fault tests, which
# `swift test` leaves out and CI runs alone (scripts/test-faults.sh), under the same load.
# PostgreSQL is started as CI starts it unless FLEETAUTH_TEST_POSTGRES_URL is already set; the
# browser suites run when Chromium is installed, the bad-network test as root.
#
#   scripts/test-under-load.sh        # three runs
#   scripts/test-under-load.sh 5      # five
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${1:-3}
swift build --build-tests >/dev/null

log=$(mktemp)
cleanup='rm -f "$log"'
source scripts/lib/under-load.sh

# Runs "$@" with its output in $log; on failure prints what failed and stops the script.
# $run_name says which run and which part it was.
run_part() {
    local started=$SECONDS
    if "$@" >"$log" 2>&1; then
        local passed skipped
        passed=$(grep -aE '^✔ Test ' "$log" | grep -acv '^✔ Test run' || true)
        skipped=$(grep -acE '^➜ Test .* skipped' "$log" || true)
        echo "$run_name: passed in $((SECONDS - started)) s, $passed tests passed, $skipped skipped"
    else
        grep -aE '✘' "$log" | head -40
        echo "$run_name: FAILED after $((SECONDS - started)) s (load average $(cut -d' ' -f1-3 /proc/loadavg))" >&2
        exit 1
    fi
}
for run in $(seq 1 "$runs"); do
    run_name="run $run/$runs, swift test" run_part swift test --skip-build
    run_name="run $run/$runs, fault tests" run_part scripts/test-faults.sh
done
echo "$runs runs in a row passed with both cores kept busy"
