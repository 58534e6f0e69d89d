#!/usr/bin/env bash
# swift-format over the package's own Swift (Sources/, Tests/, Benchmarks/ and Fuzz/ as git
# tracks them), with the repository's .swift-format
# (lines of at most 120 columns, imports in order). `--fix` formats the files in place;
# without it, `swift format lint --strict` fails on any difference. Left out: the generated
# protobuf code, and Tests/Consumers, whose snippets are the docs' Swift blocks to the letter
# (scripts/check-consumers.sh matches them).
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files 'Sources/*.swift' 'Tests/*.swift' 'Benchmarks/*.swift' 'Fuzz/*.swift' | grep -v '^Sources/FleetEngineProtos/Generated/\|^Tests/Consumers/')
if [[ ${1:-} == --fix ]]; then
    swift format format --in-place --parallel "${files[@]}"
else
    swift format lint --strict --parallel "${files[@]}"
    echo "check-format: ${#files[@]} files as swift-format writes them"
fi
