#!/usr/bin/env python3
"""A network namespace reached over an impaired link, for the bad-network tests.

    impaired_link.py TAG N

Makes the namespace `fa-TAG` with two links to this one, in the range set aside for testing
networks (198.18.0.0/15, RFC 2544), so that they meet no real network:
  - the app link, 198.18.N.1 here to 198.18.N.2 there: two TUN devices with this process
    between them, carrying every IP packet across with the impairment of the moment;
  - the control link, 198.19.N.1 here to 198.19.N.2 there: a plain veth pair, for what the
    test watches through while the app link suffers.

This kernel has no `tc netem` (no sch_netem), so the impairment is applied here, per packet
and per direction, as netem would apply it on each side's egress: the kernels at both ends see
real delay, real loss and a real partition, and their TCP retransmits as it would.

Prints `ready on PORT` once both links are up: a POST to http://127.0.0.1:PORT/ then sets
the impairment to its body, answering 200 `ok` (400 for an unknown one):
  delay MS      every packet waits MS milliseconds, each way
  loss PERCENT  every packet is dropped with this chance, each way
  partition     every packet is dropped
  heal          nothing is delayed or dropped any more
Ends on SIGTERM, or when the process that started it ends, taking the namespace and both links
with it.
"""
import fcntl
import heapq
import http.server
import os
import random
import select
import signal
import struct
import subprocess
import sys
import threading
import time

TUNSETIFF = 0x400454CA
IFF_TUN = 0x0001
IFF_NO_PI = 0x1000


def ip(*arguments, namespace=None):
    command = ["ip"] + (["-n", namespace] if namespace else []) + list(arguments)
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"impaired_link: `{' '.join(command)}` failed: {result.stderr.strip()}")


def open_tun(name):
    """A TUN device of this process, carrying bare IP packets; it goes when the process does."""
    descriptor = os.open("/dev/net/tun", os.O_RDWR | os.O_NONBLOCK)
    fcntl.ioctl(descriptor, TUNSETIFF, struct.pack("16sH", name.encode(), IFF_TUN | IFF_NO_PI))
    return descriptor


class Impairment:
    """What happens to a packet now: dropped, or held for a delay."""

    def __init__(self):
        self.delay = 0.0
        self.loss = 0.0

    def apply(self, command):
        """Applies `command` (see the module's doc); False when it is not one."""
        words = command.split()
        if len(words) == 2 and not words[1].replace(".", "", 1).isdigit():
            return False
        if words == ["heal"]:
            self.delay, self.loss = 0.0, 0.0
        elif words == ["partition"]:
            self.loss = 1.0
        elif len(words) == 2 and words[0] == "delay":
            self.delay = float(words[1]) / 1000
        elif len(words) == 2 and words[0] == "loss":
            self.loss = float(words[1]) / 100
        else:
            return False
        return True

    def dropped(self):
        return self.loss >= 1.0 or random.random() < self.loss


def set_up(tag, subnet, namespace):
    here, there = f"fa-{tag}-a", f"fa-{tag}-b"
    control_here, control_there = f"fa-{tag}-c", f"fa-{tag}-d"
    ip("netns", "add", namespace)
    app_here, app_there = open_tun(here), open_tun(there)
    ip("link", "set", there, "netns", namespace)
    ip("link", "add", control_here, "type", "veth", "peer", "name", control_there)
    ip("link", "set", control_there, "netns", namespace)
    for name, address, peer, where in [
        (here, f"198.18.{subnet}.1", f"198.18.{subnet}.2", None),
        (there, f"198.18.{subnet}.2", f"198.18.{subnet}.1", namespace),
        (control_here, f"198.19.{subnet}.1/30", None, None),
        (control_there, f"198.19.{subnet}.2/30", None, namespace),
    ]:
        ip("addr", "add", address, *(["peer", peer] if peer else []), "dev", name, namespace=where)
        ip("link", "set", name, "up", namespace=where)
    ip("link", "set", "lo", "up", namespace=namespace)
    return app_here, app_there


def serve_control(impairment):
    """The control door on loopback, on a thread of its own; returns its port."""

    class Control(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            command = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
            applied = impairment.apply(command)
            answer = b"ok\n" if applied else f"unknown impairment {command!r}\n".encode()
            self.send_response(200 if applied else 400)
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, *_):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Control)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server.server_address[1]


def forward(app_here, app_there, impairment, parent):
    """Carries packets across while the process `parent` that started this one runs."""
    # (due, sequence, destination, packet): equal delays keep each direction in order.
    queue, sequence = [], 0
    across = {app_here: app_there, app_there: app_here}
    while os.getppid() == parent:
        timeout = min(1.0, max(0.0, queue[0][0] - time.monotonic())) if queue else 1.0
        readable, _, _ = select.select([app_here, app_there], [], [], timeout)
        for source in readable:
            while True:
                try:
                    packet = os.read(source, 65536)
                except BlockingIOError:
                    break
                if impairment.dropped():
                    continue
                sequence += 1
                heapq.heappush(queue, (time.monotonic() + impairment.delay, sequence, across[source], packet))
        now = time.monotonic()
        while queue and queue[0][0] <= now:
            _, _, destination, packet = heapq.heappop(queue)
            try:
                os.write(destination, packet)
            except OSError:
                pass  # a device going down drops what it carried, as a link would


def tear_down(tag, namespace):
    """Removes the namespace (ending what still runs in it) and the control link's near end."""
    pids = subprocess.run(["ip", "netns", "pids", namespace], capture_output=True, text=True).stdout.split()
    for pid in pids:
        try:
            os.kill(int(pid), signal.SIGKILL)
        except (ProcessLookupError, ValueError):
            pass
    subprocess.run(["ip", "netns", "del", namespace], capture_output=True)
    subprocess.run(["ip", "link", "del", f"fa-{tag}-c"], capture_output=True)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    parent = os.getppid()
    tag, subnet = sys.argv[1], int(sys.argv[2])
    namespace = f"fa-{tag}"
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    tear_down(tag, namespace)  # what a run of the same tag may have left
    try:
        app_here, app_there = set_up(tag, subnet, namespace)
        impairment = Impairment()
        print(f"ready on {serve_control(impairment)}", flush=True)
        forward(app_here, app_there, impairment, parent)
    finally:
        tear_down(tag, namespace)


if __name__ == "__main__":
    main()
