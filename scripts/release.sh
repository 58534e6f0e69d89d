#!/usr/bin/env bash
# Builds the release tarball anyone can run without Swift: dist/fleetauth-VERSION-linux-ARCH.tar.gz,
# holding fleetauth-VERSION/ with bin/fleetauth (release, the Swift runtime linked in, stripped),
# LICENSE, README.md and the systemd unit (packaging/). What the binary still needs from the
# system is packaging/runtime-packages.txt; scripts/check-release.sh runs the tarball in a
# Debian that has only those packages.
#
#   scripts/release.sh [--debug] [--scratch-path DIR]   # DIR: the build folder, .build-release by default
#
# --debug builds the same tarball from a debug build, named ...-debug.tar.gz: the same libraries
# linked and the same files, in a third of a release build's time. CI checks the packaging with it
# (a cold static release build would take half of CI's 90 minutes); what ships is the release.
#
# A folder of its own: --static-swift-stdlib puts -static-stdlib on every compile command, so a
# static build in .build/release would recompile every module and the next plain release build
# (scripts/bench.sh) would recompile them all back.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build-release
configuration=release
while (($#)); do
    case $1 in
        --debug) configuration=debug; shift ;;
        --scratch-path) scratch=$2; shift 2 ;;
        *) echo "usage: scripts/release.sh [--debug] [--scratch-path DIR]" >&2; exit 2 ;;
    esac
done

version=$(tr -d '[:space:]' <VERSION)
name=fleetauth-$version
tarball=dist/$name-linux-$(uname -m)$([[ $configuration == debug ]] && echo -debug).tar.gz
# Package.swift writes the commit into the binary, for `fleetauth --version`.
FLEETAUTH_BUILD_COMMIT=$(git rev-parse HEAD)
export FLEETAUTH_BUILD_COMMIT
if [[ -n $(git status --porcelain -- Package.swift Sources VERSION) ]]; then
    echo "release: warning: Package.swift, Sources/ or VERSION changed since $FLEETAUTH_BUILD_COMMIT; --version names that commit all the same" >&2
fi

# The static Foundation links the system's libcurl (for FoundationNetworking) by name: -lcurl
# needs the development package's libcurl.so.
if ! compgen -G '/usr/lib/*/libcurl.so' >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libcurl4-openssl-dev
fi

started=$SECONDS
build=(swift build -c "$configuration" --product fleetauth --static-swift-stdlib --scratch-path "$scratch")
"${build[@]}"
binary=$("${build[@]}" --show-bin-path)/fleetauth
echo "release: built in $((SECONDS - started)) s"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/$name/bin"
strip -o "$stage/$name/bin/fleetauth" "$binary"
cp LICENSE README.md packaging/fleetauth-token-server.service "$stage/$name/"

said=$("$stage/$name/bin/fleetauth" --version)
if [[ $said != "$version (commit $FLEETAUTH_BUILD_COMMIT)" ]]; then
    echo "release: fleetauth --version says '$said', not '$version (commit $FLEETAUTH_BUILD_COMMIT)'" >&2
    exit 1
fi

# Names sorted, owners and times fixed: the same binary gives the same tarball, byte for byte.
mkdir -p dist
tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner \
    --mtime="@$(git log -1 --format=%ct)" -cf - "$name" | gzip -9n >"$tarball"
echo "release: $tarball ($(du -k "$tarball" | cut -f1) KiB; bin/fleetauth $(du -k "$stage/$name/bin/fleetauth" | cut -f1) KiB stripped, $(du -k "$binary" | cut -f1) KiB before): $said"
