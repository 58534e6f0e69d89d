#!/usr/bin/env bash
# Runs every benchmark (docs/performance.md):
# - the libraries' (Benchmarks/, on ordo-one/benchmark), then checks the promises kept in
#   Benchmarks/Thresholds/;
# - the servers' and the hand-written codecs' (fleetauth-bench), each against its reference.
#
#   scripts/bench.sh            # full length, release builds (takes a while; quiet machine)
#   scripts/bench.sh --quick    # CI: each a few iterations, the numbers meaningless; checks
#                               # that all still build and run and that the promises which do
#                               # not depend on the machine's speed still hold
#
# Needs wrk, node, openssl and h2load, as the server benchmarks do, Debian's chromium and
# chromium-driver for the browser module's, gRPC's C++ library for the
# gRPC load generator and the gRPC floors' competitor (Benchmarks/grpc-cpp/build.sh installs it
# when missing), and a C compiler with OpenSSL's headers for the token server's C competitor
# (Benchmarks/c-token-server/build.sh installs them when missing).
set -euo pipefail
cd "$(dirname "$0")/.."

quick=false
[[ "${1:-}" == "--quick" ]] && quick=true

log=$(mktemp)
trap 'rm -f "$log"' EXIT

# The library benchmarks, run once into a baseline of their own (.benchmarkBaselines/, ignored
# by git), printed on a full run, then held to their promises. `thresholds check` fails on a
# promise broken, and also exits non-zero when every result beats its threshold, which is a
# promise kept.
run_library_benchmarks() {
    local skip=()
    # The ratios to OpenSSL are timings; a few iterations on a busy machine prove nothing.
    $quick && skip=(--skip ".*-against-.*")
    echo "== Benchmarks/: swift package benchmark, then thresholds check"
    (cd Benchmarks && swift package --allow-writing-to-package-directory benchmark baseline update bench --no-progress "${skip[@]}") \
        >"$log" 2>&1 || { tail -60 "$log"; echo "bench: the library benchmarks did not run" >&2; exit 1; }
    $quick || (cd Benchmarks && swift package benchmark baseline read bench --no-progress)
    if (cd Benchmarks && swift package benchmark thresholds check bench --no-progress "${skip[@]}") >"$log" 2>&1 \
        || { grep -aq "benchmarkThresholdImprovement" "$log" && ! grep -aq "benchmarkThresholdRegression" "$log"; }; then
        grep -a "Deviations\|baseline 'bench'" "$log" || true
        return 0
    fi
    tail -60 "$log"
    echo "bench: a promise in Benchmarks/Thresholds/ is broken" >&2
    exit 1
}

if $quick; then
    export FLEETAUTH_BENCH_QUICK=1
    run_library_benchmarks
    swift build --product fleetauth >/dev/null
    swift build --product fleetauth-bench >/dev/null
    bench="$(swift build --show-bin-path)/fleetauth-bench"
else
    run_library_benchmarks
    swift build -c release --product fleetauth >/dev/null
    swift build -c release --product fleetauth-bench >/dev/null
    bench="$(swift build -c release --show-bin-path)/fleetauth-bench"
fi

# The C++ gRPC programs: fleet-engine's gRPC load generator, and the server grpc-floors
# measures grpc-swift against.
grpc_cpp=$(Benchmarks/grpc-cpp/build.sh 2>"$log" | tail -1) || { cat "$log"; echo "bench: the C++ gRPC programs did not build" >&2; exit 1; }
# The C token server that token-server measures as the fastest competitor.
c_token_server=$(Benchmarks/c-token-server/build.sh 2>"$log" | tail -1) || { cat "$log"; echo "bench: the C token server did not build" >&2; exit 1; }

run() {
    echo "== fleetauth-bench $*"
    local started=$SECONDS
    if $quick; then
        if ! "$bench" "$@" >"$log" 2>&1; then
            tail -30 "$log"
            echo "bench: fleetauth-bench $1 FAILED" >&2
            exit 1
        fi
        echo "   ok in $((SECONDS - started)) s"
    else
        "$bench" "$@"
    fi
}

if $quick; then
    run codecs --rounds 1 --seconds 0.1
    run token-server --vehicles 32 --connections 4 --seconds 1 --rounds 1 --cores 1 --c-server "$c_token_server/token-server"
    run token-server-operations --vehicles 16 --connections 4 --seconds 1 --rounds 1 --c-server "$c_token_server/token-server"
    run keyless --vehicles 16 --connections 4 --seconds 2 --interval 1 --sign-delay 5 --token-lifetime 60 --startups 1
    run fleet-engine --vehicles 64 --connections 8 --seconds 1 --rounds 1 --grpc-load "$grpc_cpp/update-load"
    run fleet-store --vehicles 100 --batch-sizes 1 10 --seconds 1 --rounds 1
    run grpc-floors --cpp-floor "$grpc_cpp/floor" --seconds 1 --rounds 1
    run browser-fetcher --calls 1000 --rounds 1
    run fleet-engine-scale --sizes 1000 5000 --calls 10 --seconds 1 --rounds 1 --creations 500 --grpc-create "$grpc_cpp/create-load"
    run deliveries --sizes 1000 5000 --calls 10 --batches 2
    run console --vehicles 1000 --reporters 100 --connections 4 --seconds 1 --rounds 1
    run token-console --vehicles 16 --connections 4 --seconds 1 --rounds 1
    run token-record --records 2000 --vehicles 100 --queries 20
else
    run codecs
    run token-server --c-server "$c_token_server/token-server"
    run token-server-operations --c-server "$c_token_server/token-server"
    for command in keyless fleet-store token-record; do
        run "$command"
    done
    run fleet-engine --grpc-load "$grpc_cpp/update-load"
    run grpc-floors --cpp-floor "$grpc_cpp/floor"
    run browser-fetcher
    run fleet-engine-scale --grpc-create "$grpc_cpp/create-load"
    run deliveries
    run console
    run token-console
fi
