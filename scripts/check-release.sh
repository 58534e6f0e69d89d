#!/usr/bin/env bash
# Proves the release tarball runs where no Swift is installed: a minimal Debian bookworm
# (debootstrap --variant=minbase) plus only the packages of packaging/runtime-packages.txt, the
# same contents as the Dockerfile's image, in .build-chroot/ (kept between runs, made anew when
# the list changes). There, under chroot and as nobody, `fleetauth --version` must name the
# version and a commit and `fleetauth demo` must pass. Runs as root; each step says its time.
#
#   scripts/check-release.sh [TARBALL]   # default: what scripts/release.sh wrote
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(tr -d '[:space:]' <VERSION)
tarball=${1:-dist/fleetauth-$version-linux-$(uname -m).tar.gz}
root=$PWD/.build-chroot
packages=$(grep -o '^[^#[:space:]]*' packaging/runtime-packages.txt | grep . | sort | paste -sd, -)
# The Debian mirror this machine's apt uses (deb822 or one-line sources).
mirror=$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null \
    | sed -n 's/^URIs: *\([^ ]*\).*/\1/p; s/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\) bookworm .*/\2/p' \
    | grep -v security | head -1 || true)
mirror=${mirror:-http://deb.debian.org/debian}
log=$(mktemp)
started=$SECONDS
# One run at a time: two debootstraps in one folder break each other.
exec 9<scripts/check-release.sh
flock 9

step() {
    local name=$1 step_started=$SECONDS
    shift
    echo "== check-release: $name"
    "$@"
    echo "== check-release: $name took $((SECONDS - step_started)) s"
}

mounted_under_root() { findmnt -rn -o TARGET | awk -v root="$root/" 'index($0, root) == 1 { found = 1 } END { exit !found }'; }

# The chroot gets /proc (without it this binary sees no command-line arguments); debootstrap made
# the few device nodes of its /dev.
unmount() {
    if mountpoint -q "$root/proc"; then umount "$root/proc" || umount -l "$root/proc"; fi
    rm -f "$log"
}
trap unmount EXIT

make_root() {
    local stamp="$root/.fleetauth-packages"
    if [[ -f $stamp && $(cat "$stamp") == "$packages $mirror" ]]; then
        echo "reusing $root (bookworm minbase + $packages)"
        return
    fi
    if ! command -v debootstrap >/dev/null; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap
    fi
    echo "debootstrap --variant=minbase --include=$packages bookworm $root $mirror"
    # A second try for a mirror's hiccup.
    for attempt in 1 2; do
        # Never remove a folder that still has something mounted in it.
        if mounted_under_root; then echo "check-release: something is mounted under $root" >&2; exit 1; fi
        rm -rf "$root"
        debootstrap --variant=minbase --include="$packages" bookworm "$root" "$mirror" >"$log" 2>&1 && break
        tail -30 "$log"
        if ((attempt == 2)); then echo "check-release: debootstrap failed" >&2; exit 1; fi
        echo "check-release: debootstrap failed; trying once more"
    done
    rm -f "$root"/var/cache/apt/archives/*.deb
    echo "$packages $mirror" >"$stamp"
}

install_tarball() {
    rm -rf "$root"/opt/fleetauth-* "$root/usr/local/bin/fleetauth"
    tar -xzf "$tarball" -C "$root/opt"
    ln -s "/opt/fleetauth-$version/bin/fleetauth" "$root/usr/local/bin/fleetauth"
    ls -l "$root/opt/fleetauth-$version" "$root/opt/fleetauth-$version/bin"
}

no_swift_inside() {
    local found
    found=$(find "$root" -xdev \( -name 'libswift*' -o -name 'swift' -o -name 'swiftc' -o -name 'swift-frontend' \
        -o -name 'libFoundation*.so*' -o -name 'libdispatch.so*' -o -name 'libBlocksRuntime.so*' \) -print)
    if [[ -n $found ]]; then echo "check-release: Swift in the chroot:"; echo "$found"; exit 1; fi
    echo "no Swift runtime, Foundation or toolchain file anywhere in $root"
}

# Runs a command in the chroot as nobody, with a clean environment.
inside() {
    chroot --userspec=65534:65534 "$root" \
        /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/tmp LANG=C.UTF-8 "$@"
}

libraries_found() {
    inside ldd /usr/local/bin/fleetauth | tee "$log"
    if grep -q "not found" "$log"; then echo "check-release: a library is missing" >&2; exit 1; fi
}

version_says() {
    local said
    said=$(inside fleetauth --version)
    echo "fleetauth --version: $said"
    if ! [[ $said =~ ^"$version (commit "[0-9a-f]{40}")"$ ]]; then
        echo "check-release: expected '$version (commit <40 hex digits>)'" >&2
        exit 1
    fi
}

# The demo's exit code alone would not do: without /proc the binary sees no arguments, and
# `fleetauth demo` prints the help and exits 0.
demo_passes() {
    inside fleetauth demo | tee "$log"
    grep -qx "Result: OK" "$log" || { echo "check-release: the demo did not report 'Result: OK'" >&2; exit 1; }
}

# The Dockerfile unpacks this version's tarball, and docs/deploy.md names every package.
recipes_agree() {
    grep -qx "ARG VERSION=$version" Dockerfile || { echo "check-release: the Dockerfile's ARG VERSION is not $version" >&2; exit 1; }
    if [[ -f docs/deploy.md ]]; then
        for package in ${packages//,/ }; do
            grep -qw -- "$package" docs/deploy.md || { echo "check-release: docs/deploy.md does not list $package" >&2; exit 1; }
        done
    fi
    echo "the Dockerfile unpacks fleetauth-$version and installs packaging/runtime-packages.txt: ${packages//,/ }"
}

[[ -f $tarball ]] || { echo "check-release: no $tarball (scripts/release.sh makes it)" >&2; exit 1; }
step "Dockerfile and docs/deploy.md" recipes_agree
step "bookworm minbase with the runtime packages" make_root
step "unpack $tarball" install_tarball
step "no Swift in the chroot" no_swift_inside
mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
step "ldd fleetauth" libraries_found
step "fleetauth --version" version_says
step "fleetauth demo" demo_passes
echo "check-release: passed in $((SECONDS - started)) s"
