#!/usr/bin/env bash
# Builds the DocC catalogs of the library products (FleetTokens, FleetTokenProvider) against
# their symbol graphs and fails on any warning: a broken symbol link, an undocumented
# parameter, a missing page. Needs the toolchain's `docc`; writes nothing into the repository.
set -euo pipefail
cd "$(dirname "$0")/.."

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
status=0
for module in FleetTokens FleetTokenProvider; do
    mkdir -p "$work/graphs/$module" "$work/all"
    swift build --target "$module" -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$work/all" >/dev/null
    cp "$work/all/$module.symbols.json" "$work/graphs/$module/"
    # Links to Apple's documentation need Xcode's resolver; everything else must be clean.
    warnings="$(docc convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$work/graphs/$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "fleetauth.$module" \
        --output-path "$work/$module.doccarchive" 2>&1 | grep -E "warning|error" | grep -v "No external resolver registered" || true)"
    if [[ -n "$warnings" ]]; then
        echo "$module's documentation has problems:" >&2
        echo "$warnings" >&2
        status=1
    else
        echo "$module: documentation builds without warnings"
    fi
done
exit $status
