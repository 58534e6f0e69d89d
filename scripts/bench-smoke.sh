#!/usr/bin/env bash
# Runs every benchmark of fleetauth-bench once, tiny and in a debug build, so that none of them
# rots between the release runs that docs/performance.md reports (CI runs this; the numbers
# it prints mean nothing). Needs wrk, node and openssl, as the benchmarks themselves do.
#
#   scripts/bench-smoke.sh
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --product fleetauth >/dev/null
swift build --product fleetauth-bench >/dev/null
bench="$(swift build --show-bin-path)/fleetauth-bench"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

run() {
    echo "== fleetauth-bench $*"
    local started=$SECONDS
    if ! "$bench" "$@" >"$log" 2>&1; then
        tail -30 "$log"
        echo "bench-smoke: fleetauth-bench $1 FAILED" >&2
        exit 1
    fi
    echo "   ok in $((SECONDS - started)) s"
}

run tokens --rounds 1 --seconds 1
run codecs --rounds 1 --seconds 0.1
run provider --hits 1000 --callers 10 --shift-hours 1
run token-server --vehicles 32 --connections 4 --seconds 1 --rounds 1 --cores 1
run keyless --vehicles 16 --connections 4 --seconds 2 --interval 1 --sign-delay 5 --token-lifetime 60
run fleet-engine --vehicles 64 --connections 8 --seconds 1 --rounds 1
run fleet-store --vehicles 100 --batch-sizes 1 10 --seconds 1 --rounds 1
