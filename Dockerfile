# The FleetAuth token server's image: Debian bookworm-slim, the release tarball, and only the
# shared libraries its binary needs (packaging/runtime-packages.txt), run as a non-root user.
#
# There is no build stage: build the tarball first, then the image, from the repository's root:
#   scripts/release.sh
#   docker build -t fleetauth .
#   docker run -p 8080:8080 -v fleetauth-data:/var/lib/fleetauth fleetauth
#
# No Docker engine runs in CI. CI tests the same contents instead: scripts/check-release.sh
# unpacks the same tarball (built --debug there, for time) into a debootstrap --variant=minbase bookworm that has exactly the
# packages of packaging/runtime-packages.txt and nothing from Swift, and runs
# `fleetauth --version` and `fleetauth demo` there.
FROM debian:bookworm-slim

# Exactly the packages the binary needs (the same list the chroot of CI gets).
COPY packaging/runtime-packages.txt /tmp/runtime-packages.txt
RUN apt-get update \
    && grep -o '^[^#[:space:]]*' /tmp/runtime-packages.txt | grep . \
       | xargs apt-get install -y --no-install-recommends \
    && rm -rf /var/lib/apt/lists/* /tmp/runtime-packages.txt

# The tarball scripts/release.sh wrote; ADD unpacks it into /opt/fleetauth-VERSION/.
ARG VERSION=0.9.0
ARG ARCH=x86_64
ADD dist/fleetauth-${VERSION}-linux-${ARCH}.tar.gz /opt/
RUN ln -s /opt/fleetauth-${VERSION}/bin/fleetauth /usr/local/bin/fleetauth \
    && groupadd --gid 10001 fleetauth \
    && useradd --uid 10001 --gid 10001 --no-create-home --home-dir /var/lib/fleetauth --shell /usr/sbin/nologin fleetauth \
    && install -d -o fleetauth -g fleetauth -m 0700 /var/lib/fleetauth

# By number, so that Kubernetes' runAsNonRoot can see the user is not root.
USER 10001:10001
# The token server listens on $PORT, as Cloud Run and most platforms give it, on all addresses
# (0.0.0.0 is the default host when PORT sets the port), and keeps its keys, admin key and
# SQLite database in the data directory: mount a volume there (docs/deploy.md has PostgreSQL and
# keyless signing for replicas). Every option can be set so: `--some-option` is
# FLEETAUTH_SOME_OPTION.
ENV PORT=8080 \
    FLEETAUTH_DATA_DIR=/var/lib/fleetauth
VOLUME /var/lib/fleetauth
EXPOSE 8080

# /livez answers 200 while the process serves. bookworm-slim has no curl and the image installs
# nothing beyond what the binary needs, so bash asks over its /dev/tcp. Kubernetes and Cloud Run
# ignore HEALTHCHECK: give them /livez and /readyz probes (docs/deploy.md).
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
    CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${PORT} && printf 'GET /livez HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200 '"]

ENTRYPOINT ["fleetauth"]
CMD ["token-server"]
