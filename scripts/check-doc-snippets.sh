#!/usr/bin/env bash
# Runs the snippets of README.md and docs/*.md as written, as a reader would after following the
# README: every Python block and every shell block, each in a fresh folder beside which
# `fleetauth serve` runs with its defaults (ports 8080, 8081 and 8082; its data directory is
# reachable as fleetauth-data), with the built `fleetauth` on the PATH. A shell block that cannot run here says why on the line before it
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
for name in sys.argv[2:]:
    text = pathlib.Path(name).read_text()
    blocks = list(re.finditer(r"(?:^<!-- not run by scripts/check-doc-snippets\.sh: (.*?) -->\n)?^```(python|sh|bash)\n(.*?)^```$", text, re.S | re.M))
    for index, match in enumerate(blocks):
        reason, language, body = match.groups()
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
print(f"{count} snippets to run", file=sys.stderr)
PY

(cd "$work" && exec "$bin/fleetauth" serve >"$log" 2>&1) &
server=$!
for _ in $(seq 1 600); do
    grep -q "FleetAuth is running" "$log" && break
    kill -0 "$server" 2>/dev/null || { cat "$log"; echo "check-doc-snippets: fleetauth serve did not start" >&2; exit 1; }
    sleep 0.1
done
grep -q "FleetAuth is running" "$log" || { cat "$log"; echo "check-doc-snippets: fleetauth serve did not start within 60 s" >&2; exit 1; }

failed=0
for snippet in "$work"/snippet-*.py "$work"/snippet-*.sh; do
    [[ -e "$snippet" ]] || continue
    where=$(cat "${snippet%.*}.where")
    case "$snippet" in
        *.py) run=(python3 "$snippet") ;;
        *) run=(bash -euo pipefail "$snippet") ;;
    esac
    # A folder of its own (what one snippet writes is not in the next one's way), with serve's
    # data directory where the snippets expect it.
    folder="${snippet%.*}.folder"
    mkdir "$folder"
    ln -s "$work/fleetauth-data" "$folder/fleetauth-data"
    if output=$(cd "$folder" && PATH="$bin:$PATH" timeout 120 "${run[@]}" 2>&1); then
        echo "ok: $where"
    else
        echo "FAILED: $where" >&2
        echo "$output" | tail -20 >&2
        failed=1
    fi
done
exit $failed
