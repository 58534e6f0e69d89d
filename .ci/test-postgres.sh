#!/usr/bin/env bash
# A throwaway PostgreSQL cluster on loopback for the tests, from Debian's packages.
#
#   eval "$(.ci/test-postgres.sh start)"   # installs if needed, starts, exports FLEETAUTH_TEST_POSTGRES_URL
#   .ci/test-postgres.sh stop "$FLEETAUTH_TEST_POSTGRES_DIR"
#
# The fault tests stop a cluster of their own and start it again, on the same port:
#   .ci/test-postgres.sh halt DIR       # stops the server, keeps the cluster
#   .ci/test-postgres.sh resume DIR     # starts it again
#
# With FLEETAUTH_TEST_POSTGRES_LISTEN_ALL=1, `start` makes a cluster that also listens beyond
# loopback, for clients in 198.18.0.0/15 (the fault test that partitions a server from it, across
# a link of a network namespace).
#
# PostgreSQL refuses to run as root, so the server runs as the 'postgres' user.
set -euo pipefail

start() {
    if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
        apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
    fi
    local bin
    bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
    id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql --shell /bin/false postgres
    local dir port password
    dir=$(mktemp -d /tmp/fleetauth-postgres.XXXXXX)
    password="test-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')"
    printf '%s\n' "$password" >"$dir/pwfile"
    chown -R postgres "$dir"
    chmod 700 "$dir"
    run_as_postgres "$bin/initdb" -D "$dir/data" -U fleetauth --pwfile="$dir/pwfile" --auth=scram-sha-256 -E UTF8 >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    rm -f "$dir/pwfile"
    local listen=127.0.0.1
    if [[ ${FLEETAUTH_TEST_POSTGRES_LISTEN_ALL:-} == 1 ]]; then
        listen='*'
        echo "host all all 198.18.0.0/15 scram-sha-256" >>"$dir/data/pg_hba.conf"
    fi
    echo "$listen" >"$dir/listen"
    # A free loopback port: ask the kernel for one.
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    echo "$port" >"$dir/port"
    resume "$dir"
    PGPASSWORD="$password" "$bin/createdb" -h 127.0.0.1 -p "$port" -U fleetauth fleetauth_test
    echo "export FLEETAUTH_TEST_POSTGRES_DIR='$dir'"
    echo "export FLEETAUTH_TEST_POSTGRES_URL='postgres://fleetauth:$password@127.0.0.1:$port/fleetauth_test?sslmode=disable'"
}

resume() {
    local dir=$1 bin port
    bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
    port=$(cat "$dir/port")
    run_as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses='$(cat "$dir/listen" 2>/dev/null || echo 127.0.0.1)' -p $port -k $dir -c fsync=off -c max_connections=200" start >&2 \
        || { cat "$dir/server.log" >&2; exit 1; }
}

halt() {
    local dir=$1 bin
    bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
    run_as_postgres "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >&2
}

stop() {
    local dir=$1 bin
    bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
    [[ -d "$dir/data" ]] && run_as_postgres "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
}

run_as_postgres() {
    if [[ $(id -u) -eq 0 ]]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

case "${1:-}" in
    start) start ;;
    stop) stop "${2:?usage: $0 stop DIR}" ;;
    halt) halt "${2:?usage: $0 halt DIR}" ;;
    resume) resume "${2:?usage: $0 resume DIR}" ;;
    *) echo "usage: $0 start | stop DIR | halt DIR | resume DIR" >&2; exit 2 ;;
esac
