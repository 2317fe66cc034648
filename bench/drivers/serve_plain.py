"""``python -m bench.drivers.serve_plain``: the sandbox with the plain refresh twin, served on
a free loopback port (prints ``Sandbox listening on http://127.0.0.1:PORT``)."""

from __future__ import annotations

import socket

import uvicorn

from ..common import in_process_app
from ..plain_refresh import add_plain_refresh


def main() -> None:
    app = add_plain_refresh(in_process_app(accounts=200))
    # proto=IPPROTO_TCP: asyncio sets TCP_NODELAY only on such sockets (else Nagle and
    # delayed ACKs add 40 ms to every exchange).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    sock.setblocking(False)
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    print(f"Sandbox listening on http://127.0.0.1:{port}", flush=True)
    server.run(sockets=[sock])


if __name__ == "__main__":
    main()
