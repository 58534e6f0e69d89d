#!/usr/bin/env bash
# Soak test of the whole token life (not part of `swift test`): 500 drivers and their 500
# consumers for 10 minutes with 30-second tokens, the token server stopped for 5 s and started
# again twice, all through `fleetauth demo` in a release build. Exits non-zero if an update is
# lost, an honest app is refused for an auth reason, or the intruder gets through.
#
#   scripts/soak.sh                      # the full soak (about 12 minutes after the build)
#   DRIVERS=50 DURATION=60 scripts/soak.sh   # a shorter one
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product fleetauth --scratch-path .build-demo
# Each app holds a connection to each server, and each server one back: 2,000+ descriptors.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
exec .build-demo/release/fleetauth demo \
    --drivers "${DRIVERS:-500}" --duration "${DURATION:-600}" --token-lifetime 30 \
    --token-server-restarts 2 --token-server-downtime "${DOWNTIME:-5}" "$@"
