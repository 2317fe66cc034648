"""Red-team attacks on journal forwarding to a SIEM (``main``: ``evidence/forward/``). The
attacker can write the journal's records (their text) or the data folder (the cursor files).
Each test is one attack the current code lets through.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from portal_admin.evidence.forward import cursor as cursors
from portal_admin.evidence.forward.destinations import Options, open_destination
from portal_admin.evidence.forward.formats import Item, rfc5424
from portal_admin.evidence.forward.forwarder import Forwarder
from portal_admin.evidence.journal import FORMAT, GENESIS, canonical, chain_hash


def _journal(path: Path, count: int, **extra: Any) -> list[str]:
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
                "seq": seq, "segment": 0, "format": FORMAT, **extra}  # fmt: skip
        digest = chain_hash(head, body)
        out.append(canonical({**body, "prev": head, "hash": digest}) + b"\n")
        hashes.append(digest)
        head = digest
    with path.open("ab") as fh:
        fh.write(b"".join(out))
    return hashes


def _forwarder(journal: Path, out: Path, base: Path) -> Forwarder:
    return Forwarder(journal, open_destination(out.as_uri(), Options()), "json", cursors=base)


def _sent(out: Path) -> list[int]:
    return [json.loads(r)["portal_admin"]["line"]["seq"] for r in out.read_bytes().splitlines()]


def test_a_cursor_moved_forward_skips_records_silently(tmp_path: Path) -> None:
    """Attack: after a run forwarded records 1..10, someone who can write the data folder
    (the same person whose changes records 11..19 are) edits the cursor file to name record
    19 - its real seq, hash and offset, so every check of the cursor passes (the line at the
    offset has that seq and hash). The next run starts after 19: records 11..19 never reach
    the SIEM, the run reports success, ``--status`` shows the destination up to date. docs
    promise "nothing lost: the cursor only ever names records the destination accepted".
    Class of fix: the cursor is authenticated (a MAC or signature by the installation's key
    over destination, journal, seq, hash), or a run whose first record does not chain from
    what the destination last accepted sends a gap marker and says so (exit status)."""
    journal, out, base = tmp_path / "journal.jsonl", tmp_path / "out.jsonl", tmp_path / "c"
    _journal(journal, 10)
    forwarder = _forwarder(journal, out, base)
    forwarder.run()
    hashes = _journal(journal, 15)  # seqs 11..25
    data = json.loads(forwarder.cursor_file.read_text())
    lines = journal.read_bytes().splitlines(keepends=True)
    data["seq"], data["hash"] = 19, hashes[8]
    data["offset"] = sum(len(x) for x in lines[:18])
    forwarder.cursor_file.write_text(json.dumps(data))
    assert cursors.load(forwarder.cursor_file) is not None  # the edited cursor is accepted
    try:
        _forwarder(journal, out, base).run()
    except Exception:
        return
    assert _sent(out) == list(range(1, 26)), "records 11..19 were skipped without a word"


def test_a_time_in_other_digits_reaches_the_syslog_header(tmp_path: Path) -> None:
    """Attack: a journal record whose ``time`` is written in full-width digits
    (``２０２６-11-28T01:00:00Z``). ``formats._TIME`` uses ``\\d``, which matches every Unicode
    digit, so the value passes as a timestamp and is put raw in the RFC 5424 header, where
    only printable US-ASCII is allowed: the receiver cannot parse the header (rsyslog falls
    back to a legacy parse and misfiles HOSTNAME/APP-NAME), so the record is misattributed
    or dropped by a strict collector. Class of fix: ``re.ASCII`` on every pattern applied to
    hostile text (or ``[0-9]``), and the header's fields made printable US-ASCII always."""
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


def test_an_ack_shaped_answer_to_an_event_post_counts_as_accepted(
    monkeypatch: Any,
) -> None:
    """Attack (HEC answers that lie): whatever answers at the collector's address (a proxy,
    a load balancer's health page, a misrouted service) replies ``200 {"acks": {}}`` to the
    event POST. ``_post`` takes ``code`` as 0 when the body has ``acks`` - meant for the ack
    endpoint's answer - whichever endpoint was asked; no ackId came back, so the batch counts
    as accepted and the cursor moves past records no collector received. The threat model
    says "only 200 with code 0 counts". Class of fix: each endpoint's answer is read by its
    own rule (the event endpoint: ``code`` 0 and ``text`` Success; the ack endpoint: an
    ``acks`` object naming the ackId asked)."""
    import http.client

    from portal_admin.evidence.forward import destinations

    monkeypatch.setenv("PORTAL_ADMIN_HEC_TOKEN", "t0ken")
    monkeypatch.setattr(http.client, "HTTPSConnection", _Proxy)
    _Proxy.answer = _Answer(200, b'{"acks": {}}')
    hec = destinations.open_destination("hec+https://collector.example:8088", Options())
    try:
        hec.send([b'{"event": "x"}'])
    except destinations.DestinationError:
        return  # refused: fine
    raise AssertionError("an answer of the ack endpoint's shape accepted an event batch")
