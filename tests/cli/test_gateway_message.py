"""The command line reaching a server whose gateway answers ``502 Bad Gateway`` with an HTML
page says that the gateway answered instead of the server (the doctor's words), with the
status and the page's title, not that the answer was malformed."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from portal_admin.cli.errors import EXIT_FAILED
from portal_admin.cli.main import main

from .conftest import ADMIN

PAGE = (
    b"<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n"
    b"<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n"
)


class Gateway(BaseHTTPRequestHandler):
    """Answers every request as nginx does when the server behind it is down."""

    paths: list[str]

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        self.paths.append(self.path)
        self.send_response(502, "Bad Gateway")
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    do_GET = do_POST = _answer

    def log_message(self, format: str, *args: object) -> None:
        """Quiet."""


@pytest.fixture
def gateway() -> Iterator[tuple[str, list[str]]]:
    paths: list[str] = []
    handler = type("Handler", (Gateway,), {"paths": paths})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", paths
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def test_a_502_page_is_named_as_the_gateways(
    gateway: tuple[str, list[str]],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    url, paths = gateway
    monkeypatch.setenv("PORTAL_PASSWORD", "not-used-here")
    argv = ["--server", url, "--access-code", "CODE", "--user", ADMIN]
    argv += ["--password-env", "PORTAL_PASSWORD", "accounts", "query"]
    assert main(argv) == EXIT_FAILED
    assert paths  # the request reached the gateway
    err = capsys.readouterr().err
    assert "CLIENT.GATEWAY" in err
    assert "gateway or proxy answered" in err and "instead of the server" in err
    assert "HTTP 502" in err and "'502 Bad Gateway'" in err
    assert "try again later" in err and "administrators" in err
    assert "MALFORMED" not in err and "not an envelope" not in err
    assert "not-used-here" not in err
