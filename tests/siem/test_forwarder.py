"""The forwarding loop and its cursor: resuming, rewritten journals, hostile cursor files,
following, broken syslog connections, octet-counting framing, memory, the command line."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from portal_admin.cli.main import main
from portal_admin.evidence import keys
from portal_admin.evidence.forward import cursor as cursors
from portal_admin.evidence.forward.destinations import (
    DestinationError,
    Options,
    open_destination,
)
from portal_admin.evidence.forward.forwarder import Forwarder, standings
from portal_admin.evidence.journal import Journal

from .receivers import make_journal, signatures


def _file_forwarder(journal: Path, out: Path, base: Path, fmt: str = "json") -> Forwarder:
    return Forwarder(journal, open_destination(out.as_uri(), Options()), fmt, cursors=base)


def _hashes_in(out: Path) -> list[str]:
    found = []
    for raw in out.read_bytes().splitlines():
        line = json.loads(raw)["portal_admin"]["line"]
        found.append(line.get("signature") or line["hash"])
    return found


def test_runs_resume_where_the_last_left_and_checkpoints_follow_their_record(
    tmp_path: Path,
) -> None:
    key = keys.signing_key(keys.MemoryStore())
    journal = tmp_path / "journal.jsonl"
    out = tmp_path / "out.jsonl"
    first = make_journal(journal, 250, key)
    report = _file_forwarder(journal, out, tmp_path / "c").run()
    assert (report.records, report.checkpoints) == (250, 2)
    second = make_journal(journal, 120, key)
    report = _file_forwarder(journal, out, tmp_path / "c").run()
    assert (report.records, report.checkpoints) == (120, 1)
    sent = _hashes_in(out)
    cps = signatures(journal)
    assert [h for h in sent if h not in cps] == first + second  # in order, once each
    for n, signature in enumerate(cps, start=1):  # each after the record it names
        assert sent.index(signature) > sent.index((first + second)[n * 100 - 1])


def test_a_rewritten_journal_is_refused_not_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "journal.jsonl"
    out = tmp_path / "out.jsonl"
    make_journal(journal, 50, None)
    _file_forwarder(journal, out, tmp_path / "c").run()
    journal.unlink()
    make_journal(journal, 80, None, hostile=False)  # same seqs, other hashes
    with pytest.raises(cursors.JournalRewritten):
        _file_forwarder(journal, out, tmp_path / "c").run()
    assert len(out.read_bytes().splitlines()) == 50
    # On the command line: exit 1, said, nothing sent; --reset sends everything again.
    args = ["journal", "forward", "--once", "--to", out.as_uri(), "--journal", str(journal)]
    assert main([*args, "--format", "json"]) == 0  # another cursor folder: fresh
    capsys.readouterr()
    assert main([*args, "--format", "json"]) == 0
    journal.write_bytes(journal.read_bytes()[: journal.stat().st_size // 2].rsplit(b"\n", 1)[0])
    assert main([*args, "--format", "json"]) == 1
    said = capsys.readouterr().err
    assert "no longer holds the record seq 80" in said and "Traceback" not in said
    assert main([*args, "--format", "json", "--reset"]) == 0


def test_a_wrong_offset_in_the_cursor_only_costs_a_search(tmp_path: Path) -> None:
    journal = tmp_path / "journal.jsonl"
    out = tmp_path / "out.jsonl"
    make_journal(journal, 30, None)
    forwarder = _file_forwarder(journal, out, tmp_path / "c")
    forwarder.run()
    data = json.loads(forwarder.cursor_file.read_text())
    data["offset"] = 7
    forwarder.cursor_file.write_text(json.dumps(data))
    make_journal(journal, 5, None)
    assert _file_forwarder(journal, out, tmp_path / "c").run().records == 5
    assert len(set(_hashes_in(out))) == len(_hashes_in(out)) == 35


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        '{"destination": "x", "journal": "j", "format": "json", "seq": "1"}',
        '{"destination": "x", "journal": "j", "format": "json", "hash": "zz"}',
        '{"destination": "x", "journal": "j", "format": "json", "seq": -4}',
        '{"destination": 5, "journal": "j", "format": "json"}',
        '{"journal": "j", "format": "json"}',
    ],
)
def test_a_hostile_cursor_file_is_refused_by_name(
    tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "journal.jsonl"
    out = tmp_path / "out.jsonl"
    make_journal(journal, 3, None)
    forwarder = _file_forwarder(journal, out, tmp_path / "c")
    forwarder.cursor_file.parent.mkdir(parents=True)
    forwarder.cursor_file.write_text(text)
    with pytest.raises(cursors.CursorError, match="not a forwarding cursor"):
        _file_forwarder(journal, out, tmp_path / "c")
    (standing,) = standings(tmp_path / "c")
    assert "not a forwarding cursor" in standing.problem
    folder = cursors.folder()
    path = cursors.cursor_path(out.as_uri(), journal, folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    args = ["journal", "forward", "--once", "--to", out.as_uri(), "--journal", str(journal)]
    assert main(args) == 1
    said = capsys.readouterr().err
    assert "not a forwarding cursor" in said and "Traceback" not in said
    path.unlink()


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("file:///tmp/x --poll 0", "must be above 0"),
        ("file:///tmp/x --batch -1", "must be above 0"),
        ("file:///tmp/x --client-key k.pem", "--client-key goes with --client-cert"),
        ("syslog+tls://127.0.0.1:9 --ca-bundle /nonexistent.pem", "the TLS files cannot be used"),
        ("gopher://x:1", "unknown destination"),
        ("file:///tmp/x --journal /nonexistent/journal.jsonl", "no such journal"),
        ("syslog+tls://user:secret@host:6514", "no user, password or query"),
        ("syslog+tls://host", "a HOST:PORT is needed"),
        ("syslog+tcp://host:99999", "a HOST:PORT is needed"),
        ("file://elsewhere/x", "a file:///PATH on this computer"),
    ],
)
def test_unusable_destinations_exit_2_and_never_show_a_password(
    url: str, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "journal.jsonl"
    make_journal(journal, 1, None)
    url, *more = url.split()
    argv = ["journal", "forward", "--once", "--to", url, "--journal", str(journal), *more]
    assert main(argv) == 2
    said = capsys.readouterr().err
    assert words in said and "secret" not in said


class SyslogServer:
    """A plain TCP receiver that reads RFC 6587 octet-counted frames. ``keep``: after that
    many bytes it stops reading and closes (what it had not read is lost, as with a
    receiver that goes away)."""

    def __init__(self, keep: int | None = None) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.keep = keep
        self.messages: list[bytes] = []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        with self.sock:
            conn, _ = self.sock.accept()
            buffer, total = b"", 0
            with conn:
                while True:
                    data = conn.recv(65536)
                    if not data:
                        return
                    total += len(data)
                    buffer += data
                    while b" " in buffer:
                        length, rest = buffer.split(b" ", 1)
                        assert length.isdigit(), buffer[:80]
                        if len(rest) < int(length):
                            break
                        self.messages.append(rest[: int(length)])
                        buffer = rest[int(length) :]
                    if self.keep is not None and total >= self.keep:
                        time.sleep(0.3)  # the sender fills the buffers meanwhile
                        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\0\0\0\0\0\0\0")
                        return


@pytest.fixture
def server() -> Iterator[SyslogServer]:
    found = SyslogServer()
    yield found
    found.thread.join(timeout=10)


def test_octet_counting_keeps_hostile_records_whole(tmp_path: Path) -> None:
    journal = tmp_path / "journal.jsonl"
    hashes = make_journal(journal, 200, None)
    receiver = SyslogServer()
    destination = open_destination(f"syslog+tcp://127.0.0.1:{receiver.port}", Options())
    Forwarder(journal, destination, "rfc5424", cursors=tmp_path / "c").run()
    receiver.thread.join(timeout=10)
    assert len(receiver.messages) == 200
    for message, digest in zip(receiver.messages, hashes, strict=True):
        assert message.startswith(b"<")
        assert f' hash="{digest}"'.encode() in message


def test_a_broken_connection_sets_the_cursor_back_over_what_it_may_have_lost(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "journal.jsonl"
    hashes = make_journal(journal, 3000, None, hostile=False)
    receiver = SyslogServer(keep=200_000)  # reads ~200 kB, then goes away
    destination = open_destination(f"syslog+tcp://127.0.0.1:{receiver.port}", Options())
    forwarder = Forwarder(journal, destination, "json", cursors=tmp_path / "c", batch=20)
    with pytest.raises(DestinationError) as failed:
        forwarder.run()
    assert failed.value.broken
    receiver.thread.join(timeout=10)
    got = [json.loads(m[m.index(b"{") :])["event"]["hash"] for m in receiver.messages]
    saved = cursors.load(forwarder.cursor_file)
    assert saved is not None
    # Whatever the receiver did not keep is after the cursor: the next run sends it.
    assert saved.seq <= len(got), (saved.seq, len(got))
    again = SyslogServer()
    Forwarder(
        journal,
        open_destination(f"syslog+tcp://127.0.0.1:{again.port}", Options()),
        "json",
        cursors=tmp_path / "c",
    ).run()
    again.thread.join(timeout=10)
    got += [json.loads(m[m.index(b"{") :])["event"]["hash"] for m in again.messages]
    assert set(got) == set(hashes)


def test_following_sends_what_others_append_until_stopped(tmp_path: Path) -> None:
    key = keys.signing_key(keys.MemoryStore())
    journal = tmp_path / "journal.jsonl"
    out = tmp_path / "out.jsonl"
    make_journal(journal, 10, key)
    forwarder = _file_forwarder(journal, out, tmp_path / "c")
    stop = threading.Event()
    reports = []
    thread = threading.Thread(
        target=lambda: reports.append(forwarder.run(follow=True, stop=stop, poll=0.05))
    )
    thread.start()
    appender = Journal(journal, signer=lambda: key, checkpoint_every=100)
    for n in range(40):
        appender.append({"operation": "accounts.status", "outcome": "ok", "targets": [f"F{n}"]})
    appender.close()
    deadline = time.monotonic() + 20
    while forwarder.cursor.checkpoints < 1 and time.monotonic() < deadline:
        time.sleep(0.02)
    stop.set()
    thread.join(timeout=10)
    assert reports and reports[0].records == 50 and reports[0].checkpoints == 1
    assert forwarder.cursor.seq == 50


def test_memory_stays_flat_in_the_journals_size(tmp_path: Path) -> None:
    peaks = []
    for count in (2_000, 20_000):
        journal = tmp_path / f"j{count}" / "journal.jsonl"
        make_journal(journal, count, None, hostile=False)
        tracemalloc.start()
        Forwarder(
            journal,
            open_destination((tmp_path / f"out{count}").as_uri(), Options()),
            "rfc5424",
            cursors=tmp_path / "c",
        ).run()
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    assert peaks[1] < peaks[0] * 1.5, peaks


def test_status_lists_destinations_and_how_far_behind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key = keys.signing_key(keys.MemoryStore())
    journal = tmp_path / "journal.jsonl"
    out = tmp_path / "status-out.jsonl"
    make_journal(journal, 120, key)
    args = ["journal", "forward", "--once", "--to", out.as_uri(), "--journal", str(journal)]
    assert main(args) == 0
    make_journal(journal, 95, key)
    capsys.readouterr()
    assert main(["journal", "forward", "--status"]) == 0
    said = capsys.readouterr().out
    block = said[said.index(out.as_uri()) :]
    assert "seq 120" in block and "behind      95 record(s), 1 checkpoint(s)" in block
    journal.rename(tmp_path / "moved.jsonl")
    assert main(["journal", "forward", "--status"]) == 0
    block = capsys.readouterr().out
    block = block[block.index(out.as_uri()) :]
    assert "PROBLEM     " in block and "the journal is not there" in block


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM is a POSIX signal")
def test_sigterm_ends_following_cleanly(tmp_path: Path) -> None:
    journal = tmp_path / "journal.jsonl"
    out = tmp_path / "out.txt"
    make_journal(journal, 30, None)
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    child = subprocess.Popen(
        [sys.executable, "-m", "portal_admin.cli", "journal", "forward", "--to", out.as_uri(),
         "--journal", str(journal), "--poll", "0.05"],
        env=env, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while (not out.exists() or len(out.read_bytes().splitlines()) < 30) and (
        time.monotonic() < deadline
    ):
        time.sleep(0.05)
    child.send_signal(signal.SIGTERM)
    _, said = child.communicate(timeout=20)
    assert child.returncode == 0, said
    assert "30 record(s) and 0 checkpoint(s) sent" in said and "Traceback" not in said


def test_lines_that_are_not_records_are_skipped_and_counted(tmp_path: Path) -> None:
    journal = tmp_path / "journal.jsonl"
    make_journal(journal, 5, None)
    lines = journal.read_bytes().splitlines(keepends=True)
    damage = [  # damage and forgeries no cursor may ever name
        b"not json\n",
        b'{"seq": 4, "hash": "zz\\n]\\"", "prev": "x"}\n',
        b'{"seq": "5", "hash": "' + b"a" * 64 + b'"}\n',
        b"[1, 2]\n",
    ]
    journal.write_bytes(b"".join([*lines[:3], *damage, *lines[3:]]))
    out = tmp_path / "out.jsonl"
    report = _file_forwarder(journal, out, tmp_path / "c").run()
    assert (report.records, report.unreadable) == (5, 4)
    again = _file_forwarder(journal, out, tmp_path / "c")  # its cursor loads
    assert again.cursor.seq == 5 and again.run().records == 0
