#!/usr/bin/env bash
# Rolling restarts behind a real balancer lose no request: HAProxy (Debian's), health-checking
# /readyz, in front of two token-server replicas on one PostgreSQL, while wrk asks for tokens
# through it over keep-alive connections. Each replica in turn gets SIGTERM (it must exit 0),
# starts again, and is waited for until HAProxy sends it traffic again; three such rolls.
# Fails on any request that did not get a 200, and says how long each replica took from
# SIGTERM to exit.
#
#   scripts/test-rolling-restarts.sh          # needs $FLEETAUTH_TEST_POSTGRES_URL
#                                             # (eval "$(.ci/test-postgres.sh start)")
set -euo pipefail
cd "$(dirname "$0")/.."

: "${FLEETAUTH_TEST_POSTGRES_URL:?start a PostgreSQL first: eval \"\$(.ci/test-postgres.sh start)\"}"
command -v haproxy >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy; }
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; }

swift build --product fleetauth >/dev/null
fleetauth="$(swift build --show-bin-path)/fleetauth"
work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT

# A database of its own, so that the replicas start on empty tables.
database="rolling_$$"
base="${FLEETAUTH_TEST_POSTGRES_URL%/*}"
psql "$FLEETAUTH_TEST_POSTGRES_URL" -qc "CREATE DATABASE $database" >/dev/null
export FLEETAUTH_DATABASE_URL="$base/$database"
export FLEETAUTH_DATA_DIR="$work/data" FLEETAUTH_BCRYPT_COST=4 FLEETAUTH_LOG_LEVEL=warning
export FLEETAUTH_SHUTDOWN_DELAY=1.5 FLEETAUTH_SHUTDOWN_TIMEOUT=8
# wrk asks with one session as fast as it can: the per-session limit is not what is tested.
export FLEETAUTH_TOKEN_REQUESTS_PER_MINUTE=0

ports=(18481 18482)
declare -A replica
start_replica() { # $1: the index of the replica
    FLEETAUTH_PORT=${ports[$1]} "$fleetauth" token-server >>"$work/replica-$1.log" 2>&1 &
    replica[$1]=$!
    pids+=("$!")
    for _ in $(seq 1 300); do
        curl -sf "http://127.0.0.1:${ports[$1]}/readyz" >/dev/null && return 0
        sleep 0.1
    done
    cat "$work/replica-$1.log" >&2
    echo "replica $1 did not become ready" >&2
    exit 1
}

start_replica 0
start_replica 1
"$fleetauth" accounts create ann --role driver --bcrypt-cost 4 <<<"correct horse" >/dev/null
"$fleetauth" assign vehicle v-1 ann >/dev/null
session=$(curl -sf -X POST "http://127.0.0.1:${ports[0]}/v1/sessions" -d '{"username":"ann","password":"correct horse"}' \
    | sed -nE 's/.*"sessionToken": *"([^"]*)".*/\1/p')

cat >"$work/haproxy.cfg" <<EOF
global
    maxconn 2000
defaults
    mode http
    timeout connect 2s
    timeout client 30s
    timeout server 30s
    retries 3
    option redispatch
    retry-on conn-failure empty-response
frontend tokens
    bind 127.0.0.1:18480
    default_backend replicas
backend replicas
    option httpchk GET /readyz
    http-check expect status 200
    # A replica that says it drains is out within two checks (0.5 s, inside its 1.5 s delay);
    # a check slow on a busy machine is not a failure until 2 s.
    timeout check 2s
    default-server inter 250ms fall 2 rise 2
    server a 127.0.0.1:${ports[0]} check
    server b 127.0.0.1:${ports[1]} check
EOF
haproxy -f "$work/haproxy.cfg" -db >"$work/haproxy.log" 2>&1 &
pids+=("$!")
until curl -sf -o /dev/null "http://127.0.0.1:18480/readyz"; do sleep 0.1; done
sleep 1  # both replicas up in HAProxy's checks

duration=45
wrk -t2 -c16 -d${duration}s -H "Authorization: Bearer $session" "http://127.0.0.1:18480/v1/tokens/driver/v-1" >"$work/wrk.out" &
load=$!
sleep 3
for roll in 1 2 3; do
    for index in 0 1; do
        signalled=$(date +%s.%N)
        kill -TERM "${replica[$index]}"
        status=0
        wait "${replica[$index]}" || status=$?
        exited=$(date +%s.%N)
        [[ $status == 0 ]] || { cat "$work/replica-$index.log" >&2; echo "replica $index exited $status on SIGTERM" >&2; exit 1; }
        awk -v roll="$roll" -v replica="$index" -v from="$signalled" -v to="$exited" \
            'BEGIN { printf "roll %d, replica %d: SIGTERM to exit %.2f s under load\n", roll, replica, to - from }'
        start_replica "$index"
        sleep 1  # HAProxy sees it up again (two checks 250 ms apart) before the next goes down
    done
done
wait "$load"
cat "$work/wrk.out"
requests=$(awk '/requests in/ {print $1}' "$work/wrk.out")
if grep -qE "Non-2xx|Socket errors" "$work/wrk.out"; then
    echo "FAILED: requests were lost across three rolling restarts" >&2
    tail -20 "$work/haproxy.log" >&2
    exit 1
fi
[[ ${requests:-0} -gt 1000 ]] || { echo "FAILED: the load did not run ($requests requests)" >&2; exit 1; }
echo "rolling restarts: 3 rolls of 2 replicas, $requests requests through HAProxy, 0 failed"
