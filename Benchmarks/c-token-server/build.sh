#!/usr/bin/env bash
# Builds the C competitor of `fleetauth-bench token-server` (token-server.c) into $1 (default:
# .build-c-token-server/ at the repository root) and prints that folder. Needs a C
# compiler, OpenSSL 3's and SQLite's headers (Debian's gcc, libssl-dev and libsqlite3-dev,
# installed when missing).
# Rebuilds only when the source is newer than the program.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-.build-c-token-server}
if ! command -v cc >/dev/null || [[ ! -f /usr/include/openssl/evp.h || ! -f /usr/include/sqlite3.h ]]; then
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc libc6-dev libssl-dev libsqlite3-dev >&2
fi
mkdir -p "$out"
source=Benchmarks/c-token-server/token-server.c
if [[ ! -x "$out/token-server" || "$source" -nt "$out/token-server" ]]; then
    cc -O2 -Wall -Wextra -o "$out/token-server" "$source" -lcrypto -lsqlite3 -lpthread
fi
echo "$out"
