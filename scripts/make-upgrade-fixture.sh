#!/usr/bin/env bash
# Makes the upgrade fixture Tests/TokenServerTests/Fixtures/upgrade-from-COMMIT/: what a token
# server of an earlier commit leaves behind, for UpgradeTests to open with today's code.
#
#   scripts/make-upgrade-fixture.sh COMMIT [--fleetauth BINARY]
#
# The commit's `fleetauth` is built in a worktree of its own (.build-fixture/), unless BINARY is
# one already built from that commit. Needs $FLEETAUTH_TEST_POSTGRES_URL (.ci/test-postgres.sh).
#
# The fixture holds two data directories made by that commit's `token-server` (for the tests'
# project, test-project) and filled the same way through its HTTP API: sqlite/ (keys/,
# admin-key, token-server.sqlite) and postgres/ (keys/, admin-key, and postgres.sql, a pg_dump
# of its database). In each:
# accounts of every role, assignments, an account linked to an OpenID Connect identity, and
# two sessions that last a hundred years, whose tokens fixture.json keeps (the secrets of a
# throwaway fixture, for the test to log in with).
set -euo pipefail
cd "$(dirname "$0")/.."

commit=${1:?usage: scripts/make-upgrade-fixture.sh COMMIT [--fleetauth BINARY]}
commit=$(git rev-parse --short=12 "$commit^{commit}")
shift
fleetauth=
while (($#)); do
    case $1 in
        --fleetauth) fleetauth=$(realpath "$2"); shift 2 ;;
        *) echo "usage: scripts/make-upgrade-fixture.sh COMMIT [--fleetauth BINARY]" >&2; exit 2 ;;
    esac
done
: "${FLEETAUTH_TEST_POSTGRES_URL:?start PostgreSQL first: eval \"\$(.ci/test-postgres.sh start)\"}"

if [[ -z $fleetauth ]]; then
    source=.build-fixture/$commit
    [[ -d $source ]] || git worktree add --detach "$source" "$commit"
    (cd "$source" && swift build --product fleetauth)
    fleetauth=$(cd "$source" && swift build --show-bin-path)/fleetauth
fi

fixture=Tests/TokenServerTests/Fixtures/upgrade-from-$commit
rm -rf "$fixture"
mkdir -p "$fixture"
work=$(mktemp -d)
server=
trap '[[ -n $server ]] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT

database="upgrade_fixture_$$"
base="${FLEETAUTH_TEST_POSTGRES_URL%/*}"
psql "$FLEETAUTH_TEST_POSTGRES_URL" -qc "CREATE DATABASE $database" >/dev/null

# Fills the token server of data directory $1 (on PostgreSQL when $2 is a URL), and writes the
# two sessions' tokens to $1.sessions.
fill() {
    local dir=$1 url=${2:-} port=18790
    local database_options=()
    [[ -n $url ]] && database_options=(--database-url "$url")
    "$fleetauth" token-server --data-dir "$dir" "${database_options[@]}" --port "$port" --bcrypt-cost 4 --log-level warning \
        --session-lifetime 3153600000 --project test-project >"$work/server.log" 2>&1 &
    server=$!
    for _ in $(seq 1 200); do curl -sf -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.1; done
    local admin
    admin=$(cat "$dir/admin-key")
    api() { curl -sf -H "Authorization: Bearer $admin" -H 'Content-Type: application/json' "$@"; }
    for account in ann:driver cai:consumer dee:delivery-driver tess:delivery-trusted-driver dora:delivery-consumer fred:fleet-reader; do
        api -X POST "http://127.0.0.1:$port/v1/admin/accounts" \
            -d "{\"username\":\"${account%%:*}\",\"role\":\"${account#*:}\",\"password\":\"upgrade-fixture-password\"}" >/dev/null
    done
    api -X POST "http://127.0.0.1:$port/v1/admin/accounts" \
        -d '{"username":"ida","role":"driver","identity":{"issuer":"https://idp.example.com","subject":"ida-123"}}' >/dev/null
    api -X PUT "http://127.0.0.1:$port/v1/admin/vehicles/v-1/driver" -d '{"username":"ann"}' >/dev/null
    api -X PUT "http://127.0.0.1:$port/v1/admin/vehicles/v-2/driver" -d '{"username":"ida"}' >/dev/null
    api -X PUT "http://127.0.0.1:$port/v1/admin/trips/t-1/consumer" -d '{"username":"cai"}' >/dev/null
    api -X PUT "http://127.0.0.1:$port/v1/admin/delivery-vehicles/dv-1/driver" -d '{"username":"dee"}' >/dev/null
    api -X PUT "http://127.0.0.1:$port/v1/admin/delivery-vehicles/dv-2/driver" -d '{"username":"tess"}' >/dev/null
    api -X PUT "http://127.0.0.1:$port/v1/admin/tracking-ids/tr-1/consumer" -d '{"username":"dora"}' >/dev/null
    : >"$dir.sessions"
    for user in ann cai; do
        curl -sf -H 'Content-Type: application/json' "http://127.0.0.1:$port/v1/sessions" \
            -d "{\"username\":\"$user\",\"password\":\"upgrade-fixture-password\"}" \
            | python3 -c 'import json, sys; print(sys.argv[1], json.load(sys.stdin)["sessionToken"])' "$user" >>"$dir.sessions"
    done
    # Proof that the commit serves what it was given: ann's token.
    curl -sf -H "Authorization: Bearer $(awk '$1 == "ann" { print $2 }' "$dir.sessions")" "http://127.0.0.1:$port/v1/tokens/driver/v-1" >/dev/null
    kill "$server"
    wait "$server" 2>/dev/null || true
    server=
    # A clean stop folds SQLite's write-ahead log into the file, which is all the fixture keeps.
    if [[ -s $dir/token-server.sqlite-wal ]]; then echo "make-upgrade-fixture: $dir/token-server.sqlite-wal is not empty" >&2; exit 1; fi
}

fill "$work/sqlite"
fill "$work/postgres" "$base/$database"
pg_dump --no-owner --no-privileges "$base/$database" >"$work/postgres/postgres.sql"
psql "$FLEETAUTH_TEST_POSTGRES_URL" -qc "DROP DATABASE $database" >/dev/null

for kind in sqlite postgres; do
    mkdir -p "$fixture/$kind"
    cp -R "$work/$kind/keys" "$work/$kind/admin-key" "$fixture/$kind/"
    [[ $kind == sqlite ]] && cp "$work/sqlite/token-server.sqlite" "$fixture/sqlite/"
    [[ $kind == postgres ]] && cp "$work/postgres/postgres.sql" "$fixture/postgres/"
done
python3 - "$fixture" "$commit" "$("$fleetauth" --version)" "$work" <<'EOF'
import json, sys
fixture, commit, version, work = sys.argv[1:]
sessions = {kind: dict(line.split() for line in open(f"{work}/{kind}.sessions")) for kind in ("sqlite", "postgres")}
json.dump({"commit": commit, "version": version, "password": "upgrade-fixture-password", "sessions": sessions},
          open(f"{fixture}/fixture.json", "w"), indent=2)
EOF
echo "wrote $fixture ($(du -sk "$fixture" | cut -f1) KiB) from $commit"
