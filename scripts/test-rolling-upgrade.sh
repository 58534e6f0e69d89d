#!/usr/bin/env bash
# A rolling upgrade on one PostgreSQL: a token server of an older commit (A) serves, a replica of
# this checkout (B) starts on the same database and upgrades its schema, and then both serve side
# by side. Checks that neither breaks and that neither serves a grant the other revoked: a login on
# one gives tokens on the other, an assignment removed on A refuses B's next token and the other
# way round, and A starts again on the upgraded database.
#
#   scripts/test-rolling-upgrade.sh [OLD_COMMIT]
#
# OLD_COMMIT defaults to the commit the upgrade fixture was made from (the last version before
# versioned schemas). Its `fleetauth` is built in a worktree of its own (.build-fixture/, as
# scripts/make-upgrade-fixture.sh does): about ten minutes the first time. Needs
# $FLEETAUTH_TEST_POSTGRES_URL (.ci/test-postgres.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

fixture_commit() {
    python3 -c 'import glob, json; print(json.load(open(sorted(glob.glob("Tests/TokenServerTests/Fixtures/upgrade-from-*/fixture.json"))[-1]))["commit"])'
}
commit=$(git rev-parse --short=12 "${1:-$(fixture_commit)}^{commit}")
: "${FLEETAUTH_TEST_POSTGRES_URL:?start PostgreSQL first: eval \"\$(.ci/test-postgres.sh start)\"}"

source=.build-fixture/$commit
[[ -d $source ]] || git worktree add --detach "$source" "$commit" >/dev/null
work=$(mktemp -d)
database="rolling_upgrade_$$"
# The test database's URL with another database name, its query (sslmode, …) kept.
url=$(python3 -c 'import sys, urllib.parse as u; p = u.urlsplit(sys.argv[1]); print(u.urlunsplit(p._replace(path="/" + sys.argv[2])))' \
    "$FLEETAUTH_TEST_POSTGRES_URL" "$database")
pids=()
cleanup() {
    for pid in ${pids[@]+"${pids[@]}"}; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    psql "$FLEETAUTH_TEST_POSTGRES_URL" -qc "DROP DATABASE IF EXISTS $database" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

build() { (cd "$1" && swift build --product fleetauth >"$work/build.log" 2>&1) || { tail -30 "$work/build.log" >&2; exit 1; }; }
build "$source"
old=$(cd "$source" && swift build --show-bin-path)/fleetauth
build .
new=$(swift build --show-bin-path)/fleetauth
psql "$FLEETAUTH_TEST_POSTGRES_URL" -qc "CREATE DATABASE $database" >/dev/null

fail() { echo "test-rolling-upgrade: $*" >&2; for log in "$work"/*.log; do echo "== $log" >&2; tail -20 "$log" >&2; done; exit 1; }

# Starts `fleetauth token-server` ($1: the binary) on data directory $2 and port $3.
start() {
    "$1" token-server --data-dir "$2" --database-url "$url" --port "$3" --bcrypt-cost 4 --log-level info \
        --project test-project >"$2.log" 2>&1 &
    local pid=$!
    pids+=("$pid")
    for _ in $(seq 1 300); do
        kill -0 "$pid" 2>/dev/null || fail "the server on port $3 exited"
        curl -sf -o /dev/null "http://127.0.0.1:$3/healthz" && return 0
        sleep 0.1
    done
    fail "the server on port $3 did not start"
}

a=18795 b=18796
start "$old" "$work/a" $a
admin=$(cat "$work/a/admin-key")
api() { curl -sf -H "Authorization: Bearer $admin" -H 'Content-Type: application/json' "$@" || fail "admin call failed: $*"; }
for user in ann bob cy; do
    api -X POST "http://127.0.0.1:$a/v1/admin/accounts" -d "{\"username\":\"$user\",\"role\":\"driver\",\"password\":\"rolling-upgrade-pw\"}" >/dev/null
done
api -X PUT "http://127.0.0.1:$a/v1/admin/vehicles/v-1/driver" -d '{"username":"ann"}' >/dev/null
api -X PUT "http://127.0.0.1:$a/v1/admin/vehicles/v-2/driver" -d '{"username":"bob"}' >/dev/null
login() {
    curl -sf -H 'Content-Type: application/json' "http://127.0.0.1:$1/v1/sessions" -d "{\"username\":\"$2\",\"password\":\"rolling-upgrade-pw\"}" \
        | python3 -c 'import json, sys; print(json.load(sys.stdin)["sessionToken"])' || fail "$2 could not log in on port $1"
}
# The status of a token request to port $1 with session $2 for vehicle $3.
token() { curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $2" "http://127.0.0.1:$1/v1/tokens/driver/$3"; }
expect() { [[ $1 == "$2" ]] || fail "$3: expected $2, got $1"; }

ann=$(login $a ann)
expect "$(token $a "$ann" v-1)" 200 "the old server serves before the upgrade"

# B starts with A's keys (an upgrade from a version before schema 3 adds them to the database).
mkdir -p "$work/b"
cp -R "$work/a/keys" "$work/a/admin-key" "$work/b/"
start "$new" "$work/b" $b
version=$(psql "$url" -tAc "SELECT version FROM token_server_schema")
[[ $version -ge 4 ]] || fail "the new server left the schema at version $version"

expect "$(token $a "$ann" v-1)" 200 "the old server serves on the upgraded schema"
expect "$(token $b "$ann" v-1)" 200 "the new server serves a session the old one made"
bob=$(login $b bob)
expect "$(token $a "$bob" v-2)" 200 "the old server serves a session the new one made"

# Revoked on one, refused by the other at its next request.
api -X DELETE "http://127.0.0.1:$a/v1/admin/vehicles/v-1/driver" >/dev/null
expect "$(token $b "$ann" v-1)" 403 "the new server after the old one unassigned ann"
api -X DELETE "http://127.0.0.1:$b/v1/admin/vehicles/v-2/driver" >/dev/null
expect "$(token $a "$bob" v-2)" 403 "the old server after the new one unassigned bob"
api -X DELETE "http://127.0.0.1:$b/v1/admin/accounts/ann" >/dev/null
expect "$(token $a "$ann" v-1)" 401 "the old server after the new one deleted ann"

# The old version starts again on the upgraded database, and serves what the new one assigned.
kill "${pids[0]}"
wait "${pids[0]}" 2>/dev/null || true
start "$old" "$work/a" $a
api -X PUT "http://127.0.0.1:$b/v1/admin/vehicles/v-3/driver" -d '{"username":"cy"}' >/dev/null
expect "$(token $a "$(login $a cy)" v-3)" 200 "the old server restarted on the upgraded schema"
expect "$(token $b "$(login $b cy)" v-3)" 200 "the new server beside it"
echo "test-rolling-upgrade: $commit and this checkout served side by side on one PostgreSQL (schema version $version); every check passed"
