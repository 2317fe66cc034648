"""Forwarding against a hostile data folder, journal text and collector answers (red-team
findings): a cursor moved forward by hand, a record's time in other digits, an answer of
the ack endpoint's shape to an event POST."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from portal_admin.evidence.forward import cursor as cursors
from portal_admin.evidence.forward.destinations import Options, open_destination
from portal_admin.evidence.forward.formats import Item, rfc5424
from portal_admin.evidence.forward.forwarder import Forwarder
from portal_admin.evidence.journal import FORMAT, GENESIS, canonical, chain_hash

KEY = b"k" * 32  # the seal key (what cursor.seal_key() derives from the installation's key)


def _journal(path: Path, count: int) -> list[str]:
    """Append ``count`` chained change records; their hashes."""
    head, seq = GENESIS, 0
    if path.exists() and path.stat().st_size:
        last = json.loads(path.read_bytes().splitlines()[-1])
        head, seq = last["hash"], last["seq"]
    out, hashes = [], []
    for _ in range(count):
        seq += 1
        body = {"kind": "change", "time": "2026-11-28T01:00:00.000+00:00",
                "operation": "accounts.status", "outcome": "ok", "targets": [f"U{seq}"],
                "seq": seq, "segment": 0, "format": FORMAT}  # fmt: skip
        digest = chain_hash(head, body)
        out.append(canonical({**body, "prev": head, "hash": digest}) + b"\n")
        hashes.append(digest)
        head = digest
    with path.open("ab") as fh:
        fh.write(b"".join(out))
    return hashes


def _forwarder(journal: Path, out: Path, base: Path, key: bytes | None = KEY) -> Forwarder:
    destination = open_destination(out.as_uri(), Options())
    return Forwarder(journal, destination, "json", cursors=base, seal_key=key)


def _sent(out: Path) -> list[int]:
    return [json.loads(r)["portal_admin"]["line"]["seq"] for r in out.read_bytes().splitlines()]


def test_a_cursor_moved_forward_skips_records_silently(tmp_path: Path) -> None:
    """Attack: after a run forwarded records 1..10, someone who can write the data folder
    edits the cursor file to name record 19 - its real seq, hash and offset, so every check
    of the cursor passed. The next run started after 19: records 11..19 never reached the
    SIEM, without a word. Now the cursor is sealed (HMAC with a key derived from the
    installation's key, kept in the keyring, not the data folder): the edited cursor is
    refused by name, and ``--reset`` sends everything again."""
    journal, out, base = tmp_path / "journal.jsonl", tmp_path / "out.jsonl", tmp_path / "c"
    _journal(journal, 10)
    forwarder = _forwarder(journal, out, base)
    forwarder.run()
    hashes = _journal(journal, 15)  # seqs 11..25
    assert cursors.load(forwarder.cursor_file, KEY) is not None  # its own cursor is believed
    data = json.loads(forwarder.cursor_file.read_text())
    lines = journal.read_bytes().splitlines(keepends=True)
    data["seq"], data["hash"] = 19, hashes[8]
    data["offset"] = sum(len(x) for x in lines[:18])
    forwarder.cursor_file.write_text(json.dumps(data))
    with pytest.raises(cursors.CursorError, match="seal"):
        _forwarder(journal, out, base).run()
    with pytest.raises(cursors.CursorError, match="seal"):  # without its seal: the same
        data["seal"] = ""
        forwarder.cursor_file.write_text(json.dumps(data))
        _forwarder(journal, out, base)
    assert _sent(out) == list(range(1, 11))  # nothing sent on the word of the edited cursor
    forwarder.cursor_file.unlink()  # journal forward --reset
    _forwarder(journal, out, base).run()
    assert _sent(out)[10:] == list(range(1, 26))


def test_a_time_in_other_digits_reaches_the_syslog_header() -> None:
    """Attack: a record whose ``time`` is written in full-width digits. ``formats._TIME`` used
    ``\\d``, which matches every Unicode digit, so the value was put raw in the RFC 5424
    header, where only printable US-ASCII is allowed. Now only 0-9 pass (else "-")."""
    body = {"kind": "change", "time": "２０２６-11-28T01:00:00Z", "operation": "accounts.status",
            "outcome": "ok", "seq": 1, "hash": "a" * 64, "prev": GENESIS}  # fmt: skip
    message = rfc5424(Item("record", body), "host")
    header = message.split(b" [", 1)[0]
    assert all(0x21 <= b <= 0x7E or b == 0x20 for b in header), header


class _Answer:
    def __init__(self, status: int, body: bytes) -> None:
        self.status, self._body = status, body

    def read(self, _limit: int = -1) -> bytes:
        return self._body


class _Proxy:
    """An HTTPS connection whose every answer is the same (what sits at HOST:PORT)."""

    answer = _Answer(200, b"{}")

    def __init__(self, *_args: Any, **_kwargs: Any) -> None:
        pass

    def request(self, *_args: Any, **_kwargs: Any) -> None:
        pass

    def getresponse(self) -> _Answer:
        return self.answer

    def close(self) -> None:
        pass


@pytest.mark.parametrize(
    "body",
    [b'{"acks": {}}', b'{"code": 0}', b'{"text": "Success"}', b'{"text":"Success","code":false}'],
)
def test_an_ack_shaped_answer_to_an_event_post_counts_as_accepted(
    monkeypatch: Any, body: bytes
) -> None:
    """Attack (HEC answers that lie): whatever answers at the collector's address replies
    ``200 {"acks": {}}`` to the event POST. ``_post`` took ``code`` as 0 when the body had
    ``acks`` - meant for the ack endpoint's answer - whichever endpoint was asked: the batch
    counted as accepted. Now the event endpoint's success is ``{"text": "Success", "code":
    0}`` exactly."""
    import http.client

    from portal_admin.evidence.forward import destinations

    monkeypatch.setenv("PORTAL_ADMIN_HEC_TOKEN", "t0ken")
    monkeypatch.setattr(http.client, "HTTPSConnection", _Proxy)
    monkeypatch.setattr(_Proxy, "answer", _Answer(200, body))
    hec = destinations.open_destination("hec+https://collector.example:8088", Options())
    with pytest.raises(destinations.DestinationError, match="refused"):
        hec.send([b'{"event": "x"}'])
    monkeypatch.setattr(_Proxy, "answer", _Answer(200, b'{"text":"Success","code":0}'))
    hec.send([b'{"event": "x"}'])  # the real success shape, acks off


def test_once_acks_are_on_an_answer_without_an_ack_id_is_refused(monkeypatch: Any) -> None:
    import http.client

    from portal_admin.evidence.forward import destinations

    monkeypatch.setenv("PORTAL_ADMIN_HEC_TOKEN", "t0ken")
    monkeypatch.setattr(http.client, "HTTPSConnection", _Proxy)
    hec = destinations.open_destination("hec+https://collector.example:8088", Options())
    hec.acknowledges = True  # an earlier batch came back with an ackId
    monkeypatch.setattr(_Proxy, "answer", _Answer(200, b'{"text":"Success","code":0}'))
    with pytest.raises(destinations.DestinationError, match="no ackId"):
        hec.send([b'{"event": "x"}'])
