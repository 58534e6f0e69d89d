#!/usr/bin/env bash
# Runs the fault tests, one at a time: PostgreSQL's (each on a database or a cluster of its own:
# connections ended mid-write, the server stopped and started, alone and under load), and the
# bad networks, across a link of a network namespace (as root, with `ip` and /dev/net/tun):
# the token server cut off from PostgreSQL for 10 s, and a driver app through delay, loss and
# a partition on its way to `fleetauth serve`; and three key rotations while drivers report
# through the local Fleet Engine. They are left out of the plain `swift test`
# (FLEETAUTH_FAULT_TESTS unset): their bounds are on real time, and beside the rest of the
# suite on a busy 2-core machine they are not reliable.
#
#   scripts/test-faults.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests >/dev/null
started=""
if [[ -z "${FLEETAUTH_TEST_POSTGRES_URL:-}" ]]; then
    eval "$(.ci/test-postgres.sh start)"
    started=$FLEETAUTH_TEST_POSTGRES_DIR
fi
trap '[[ -z "$started" ]] || .ci/test-postgres.sh stop "$started"' EXIT
export FLEETAUTH_FAULT_TESTS=1
status=0
for filter in PostgresOutageTests postgresConnectionDropped postgresStoppedUnderLoad postgresConnectionEnded DatabasePartitionTests BadNetworkTests \
    KeyRotationEndToEndTests; do
    timeout -s KILL 600 swift test --skip-build --no-parallel --filter "$filter" || status=1
done
exit $status
