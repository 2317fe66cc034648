"""Forwarding to a real receiver: Debian's rsyslogd with the gtls driver, on loopback.

The receiver requires a client certificate from a private CA (made by openssl here) and
appends each message's raw text to a file. The forwarder runs as the real command line in a
process of its own: killed with SIGKILL mid-stream, run while the receiver is down (it fails,
keeps its place), run again after the receiver restarted, then following the journal while
another process appends, until SIGTERM. Counted by hash at the end: every record and every
checkpoint arrived, and only duplicates (which a receiver drops by hash) arrived twice.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from portal_admin.evidence import keys
from portal_admin.evidence.forward.cursor import cursor_path, load
from portal_admin.evidence.journal import Journal

from .receivers import (
    Pki,
    Rsyslog,
    count_rfc5424,
    env_for,
    make_journal,
    rsyslogd,
    running,
    signatures,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        rsyslogd() is None,
        reason="rsyslogd with rsyslog-gnutls is not installed (apt-get install rsyslog"
        " rsyslog-gnutls; .ci/run installs them)",
    ),
]

CLI = [sys.executable, "-m", "portal_admin.cli"]


def _forward(journal: Path, receiver: Rsyslog, pki: Pki, *extra: str) -> list[str]:
    return [
        *CLI, "journal", "forward", "--to", f"syslog+tls://127.0.0.1:{receiver.port}",
        "--journal", str(journal), "--ca-bundle", str(pki.ca),
        "--client-cert", str(pki.cert("client")), "--client-key", str(pki.key("client")),
        *extra,
    ]  # fmt: skip


def _cursor_seq(journal: Path, receiver: Rsyslog, data: Path) -> int:
    label = f"syslog+tls://127.0.0.1:{receiver.port}"
    path = cursor_path(label, journal, data / "portal-admin" / "forward")
    if not path.exists():
        return 0
    try:
        found = load(path)
    except Exception:  # being replaced this instant
        return 0
    return found.seq if found else 0


def _wait_received(receiver: Rsyslog, count: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while len(receiver.received()) < count and time.monotonic() < deadline:
        time.sleep(0.05)


def test_every_record_arrives_once_through_kill_and_restart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pki = Pki.make(tmp_path / "pki")
    key = keys.signing_key(keys.MemoryStore())
    journal = tmp_path / "journal" / "journal.jsonl"
    data = tmp_path / "data"
    hashes = make_journal(journal, 4000, key)
    receiver = Rsyslog(tmp_path / "rsyslog", pki)
    receiver.start()
    try:
        # 1. Killed with SIGKILL mid-stream.
        child = subprocess.Popen(
            _forward(journal, receiver, pki, "--once", "--batch", "10"),
            env=env_for(data),
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 60
        while _cursor_seq(journal, receiver, data) < 300 and time.monotonic() < deadline:
            assert child.poll() is None, child.stderr.read().decode() if child.stderr else ""
            time.sleep(0.002)
        child.send_signal(signal.SIGKILL)
        child.communicate()
        killed_at = _cursor_seq(journal, receiver, data)
        assert 300 <= killed_at < 4000, killed_at

        # 2. The receiver stopped: the run fails, says so, and keeps its place.
        receiver.stop()
        down = subprocess.run(
            _forward(journal, receiver, pki, "--once"),
            env=env_for(data),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert down.returncode == 1, down.stderr
        assert "cannot connect" in down.stderr
        assert f"up to seq {killed_at}" in down.stderr
        assert _cursor_seq(journal, receiver, data) == killed_at

        # 3. The receiver restarted: the rest goes.
        receiver.start()
        rest = subprocess.run(
            _forward(journal, receiver, pki, "--once"),
            env=env_for(data),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert rest.returncode == 0, rest.stderr
        assert _cursor_seq(journal, receiver, data) == 4000

        # 4. Following while another process appends; SIGTERM ends it cleanly.
        follower = subprocess.Popen(
            _forward(journal, receiver, pki, "--poll", "0.1"),
            env=env_for(data),
            stderr=subprocess.PIPE,
            text=True,
        )
        appender = Journal(journal, signer=lambda: key, checkpoint_every=100)
        for n in range(150):
            appender.append({"operation": "accounts.status", "outcome": "ok", "targets": [f"F{n}"]})
        appender.close()  # a checkpoint at the clean stop
        deadline = time.monotonic() + 60
        while _cursor_seq(journal, receiver, data) < 4150 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)  # the clean stop's checkpoint goes on the next look
        follower.send_signal(signal.SIGTERM)
        _, said = follower.communicate(timeout=30)
        assert follower.returncode == 0, said
        assert "at seq 4150" in said
    finally:
        receiver.stop()

    every_hash = [json.loads(line)["hash"] for line in journal.read_bytes().splitlines()]
    assert every_hash[:4000] == hashes
    wanted_cps = signatures(journal)
    received = receiver.received()
    records, cps = count_rfc5424(received)
    duplicates = sum(records.values()) - len(records) + sum(cps.values()) - len(cps)
    with capsys.disabled():
        print(
            f"\nrsyslog received {len(received)} messages: {len(records)} distinct records of"
            f" {len(every_hash)} in the journal, {len(cps)} distinct checkpoints of"
            f" {len(wanted_cps)}, {duplicates} duplicate(s) (a receiver drops them by hash);"
            f" the SIGKILL came at seq {killed_at}"
        )
    assert set(records) == set(every_hash)  # nothing lost, nothing foreign
    assert set(cps) == set(wanted_cps)
    # Repeated: exactly the records sent after the cursor the kill left on disk (it is
    # written behind the sending, so a few batches of 10 may lag), once each.
    assert all(n <= 2 for n in records.values())
    repeated = [n for n, h in enumerate(every_hash, start=1) if records[h] == 2]
    assert repeated == list(range(killed_at + 1, killed_at + 1 + len(repeated)))
    assert len(repeated) <= 2000  # far less in practice (0 to 61 in our runs)


def test_the_json_format_rebuilds_a_journal_that_verifies(tmp_path: Path) -> None:
    pki = Pki.make(tmp_path / "pki")
    key = keys.signing_key(keys.MemoryStore())
    journal = tmp_path / "journal" / "journal.jsonl"
    make_journal(journal, 600, key)
    receiver = Rsyslog(tmp_path / "rsyslog", pki)
    with running(receiver):
        sent = subprocess.run(
            [*_forward(journal, receiver, pki, "--once", "--format", "json")],
            env=env_for(tmp_path / "data"),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert sent.returncode == 0, sent.stderr
        _wait_received(receiver, 606)
    rebuilt = tmp_path / "rebuilt"
    done = subprocess.run(
        [*CLI, "journal", "rebuild", str(receiver.out), "--out", str(rebuilt)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "600 record(s) and 6 checkpoint(s)" in done.stderr
    assert (rebuilt / "journal.jsonl").read_bytes() == journal.read_bytes()
    fingerprint = keys.fingerprint(key.public_key())
    verified = subprocess.run(
        [*CLI, "journal", "verify", str(rebuilt / "journal.jsonl"), "--fingerprint", fingerprint],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "intact, 600 records" in verified.stdout
    assert "6 checkpoint(s), the last at seq 600" in verified.stdout


def test_a_receiver_requiring_a_client_certificate_refuses_one_without(tmp_path: Path) -> None:
    pki = Pki.make(tmp_path / "pki")
    journal = tmp_path / "journal" / "journal.jsonl"
    make_journal(journal, 20, None)
    receiver = Rsyslog(tmp_path / "rsyslog", pki)
    data = tmp_path / "data"
    with running(receiver):
        refused = subprocess.run(
            [*CLI, "journal", "forward", "--once", "--journal", str(journal), "--to",
             f"syslog+tls://127.0.0.1:{receiver.port}", "--ca-bundle", str(pki.ca)],
            env=env_for(data),
            capture_output=True,
            text=True,
            timeout=60,
        )  # fmt: skip
        time.sleep(0.5)
    assert refused.returncode == 1, refused.stderr
    # Seen right after the handshake, after a write or at the end (when depends on timing).
    said = refused.stderr
    assert "the receiver closed the connection" in said or "the connection broke" in said, said
    assert _cursor_seq(journal, receiver, data) == 0  # nothing counted as accepted
    assert receiver.received() == []
