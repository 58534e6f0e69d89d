#!/usr/bin/env bash
# Checks both servers against their own OpenAPI documents with schemathesis, every check on:
# the token server (docs/token-server.openapi.yaml) and the local Fleet Engine's REST door
# (docs/local-fleet-engine.openapi.yaml) and its test harness (docs/local-fleet-engine-emulator.openapi.yaml), each started here on loopback with a fresh data
# directory and fed real credentials, so that authenticated operations are exercised: the
# token server's admin key and a driver's session, the engine's server token (on-demand methods)
# and delivery server token (delivery methods). Every check is on
# (schemathesis's default; scripts/schemathesis/*.toml say what each server's run adds or
# narrows, and why). Exits non-zero on any finding.
#
#   scripts/schemathesis.sh            # 120 s of fuzzing per server after the examples
#   SECONDS_PER_SERVER=600 scripts/schemathesis.sh
#   FLEETAUTH=.build/release/fleetauth scripts/schemathesis.sh
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${SECONDS_PER_SERVER:-120}
fleetauth=${FLEETAUTH:-.build/debug/fleetauth}
[[ -x $fleetauth ]] || swift build --product fleetauth
command -v schemathesis >/dev/null || { echo "schemathesis is not installed (pip install schemathesis)" >&2; exit 1; }

work=$(mktemp -d)
servers=()
stop_servers() {
    for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${servers[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap stop_servers EXIT

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Waits until GET /healthz on `port` answers 200 (at most 30 s).
wait_until_healthy() {
    python3 - "$1" <<'PY'
import sys, time, urllib.request
for _ in range(150):
    try:
        if urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/healthz", timeout=1).status == 200: sys.exit(0)
    except Exception:
        time.sleep(0.2)
sys.exit(f"no server answers on port {sys.argv[1]}")
PY
}

# `method path body` to the token server with the admin key; prints the answer's body.
token_server_call() {
    python3 - "$token_port" "$admin_key" "$@" <<'PY'
import json, sys, urllib.request
port, key, method, path = sys.argv[1:5]
body = sys.argv[5].encode() if len(sys.argv) > 5 else None
request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body, method=method,
                                 headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
print(urllib.request.urlopen(request).read().decode())
PY
}

echo "== token server"
token_port=$(free_port)
"$fleetauth" token-server --data-dir "$work/token-server" --port "$token_port" --project schemathesis --bcrypt-cost 4 \
    >"$work/token-server.log" 2>&1 &
servers+=($!)
wait_until_healthy "$token_port"
admin_key=$(tr -d '[:space:]' < "$work/token-server/admin-key")
token_server_call POST /v1/admin/accounts '{"username":"driver-1","password":"correct horse","role":"driver"}' >/dev/null
token_server_call PUT /v1/admin/vehicles/vehicle-1/driver '{"username":"driver-1"}' >/dev/null
log_in() {
    token_server_call POST /v1/sessions '{"username":"driver-1","password":"correct horse"}' \
        | python3 -c 'import json, sys; print(json.load(sys.stdin)["sessionToken"])'
}
# Assignments of their own, so that a failed login stops the script (set -e) rather than
# handing schemathesis an empty token, with which every authenticated call would be a 401.
session_token=$(log_in)
session_to_end=$(log_in)
[[ -n $admin_key && -n $session_token && -n $session_to_end ]] || { echo "no admin key or session token" >&2; exit 1; }
ADMIN_KEY=$admin_key SESSION_TOKEN=$session_token SESSION_TO_END=$session_to_end \
    schemathesis --config-file scripts/schemathesis/token-server.toml run "http://127.0.0.1:$token_port/openapi.yaml" \
    --max-time "$seconds"

echo "== local Fleet Engine"
# Two accounts: a server token carries on-demand claims only, so the delivery methods take a
# delivery server token of an account of its own.
"$fleetauth" keygen --project schemathesis --role server --out "$work/server.json" >/dev/null
"$fleetauth" keygen --project schemathesis --role delivery-super-user --out "$work/delivery.json" >/dev/null
engine_port=$(free_port)
"$fleetauth" fleet-engine --data-dir "$work/fleet-engine" --project schemathesis \
    --trust "$work/server.json" --trust "$work/delivery.json" \
    --port "$engine_port" --grpc-port 0 >"$work/fleet-engine.log" 2>&1 &
servers+=($!)
wait_until_healthy "$engine_port"
fleet_token=$("$fleetauth" mint --key "$work/server.json" --kind server --lifetime 3600)
delivery_token=$("$fleetauth" mint --key "$work/delivery.json" --kind delivery-server --lifetime 3600)
[[ -n $fleet_token && -n $delivery_token ]] || { echo "no server or delivery server token for the engine" >&2; exit 1; }
# The repository's document, which the engine serves at /openapi.yaml once built (a test checks
# that they are the same), so that a document ahead of the binary is checked as written.
FLEET_TOKEN=$fleet_token DELIVERY_TOKEN=$delivery_token \
    schemathesis --config-file scripts/schemathesis/local-fleet-engine.toml run docs/local-fleet-engine.openapi.yaml \
    --url "http://127.0.0.1:$engine_port" --max-time "$seconds"

echo "== local Fleet Engine, test harness"
# The harness's own document, against the same engine once the API's run is over: moving the
# clock or injecting faults would change the API's answers under the run above.
schemathesis --config-file scripts/schemathesis/local-fleet-engine-emulator.toml run docs/local-fleet-engine-emulator.openapi.yaml \
    --url "http://127.0.0.1:$engine_port" --max-time "${HARNESS_SECONDS:-30}"
