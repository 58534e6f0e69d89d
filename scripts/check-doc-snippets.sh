#!/usr/bin/env bash
# Runs every Python snippet of README.md and docs/*.md as written, against `fleetauth serve`
# with its defaults (ports 8080, 8081 and 8082, data directory fleetauth-data in the folder the
# snippet runs in), with the built `fleetauth` on the PATH, as a reader would after following
# the README. The Swift snippets are compiled by scripts/check-consumers.sh; the Java one needs
# Maven Central, which CI does not reach (docs/local-fleet-engine.md says so).
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --product fleetauth >/dev/null
bin=$(swift build --show-bin-path)
work=$(mktemp -d)
log="$work/serve.log"
server=""
trap '[[ -z "$server" ]] || kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT

# Each ```python block, in order, as its own file.
python3 - "$work" README.md docs/*.md <<'PY'
import pathlib, re, sys
out = pathlib.Path(sys.argv[1])
count = 0
for name in sys.argv[2:]:
    text = pathlib.Path(name).read_text()
    for index, match in enumerate(re.finditer(r"^```python\n(.*?)^```$", text, re.S | re.M)):
        count += 1
        (out / f"snippet-{count:02d}.py").write_text(match.group(1))
        (out / f"snippet-{count:02d}.where").write_text(f"{name}, Python snippet {index + 1}")
print(f"{count} Python snippets", file=sys.stderr)
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
for snippet in "$work"/snippet-*.py; do
    where=$(cat "${snippet%.py}.where")
    if output=$(cd "$work" && PATH="$bin:$PATH" timeout 120 python3 "$snippet" 2>&1); then
        echo "ok: $where"
    else
        echo "FAILED: $where" >&2
        echo "$output" | tail -20 >&2
        failed=1
    fi
done
exit $failed
