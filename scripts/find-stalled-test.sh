#!/usr/bin/env bash
# Runs the whole suite (or the tests FILTER names) under load, as scripts/test-under-load.sh
# does, but runs the test binary itself and records Swift Testing's event stream, so that a run
# that stops making progress is ended after LIMIT seconds and the tests that started and never
# ended are named. For a stall seen once in a while: runs up to RUNS times, stopping at the first.
#
#   scripts/find-stalled-test.sh              # 5 runs, 300 s each
#   RUNS=10 LIMIT=200 scripts/find-stalled-test.sh 'Console|Browser'
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests >/dev/null
binary="$(swift build --show-bin-path)/fleetauthPackageTests.xctest"
filter=("${1:+--filter}" "${1:-}")
[[ -n "${1:-}" ]] || filter=()

work=$(mktemp -d)
cleanup='rm -rf "$work"'
source scripts/lib/under-load.sh

for run in $(seq 1 "${RUNS:-5}"); do
    status=0
    timeout -s KILL "${LIMIT:-300}" "$binary" --testing-library swift-testing "${filter[@]}" \
        --event-stream-output-path "$work/events.jsonl" --event-stream-version 0 >"$work/output.log" 2>&1 || status=$?
    if [[ $status == 137 ]]; then
        # The browsers the killed process drove outlive it.
        pkill -KILL -f 'user-data-dir=.*fleetauth-chromium-' || true
        echo "run $run: no end within ${LIMIT:-300} s; the tests that started and never ended:"
        python3 - "$work/events.jsonl" <<'PY'
import json, sys
started, ended = {}, set()
for line in open(sys.argv[1]):
    try:
        event = json.loads(line)
    except ValueError:
        continue
    if event.get("kind") != "event":
        continue
    payload = event["payload"]
    if payload.get("kind") == "testStarted":
        started[payload["testID"]] = True
    elif payload.get("kind") == "testEnded":
        ended.add(payload["testID"])
for test in started:
    if test not in ended:
        print("  " + test)
PY
        exit 1
    fi
    echo "run $run: ended (exit $status), $(grep -aE 'Test run with' "$work/output.log" | tail -1)"
    [[ $status == 0 ]] || grep -aE '✘' "$work/output.log" | grep -av 'Test run with' | head -20 | cut -c1-400
done
