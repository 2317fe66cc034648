"""``journal export`` (JSON lines, CSV with the program's rules) and ``journal rebuild``
(from what receivers stored: duplicates, syslog headers, other lines, hostile ones)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from portal_admin.cli.main import main
from portal_admin.evidence import keys
from portal_admin.evidence.forward.destinations import Options, open_destination
from portal_admin.evidence.forward.forwarder import Forwarder
from portal_admin.evidence.journal import verify

from .receivers import make_journal


def test_jsonl_export_is_the_journals_own_lines_from_a_seq(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "journal.jsonl"
    make_journal(journal, 40, None)
    lines = journal.read_bytes().splitlines(keepends=True)
    out = tmp_path / "export.jsonl"
    argv = ["journal", "export", "--journal", str(journal), "--since-seq", "31"]
    assert main([*argv, "--out", str(out)]) == 0
    assert out.read_bytes() == b"".join(lines[30:])
    assert main(argv) == 0
    assert capsys.readouterr().out.encode() == b"".join(lines[30:])


def test_csv_export_keeps_seq_and_hash_and_guards_formulas(tmp_path: Path) -> None:
    journal = tmp_path / "journal.jsonl"
    hashes = make_journal(journal, 3, None)
    line = json.loads(journal.read_bytes().splitlines()[-1])
    out = tmp_path / "export.csv"
    # A record whose account a spreadsheet would run as a formula.
    from portal_admin.evidence.journal import canonical, chain_hash

    body = {k: v for k, v in line.items() if k not in ("prev", "hash")}
    body.update(seq=4, account='=HYPERLINK("http://x")', request_id="-1+cmd|x")
    digest = chain_hash(line["hash"], body)
    with journal.open("ab") as fh:
        fh.write(canonical({**body, "prev": line["hash"], "hash": digest}) + b"\n")
    argv = ["journal", "export", "--journal", str(journal), "--format", "csv", "--out", str(out)]
    assert main([*argv, "--delimiter", "semicolon"]) == 0
    raw = out.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and b"\r\n" in raw
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig")), delimiter=";"))
    assert [r["seq"] for r in rows] == ["1", "2", "3", "4"]
    assert [r["hash"] for r in rows] == [*hashes, digest]
    assert rows[3]["account"] == '\'=HYPERLINK("http://x")'
    assert rows[3]["request_id"] == "'-1+cmd|x"


def test_export_of_a_journal_that_is_not_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["journal", "export", "--journal", str(tmp_path / "none.jsonl")]) == 2
    assert "no such journal" in capsys.readouterr().err


def test_rebuild_drops_duplicates_and_reads_through_syslog_headers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key = keys.signing_key(keys.MemoryStore())
    journal = tmp_path / "journal.jsonl"
    make_journal(journal, 230, key)
    received = tmp_path / "received.log"
    destination = open_destination(received.as_uri(), Options())
    Forwarder(journal, destination, "json", cursors=tmp_path / "c").run()
    # What a receiver may hold: its own header before each message, the same messages twice
    # (a resend), other programs' lines, a damaged line, a hostile "record" that is not one.
    sent = received.read_bytes().splitlines()
    mixed = [b"Nov 28 01:02:03 host portal-admin: " + m for m in sent[:100]]
    mixed += [*sent[50:], b"Nov 28 01:02:04 host sshd[1]: Accepted password", sent[5][:40]]
    mixed += [b'{"seq": true, "hash": "x", "prev": "y"}', b'{"portal_admin": {"line": 5}}']
    stored = tmp_path / "stored.log"
    stored.write_bytes(b"\n".join(mixed) + b"\n")
    out = tmp_path / "rebuilt"
    assert main(["journal", "rebuild", str(stored), "--out", str(out)]) == 0
    said = capsys.readouterr().err
    assert "230 record(s) and 2 checkpoint(s)" in said
    assert "50 duplicate(s) dropped, 4 other line(s) ignored" in said
    assert (out / "journal.jsonl").read_bytes() == journal.read_bytes()
    result = verify(out / "journal.jsonl", expected_key=keys.fingerprint(key.public_key()))
    assert result.ok and result.records == 230 and result.checkpoints == 2


def test_a_rebuild_that_misses_records_fails_verification(tmp_path: Path) -> None:
    key = keys.signing_key(keys.MemoryStore())
    journal = tmp_path / "journal.jsonl"
    make_journal(journal, 200, key)
    received = tmp_path / "received.log"
    Forwarder(
        journal, open_destination(received.as_uri(), Options()), "json", cursors=tmp_path / "c"
    ).run()
    lines = received.read_bytes().splitlines()
    lost = [
        m
        for m in lines
        if b'"item":"record"' in m and json.loads(m)["event"]["sequence"] in (150, 200)
    ]
    held = [m for m in lines if m not in lost]
    assert len(lost) == 2
    (tmp_path / "held.log").write_bytes(b"\n".join(held) + b"\n")
    assert (
        main(["journal", "rebuild", str(tmp_path / "held.log"), "--out", str(tmp_path / "r")]) == 0
    )
    result = verify(
        tmp_path / "r" / "journal.jsonl", expected_key=keys.fingerprint(key.public_key())
    )
    assert not result.ok  # a record lost on the way is found: the chain and the checkpoint
    assert any(p.seq == 151 and p.reason == "chain" for p in result.problems)
    assert any("truncated" in a for a in result.anchor)
