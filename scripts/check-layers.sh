#!/usr/bin/env bash
# Checks that every module of Sources/ imports only the modules docs/architecture.md draws an
# arrow to (`A --> B`, or a debt `A -.-> B`, in its Mermaid block). Imports of modules that are
# not the package's own (Foundation, NIOCore, …) are not checked. Prints each import no arrow
# draws, and the debts still drawn; exits 1 on the first kind.
set -euo pipefail
cd "$(dirname "$0")/.."
doc=docs/architecture.md
own=$(ls Sources)
# The arrows drawn, as "A B" lines; debts also as "A B" in their own list.
arrows=$(sed -n '/^```mermaid/,/^```/p' "$doc" | sed -nE 's/^ *([A-Za-z0-9_]+) *(-->|-\.->) *([A-Za-z0-9_]+) *$/\1 \3/p' | sort -u)
debts=$(sed -n '/^```mermaid/,/^```/p' "$doc" | sed -nE 's/^ *([A-Za-z0-9_]+) *-\.-> *([A-Za-z0-9_]+) *$/\1 \2/p' | sort -u)
[[ -n $arrows ]] || { echo "check-layers: no arrows found in $doc" >&2; exit 1; }
undrawn=0
for module in $own; do
    imported=$(grep -rhoE '^\s*(@testable |@_exported |@preconcurrency |package |public |internal )*import +[A-Za-z0-9_]+' "Sources/$module" 2>/dev/null \
        | awk '{print $NF}' | sort -u || true)
    for target in $imported; do
        [[ $target == "$module" ]] && continue
        grep -qx "$target" <<<"$own" || continue
        if ! grep -qx "$module $target" <<<"$arrows"; then
            echo "check-layers: $module imports $target, an arrow $doc does not draw:"
            grep -rlE "^\s*(@[a-z_]+ )*(package |public )?import +$target\b" "Sources/$module" | sed 's/^/  /'
            undrawn=1
        fi
    done
done
if [[ -n $debts ]]; then
    echo "check-layers: debts still drawn ($doc): $(tr '\n' ';' <<<"$debts" | sed 's/ / -> /g; s/;$//; s/;/, /g')"
fi
[[ $undrawn == 0 ]] && echo "check-layers: every import of Sources/ is an arrow $doc draws"
exit $undrawn
