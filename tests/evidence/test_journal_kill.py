"""SIGKILL in the middle of a journaled bulk job: every change the server applied has a
journal record (its intent, written and fsynced before the request left, or its outcome).

Before intents, outcomes were written at the end of a turn of the event loop: a kill between
the server applying a change and that write lost its record (5 of 500 in the issue's run),
while the job file had it and the journal still verified.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from portal_admin.evidence import journal as jr
from portal_admin.files.portable import sqlite_uri

pytestmark = pytest.mark.slow

CHILD = Path(__file__).with_name("journal_kill_child.py")
TARGETS = 500


def job_counts(job: Path) -> dict[str, int]:
    """Item states in the job file, read as another process would."""
    conn = sqlite3.connect(sqlite_uri(job), uri=True, timeout=5)
    try:
        return dict(conn.execute("SELECT state, COUNT(*) FROM items GROUP BY state").fetchall())
    finally:
        conn.close()


def changed_on_server(db: Path, job: Path) -> set[str]:
    """The job's targets the server now shows suspended (all were active when planned)."""
    conn = sqlite3.connect(sqlite_uri(job), uri=True, timeout=5)
    try:
        targets = {row[0] for row in conn.execute("SELECT target_id FROM items")}
    finally:
        conn.close()
    server = sqlite3.connect(db, timeout=5)  # read-write: the WAL left by the kill is read
    try:
        rows = server.execute("SELECT biz_id FROM accounts WHERE status = 'SUSPENDED'").fetchall()
    finally:
        server.close()
    return targets & {row[0] for row in rows}


@pytest.mark.parametrize("at_least_done", [40, 170])
def test_a_kill_loses_no_record_of_a_change_the_server_applied(
    tmp_path: Path, at_least_done: int
) -> None:
    db, journal = tmp_path / "server.sqlite3", tmp_path / "journal" / "journal.jsonl"
    child = subprocess.Popen(
        [sys.executable, str(CHILD), str(db), str(journal), str(tmp_path), str(TARGETS)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None and child.stderr is not None
    line = child.stdout.readline()
    assert line.startswith("JOB "), (line, child.stderr.read())
    job = Path(line.split(" ", 1)[1].strip())
    deadline = time.monotonic() + 60
    while job_counts(job).get("done", 0) < at_least_done:
        assert child.poll() is None, "the job ended before it could be killed"
        assert time.monotonic() < deadline
        time.sleep(0.001)
    child.kill()  # SIGKILL
    child.wait(timeout=30)
    child.stdout.close()
    child.stderr.close()

    changed = changed_on_server(db, job)
    assert len(changed) >= at_least_done
    records = list(jr.read(journal))
    journaled = {
        target
        for record in records
        if record.get("operation") == "accounts.status"
        for target in record.get("targets", [])
    }
    assert changed <= journaled, f"{len(changed - journaled)} change(s) without a record"
    outcomes = {target for r in records if r["kind"] == "change" for target in r.get("targets", [])}
    # Those without an outcome are named by an intent that no outcome names: pending.
    result = jr.verify(journal)
    assert all(p.reason == "torn" for p in result.problems) and len(result.problems) <= 1
    assert result.pending >= len(changed - outcomes)
