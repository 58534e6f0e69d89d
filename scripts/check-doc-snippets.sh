#!/usr/bin/env bash
# Runs the snippets of README.md and docs/*.md as written, as a reader would after following the
# README: every Python block and every shell block, each in a fresh folder beside which
# `fleetauth serve` runs with its defaults (ports 8080, 8081 and 8082; its data directory is
# reachable as fleetauth-data), with the built `fleetauth` on the PATH. A block that starts servers
# of its own says so on the line before it (`<!-- run alone by scripts/check-doc-snippets.sh:
# REASON -->`): those run first, one at a time, before serve starts; what they leave running in
# the background must still be running 3 s after the block's last command, and is stopped
# before the next block. A block that cannot run here says why
# (`<!-- not run by scripts/check-doc-snippets.sh: REASON -->`), and the README's first block
# (its two commands: DemoTests plays the demo, and CI runs `swift test` itself) is left out.
# The Swift blocks are compiled by scripts/check-consumers.sh; the Java one needs Maven
# Central, which CI does not reach (docs/local-fleet-engine.md says so).
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --product fleetauth >/dev/null
bin=$(swift build --show-bin-path)
work=$(mktemp -d)
log="$work/serve.log"
server=""
trap '[[ -z "$server" ]] || kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT

# Each ```python and ```sh block, in order, as its own file; the skipped ones listed with why.
python3 - "$work" README.md docs/*.md <<'PY'
import pathlib, re, sys
out = pathlib.Path(sys.argv[1])
count = 0
alone = 0
# After a block that runs alone: the servers it left in the background are still up.
EPILOGUE = """
sleep 3
if [[ $(jobs -rp | wc -l) != $(jobs -p | wc -l) ]]; then
    echo "a server this snippet started in the background has stopped" >&2
    exit 1
fi
"""
for name in sys.argv[2:]:
    text = pathlib.Path(name).read_text()
    blocks = list(re.finditer(r"(?:^<!-- (not run|run alone) by scripts/check-doc-snippets\.sh: (.*?) -->\n)?^```(python|sh|bash)\n(.*?)^```$", text, re.S | re.M))
    for index, match in enumerate(blocks):
        mode, reason, language, body = match.groups()
        if mode == "run alone":
            alone += 1
            (out / f"alone-{alone:02d}.sh").write_text(body + EPILOGUE)
            (out / f"alone-{alone:02d}.where").write_text(f"{name}, {language} snippet {index + 1}")
            continue
        where = f"{name}, {language} snippet {index + 1}"
        if name == "README.md" and index == 0:
            reason = "the README's two commands"
        if reason:
            print(f"not run: {where}: {reason}", file=sys.stderr)
            continue
        count += 1
        suffix = "py" if language == "python" else "sh"
        (out / f"snippet-{count:02d}.{suffix}").write_text(body)
        (out / f"snippet-{count:02d}.where").write_text(where)
print(f"{count} snippets to run beside serve, {alone} alone", file=sys.stderr)
PY

failed=0
# Runs snippet $1 in a folder of its own, with the built fleetauth on the PATH, within 120 s;
# reports it as $2 and counts a failure.
run_snippet() {
    local snippet=$1 where=$2 folder="${1%.*}.folder" status=0
    local run=(bash -euo pipefail "$snippet")
    [[ "$snippet" == *.py ]] && run=(python3 "$snippet")
    mkdir -p "$folder"
    # A session of its own, so that what it leaves in the background can be stopped with it.
    (cd "$folder" && PATH="$bin:$PATH" exec setsid timeout 120 "${run[@]}" >"$folder.out" 2>&1 </dev/null) &
    local session=$!
    wait "$session" || status=$?
    kill -TERM -- "-$session" 2>/dev/null || true
    for _ in $(seq 1 100); do pgrep -s "$session" >/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$session" 2>/dev/null || true
    if [[ $status == 0 ]]; then
        echo "ok: $where"
    else
        echo "FAILED: $where" >&2
        tail -20 "$folder.out" >&2
        failed=1
    fi
}

for snippet in "$work"/alone-*.sh; do
    [[ -e "$snippet" ]] || continue
    run_snippet "$snippet" "$(cat "${snippet%.*}.where") (alone)"
done

(cd "$work" && exec "$bin/fleetauth" serve >"$log" 2>&1) &
server=$!
for _ in $(seq 1 600); do
    grep -q "FleetAuth is running" "$log" && break
    kill -0 "$server" 2>/dev/null || { cat "$log"; echo "check-doc-snippets: fleetauth serve did not start" >&2; exit 1; }
    sleep 0.1
done
grep -q "FleetAuth is running" "$log" || { cat "$log"; echo "check-doc-snippets: fleetauth serve did not start within 60 s" >&2; exit 1; }

for snippet in "$work"/snippet-*.py "$work"/snippet-*.sh; do
    [[ -e "$snippet" ]] || continue
    # Serve's data directory where the snippets expect it.
    mkdir "${snippet%.*}.folder"
    ln -s "$work/fleetauth-data" "${snippet%.*}.folder/fleetauth-data"
    run_snippet "$snippet" "$(cat "${snippet%.*}.where")"
done
exit $failed
