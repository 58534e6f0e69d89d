#!/usr/bin/env bash
# Builds the fuzz targets (Fuzz/) with libFuzzer and AddressSanitizer in .build-fuzz and runs
# each for SECONDS against its committed seed corpus (Fuzz/Corpus/TARGET) plus the inputs it
# found before (.build-fuzz/corpus/TARGET). Fails on the first crash or property failure,
# leaving the input that caused it in .build-fuzz/findings/TARGET/.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     # default: 60 s each, every target
#   scripts/fuzz.sh --build                   # build only
#   scripts/fuzz.sh --replay FILE TARGET      # run TARGET on one saved input
set -euo pipefail
cd "$(dirname "$0")/.."

all_targets=(FuzzBase64URL FuzzTokenVerifier FuzzJSONReaders FuzzTimes FuzzLoginBody FuzzRequestBodies FuzzListFilter)
scratch=.build-fuzz
bin="$scratch/debug"

build() {
    local target log="$scratch/build.log"
    mkdir -p "$scratch"
    for target in "$@"; do
        echo "fuzz: building $target"
        # SwiftPM hands swiftc one -sanitize= per sanitizer, in no fixed order, and swiftc keeps
        # only the last: half the builds had Swift code without coverage (libFuzzer then finds
        # nothing) or without AddressSanitizer. One -sanitize= naming both, last, keeps both.
        if ! FLEETAUTH_FUZZ=1 swift build --scratch-path "$scratch" --sanitize=fuzzer --sanitize=address \
            -Xswiftc -sanitize=address,fuzzer --product "$target" >"$log" 2>&1; then
            grep -v "Cannot export local symbol" "$log" | tail -40
            return 1
        fi
    done
}

case "${1:-}" in
    --build)
        build "${all_targets[@]}"
        exit 0
        ;;
    --replay)
        [[ $# -eq 3 ]] || { echo "usage: $0 --replay FILE TARGET" >&2; exit 2; }
        build "$3"
        SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 exec "$bin/$3" "$2"
        ;;
esac

seconds=60
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then
    seconds=$1
    shift
fi
targets=("$@")
((${#targets[@]})) || targets=("${all_targets[@]}")
build "${targets[@]}"

for target in "${targets[@]}"; do
    corpus="$scratch/corpus/$target"
    findings="$scratch/findings/$target"
    mkdir -p "$corpus" "$findings"
    echo "fuzz: running $target for ${seconds}s"
    log="$scratch/$target.log"
    # SWIFT_BACKTRACE off: Swift's crash handler trips AddressSanitizer, hiding the report;
    # -detect_leaks=0: the Swift runtime's caches and the targets' shared state look like leaks;
    # -rss_limit_mb: ASan's shadow memory aside, no target needs more; -max_len: 16 KiB, twice
    # the largest token the verifier reads and far past any honest request body.
    if ! SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$bin/$target" "$corpus" "Fuzz/Corpus/$target" -max_total_time="$seconds" -max_len=16384 \
        -rss_limit_mb=4096 -detect_leaks=0 -print_final_stats=1 -artifact_prefix="$findings/" >"$log" 2>&1; then
        tail -60 "$log"
        echo "fuzz: $target FAILED; the input is in $findings/ (scripts/fuzz.sh --replay FILE $target)"
        exit 1
    fi
    # A target libFuzzer cannot see into (no coverage instrumentation) finds nothing and says so.
    if grep -q "no interesting inputs were found" "$log"; then
        tail -20 "$log"
        echo "fuzz: $target has no coverage instrumentation; libFuzzer found no interesting inputs"
        exit 1
    fi
    grep -E "DONE|^Done" "$log"
    echo "fuzz: $target passed"
done
