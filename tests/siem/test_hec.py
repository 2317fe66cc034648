"""Splunk's HTTP Event Collector, as its published behaviour has it, served by a small HTTPS
server here: the token in ``Authorization: Splunk TOKEN``, a channel id in
``X-Splunk-Request-Channel`` (refused without one when acknowledgement is on), an ``ackId``
per accepted request, and ``/services/collector/ack?channel=ID`` answering which ackIds were
indexed. A batch counts only once acknowledged."""

from __future__ import annotations

import json
import shutil
import ssl
import threading
import urllib.parse
from collections import Counter
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from portal_admin.cli.main import main
from portal_admin.evidence import keys

from .receivers import Pki, make_journal, signatures

TOKEN = "11111111-2222-3333-4444-555555555555"

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is needed")


class Collector(ThreadingHTTPServer):
    """The collector's state: events indexed, events waiting for their ack, the acks."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], acks: bool = True) -> None:
        super().__init__(address, Handler)
        self.acks = acks
        #: Polls before an ack turns true (0: at once); -1: never.
        self.ack_after = 1
        self.indexed: list[dict[str, Any]] = []
        self.waiting: dict[int, tuple[list[dict[str, Any]], int]] = {}
        self.next_ack = 0
        self.channels: set[str] = set()
        self.polls = 0
        self.html = False
        self.lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    server: Collector

    def log_message(self, *args: Any) -> None:
        pass

    def _answer(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.headers.get("Authorization") != f"Splunk {TOKEN}":
            self._answer(401, {"text": "Invalid token", "code": 4})
            return
        channel = self.headers.get("X-Splunk-Request-Channel")
        collector = self.server
        if collector.acks and not channel:
            self._answer(400, {"text": "Data channel is missing", "code": 10})
            return
        url = urllib.parse.urlsplit(self.path)
        if collector.html:  # a proxy's page where the collector should answer
            data = b"<html>Welcome</html>"
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        with collector.lock:
            if url.path == "/services/collector/event":
                events, decoder, text, at = [], json.JSONDecoder(), body.decode(), 0
                while at < len(text):
                    event, at = decoder.raw_decode(text, at)
                    events.append(event)
                if not collector.acks:
                    collector.indexed.extend(events)
                    self._answer(200, {"text": "Success", "code": 0})
                    return
                collector.channels.add(str(channel))
                ack = collector.next_ack
                collector.next_ack += 1
                collector.waiting[ack] = (events, 0)
                self._answer(200, {"text": "Success", "code": 0, "ackId": ack})
            elif url.path == "/services/collector/ack":
                collector.polls += 1
                assert urllib.parse.parse_qs(url.query)["channel"] == [channel]
                status = {}
                for ack in json.loads(body)["acks"]:
                    events, polls = collector.waiting.get(ack, ([], -2))
                    done = collector.ack_after >= 0 and polls >= collector.ack_after
                    if done and polls >= 0:
                        collector.indexed.extend(events)
                        del collector.waiting[ack]
                    elif polls >= 0:
                        collector.waiting[ack] = (events, polls + 1)
                    status[str(ack)] = bool(done and polls >= 0)
                self._answer(200, {"acks": status})
            else:
                self._answer(404, {"text": "Not found", "code": 404})


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    return Pki.make(tmp_path_factory.mktemp("pki"))


@pytest.fixture
def collector(pki: Pki) -> Iterator[Collector]:
    server = Collector(("127.0.0.1", 0))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(pki.cert("server"), pki.key("server"))
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def _forward(journal: Path, collector: Collector, pki: Pki, *extra: str) -> list[str]:
    port = collector.server_address[1]
    return ["journal", "forward", "--once", "--to", f"hec+https://127.0.0.1:{port}",
            "--journal", str(journal), "--ca-bundle", str(pki.ca), "--format", "json",
            *extra]  # fmt: skip


def _hashes(events: list[dict[str, Any]]) -> Counter[str]:
    return Counter(
        e["event"]["portal_admin"]["line"].get("signature") or e["event"]["event"]["hash"]
        for e in events
    )


def test_every_record_is_sent_and_counted_only_once_acknowledged(
    tmp_path: Path, collector: Collector, pki: Pki, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    monkeypatch.setenv("PORTAL_ADMIN_HEC_TOKEN", TOKEN)
    key = keys.signing_key(keys.MemoryStore())
    journal = tmp_path / "journal.jsonl"
    hashes = make_journal(journal, 250, key)
    assert main(_forward(journal, collector, pki, "--batch", "100")) == 0
    said = capsys.readouterr().err
    assert "250 record(s) and 2 checkpoint(s) sent" in said
    assert collector.polls >= 3 and not collector.waiting
    seen = _hashes(collector.indexed)
    assert set(seen) == set(hashes) | set(signatures(journal))
    assert max(seen.values()) == 1
    assert len(collector.channels) == 1
    # Nothing new: nothing sent; the token is in no file the forwarder wrote.
    assert main(_forward(journal, collector, pki)) == 0
    assert len(collector.indexed) == 252
    assert "0 record(s)" in capsys.readouterr().err
    from portal_admin.files.paths import data_dir

    for path in (data_dir() / "forward").glob("*"):
        assert TOKEN not in path.read_text()


def test_an_unacknowledged_batch_keeps_the_cursor_and_is_sent_again(
    tmp_path: Path, collector: Collector, pki: Pki, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    monkeypatch.setenv("PORTAL_ADMIN_HEC_TOKEN", TOKEN)
    journal = tmp_path / "journal.jsonl"
    hashes = make_journal(journal, 30, None)
    collector.ack_after = -1  # the indexer never confirms
    assert main(_forward(journal, collector, pki, "--ack-timeout", "0.5")) == 1
    said = capsys.readouterr().err
    assert "did not acknowledge the batch" in said
    assert collector.indexed == []
    channel = set(collector.channels)
    collector.ack_after = 0
    assert main(_forward(journal, collector, pki)) == 0
    assert "30 record(s)" in capsys.readouterr().err
    assert collector.channels == channel  # the same channel, kept with the cursor
    seen = _hashes(collector.indexed)
    assert set(seen) == set(hashes) and max(seen.values()) == 1


def test_without_acknowledgement_success_counts(
    tmp_path: Path, pki: Pki, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = Collector(("127.0.0.1", 0), acks=False)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(pki.cert("server"), pki.key("server"))
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        monkeypatch.setenv("PORTAL_ADMIN_HEC_TOKEN", TOKEN)
        journal = tmp_path / "journal.jsonl"
        hashes = make_journal(journal, 40, None)
        assert main(_forward(journal, server, pki, "--format", "cef")) == 0
        assert server.polls == 0
        assert len(server.indexed) == 40
        assert all(e["sourcetype"] == "cef" for e in server.indexed)
        assert {h for h in hashes if any(h in e["event"] for e in server.indexed)} == set(hashes)
    finally:
        server.shutdown()
        server.server_close()


def test_a_wrong_or_missing_token(
    tmp_path: Path, collector: Collector, pki: Pki, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    journal = tmp_path / "journal.jsonl"
    make_journal(journal, 5, None)
    monkeypatch.delenv("PORTAL_ADMIN_HEC_TOKEN", raising=False)
    assert main(_forward(journal, collector, pki)) == 2
    assert "PORTAL_ADMIN_HEC_TOKEN, which is not set" in capsys.readouterr().err
    monkeypatch.setenv("PORTAL_ADMIN_HEC_TOKEN", "wrong-token")
    assert main(_forward(journal, collector, pki)) == 1
    said = capsys.readouterr().err
    assert "refused (HTTP 401, code 4: Invalid token)" in said
    assert "wrong-token" not in said
    assert collector.indexed == [] and not collector.waiting


def test_a_page_that_is_not_the_collectors_answer_is_no_acceptance(
    tmp_path: Path, collector: Collector, pki: Pki, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    monkeypatch.setenv("PORTAL_ADMIN_HEC_TOKEN", TOKEN)
    journal = tmp_path / "journal.jsonl"
    make_journal(journal, 12, None)
    collector.html = True
    assert main(_forward(journal, collector, pki)) == 1
    assert "not a collector's answer" in capsys.readouterr().err
    collector.html = False
    assert main(_forward(journal, collector, pki)) == 0
    assert "12 record(s)" in capsys.readouterr().err  # nothing was counted the first time
