# Sourced by scripts/test-under-load.sh and scripts/find-stalled-test.sh: a machine as busy as a
# shared CI machine can be. Starts PostgreSQL as CI starts it (unless FLEETAUTH_TEST_POSTGRES_URL
# is set already) and two busy loops, one per core; both are stopped when the script exits.
# The script's own cleanup, if any, goes in the variable `cleanup` before this is sourced.

postgres_started=""
if [[ -z "${FLEETAUTH_TEST_POSTGRES_URL:-}" ]]; then
    eval "$(.ci/test-postgres.sh start)"
    postgres_started=$FLEETAUTH_TEST_POSTGRES_DIR
fi

hogs=()
for _ in 1 2; do
    (while :; do :; done) &
    hogs+=($!)
done
trap 'kill "${hogs[@]}" 2>/dev/null || true; [[ -z "$postgres_started" ]] || .ci/test-postgres.sh stop "$postgres_started"; eval "${cleanup:-}"' EXIT
