#!/usr/bin/env bash
# Checks FleetAuth from the outside, as the packages that depend on it see it (CI runs this
# before the tests):
# - Tests/Consumers/App adds it as the README tells an app to (`traits: []`): it must resolve
#   no other package, and the app code of the README and docs/app.md must build under Xcode
#   26's main-actor default isolation, Swift 6 and Swift 5;
# - Tests/Consumers/Backend adds it with `traits: ["Tokens"]`: it must resolve swift-crypto and
#   swift-asn1 only, and the FleetTokens example (README, docs/tokens.md) must run;
# - every Swift block in README.md, in docs/*.md and in the DocC articles must be found, line
#   for line, in one of their sources.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

# The identities of every package `swift package show-dependencies` lists under the root one.
resolved_packages() {
    (cd "$1" && swift package show-dependencies --format json) | python3 -c '
import json, sys
def walk(node, found):
    for child in node["dependencies"]:
        found.add(child["identity"])
        walk(child, found)
    return found
root = json.load(sys.stdin)
fleetauth = [d for d in root["dependencies"] if d["name"] == "fleetauth"]
assert len(fleetauth) == 1, "the consumer does not depend on fleetauth"
print(" ".join(sorted(walk(fleetauth[0], set()))))'
}

echo "== app consumer: resolves nothing beyond fleetauth"
app_packages=$(resolved_packages Tests/Consumers/App)
if [[ -n "$app_packages" ]]; then
    echo "an app resolved server-side packages: $app_packages" >&2
    exit 1
fi
echo "== app consumer: builds (main-actor default isolation, Swift 6, Swift 5)"
(cd Tests/Consumers/App && swift build)

echo "== backend consumer: resolves swift-crypto and swift-asn1 only"
backend_packages=$(resolved_packages Tests/Consumers/Backend)
if [[ "$backend_packages" != "swift-asn1 swift-crypto" ]]; then
    echo "a backend on FleetTokens resolved: $backend_packages" >&2
    exit 1
fi
echo "== backend consumer: the README's FleetTokens example runs"
(cd Tests/Consumers/Backend && swift build)
swift build --product fleetauth
fleetauth="$(swift build --show-bin-path)/fleetauth"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$fleetauth" keygen --project consumer-check --role driver --out "$work/driver.json" >/dev/null
(cd "$work" && "$root/Tests/Consumers/Backend/.build/debug/MintAndVerify")
python3 -c 'import json, sys; keys = json.load(open(sys.argv[1]))["keys"]; assert len(keys) == 1, keys' "$work/jwks.json"
FLEET_DRIVER_KEY_JSON=$(cat "$work/driver.json") \
    bash -c "cd / && '$root/Tests/Consumers/Backend/.build/debug/MintAndVerify' >/dev/null" \
    || { echo "the example did not take its key from FLEET_DRIVER_KEY_JSON" >&2; exit 1; }

echo "== README, docs and DocC articles: every Swift block is compiled by a consumer"
python3 - <<'PY'
import pathlib, re, sys
documents = ([pathlib.Path("README.md")] + sorted(pathlib.Path("docs").glob("*.md"))
             + sorted(pathlib.Path("Sources").glob("*/*.docc/*.md")))
sources = [p.read_text() for p in pathlib.Path("Tests/Consumers").glob("*/Sources/**/*.swift")]
def lines(text):
    # Imports sit at the top of a source file, away from the code the block shows.
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("import ")]
haystacks = [lines(s) for s in sources]
def found(block):
    n = len(block)
    return any(block == hay[i:i + n] for hay in haystacks for i in range(len(hay) - n + 1))
missing, count = [], 0
for document in documents:
    text = document.read_text()
    for match in re.finditer(r"```swift\n(.*?)```", text, re.S):
        count += 1
        block = lines(match.group(1))
        if not found(block):
            line = text[:match.start()].count("\n") + 1
            missing.append(f"{document}:{line}: {block[0]}")
if missing:
    sys.exit("Swift blocks that no consumer compiles:\n" + "\n".join(missing))
print(f"{count} Swift blocks in {len(documents)} documents, all compiled")
PY
echo "consumer checks passed"
