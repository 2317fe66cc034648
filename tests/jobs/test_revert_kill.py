"""A revert killed with SIGKILL while its writes are held by a slow server, resumed in a new
process (#30): no target is set back twice, and the resumed run reads the unanswered targets'
state before it writes anything."""

from __future__ import annotations

import collections
import csv
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from portal_admin.evidence import journal as journal_file
from portal_admin.evidence import keys
from portal_admin.evidence.journal import Journal
from portal_admin.sandbox import SandboxConfig, create_app
from support.processes import hard_kill

from .test_slow_server import HOLD, HoldWrites, Served, items, job_path, output

pytestmark = [pytest.mark.slow, pytest.mark.http]

CHILD = Path(__file__).with_name("revert_child.py")
PROFILE = "kill"  # the child's profile (revert_child.PROFILE)
TARGETS = 8
#: This installation's key, as the children know it (its fingerprint).
KEY = Ed25519PrivateKey.generate()


def start(url: str, folder: Path, journal: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(CHILD), url, str(folder), str(journal), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={
            **os.environ,
            "PYTHONUNBUFFERED": "1",
            "REVERT_KEY": keys.fingerprint(KEY.public_key()),
        },
    )


def suspended_job(app: Any, journal: Path, url: str) -> list[str]:
    """Eight active accounts suspended by a bulk job "first-job", as the journal has it."""
    db = app.state.sandbox.db
    ids = [
        r["biz_id"]
        for r in db.query(
            "SELECT biz_id FROM accounts WHERE status = 'ACTIVE' AND email != ? ORDER BY biz_id",
            ("admin@sandbox.test",),
        )
    ][:TARGETS]
    db.executemany("UPDATE accounts SET status = 'SUSPENDED' WHERE biz_id = ?", [(i,) for i in ids])
    # Written and signed by "this installation" (its checkpoint vouches for the records), so
    # that the reverting processes believe them (revert_child.py pins the key's fingerprint).
    writer = Journal(journal, signer=lambda: KEY)
    for target in ids:
        writer.append(
            {
                "profile": PROFILE,
                "server": url,
                "account": "admin@sandbox.test",
                "operation": "accounts.status",
                "targets": [target],
                "fields": {"action": "SUSPEND"},
                "before": {"value": "ACTIVE"},
                "after": {"value": "SUSPENDED", "job": "first-job"},
                "outcome": "ok",
            }
        )
    writer.close()
    return ids


def test_a_revert_killed_while_writes_are_held_sets_each_target_back_once(tmp_path: Path) -> None:
    app = create_app(SandboxConfig(db=":memory:", seed_accounts=60, test_clock=True))
    held = HoldWrites(app, HOLD)
    served = Served(held)
    children: list[subprocess.Popen[str]] = []
    journal = tmp_path / "journal.jsonl"
    try:
        targets = suspended_job(app, journal, served.url)
        folder = tmp_path / "jobs"
        first = start(served.url, folder, journal, "plan", "first-job")
        children.append(first)
        job = job_path(first)
        deadline = time.monotonic() + 60
        while sum(held.received.values()) < 4:  # four writes are held: kill now
            assert first.poll() is None, first.communicate()
            assert time.monotonic() < deadline, "the writes never arrived"
            time.sleep(0.01)
        time.sleep(0.2)
        hard_kill(first)
        first.wait(timeout=30)
        assert not held.applied
        assert [line["state"] for line in items(job)] == ["sending"] * TARGETS

        second = start(served.url, folder, journal, "resume", str(job))
        children.append(second)
        assert job_path(second) == job
        out, err = second.communicate(timeout=90)
        assert second.returncode == 0, err
        # it read the unanswered targets back before its first write
        assert int(output(second, "READ", out)) >= TARGETS
        assert set(json.loads(output(second, "CODES", out))) == {"2000"}  # nothing refused
        assert held.received == dict.fromkeys(targets, 1), held.received
        assert held.applied == dict.fromkeys(targets, 1), held.applied
        marks = ",".join("?" * len(targets))
        rows = app.state.sandbox.db.query(
            f"SELECT status FROM accounts WHERE biz_id IN ({marks})",
            targets,
        )
        assert {r[0] for r in rows} == {"ACTIVE"}
        with job.with_suffix(".result.csv").open(encoding="utf-8-sig", newline="") as fh:
            result = list(csv.DictReader(fh))
        assert {(r["outcome"], r["after"]) for r in result} == {("done", "ACTIVE")}
        notes = collections.Counter(r["note"] for r in result)
        assert notes == {"verified by reading back": 4, "not applied: sent again": 4}, notes
        # The journal names the revert's job and the records it set back.
        assert journal_file.verify(journal, expected_key=keys.fingerprint(KEY.public_key())).ok
        reverting = [
            r
            for r in journal_file.read(journal)
            if r["kind"] == "intent" and r["after"].get("job") == job.name.split(".")[0]
        ]
        assert len(reverting) == TARGETS and all(r["after"]["reverts"] for r in reverting)
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
            child.communicate()
        served.stop()


def test_two_reverts_of_one_job_at_once_set_each_target_back_once(tmp_path: Path) -> None:
    """Two programs revert the same job at the same time (its writes held by a slow server,
    so both would find every target still as the job left it): the second is refused,
    UNDER_WAY, before it reads or sends anything; each target is written once."""
    app = create_app(SandboxConfig(db=":memory:", seed_accounts=60, test_clock=True))
    held = HoldWrites(app, HOLD)
    served = Served(held)
    children: list[subprocess.Popen[str]] = []
    journal = tmp_path / "journal.jsonl"
    try:
        targets = suspended_job(app, journal, served.url)
        folder = tmp_path / "jobs"
        first = start(served.url, folder, journal, "plan", "first-job")
        children.append(first)
        job = job_path(first)  # planned: it holds the job's revert lock from now on
        deadline = time.monotonic() + 60
        while not held.received:
            assert first.poll() is None, first.communicate()
            assert time.monotonic() < deadline, "the writes never arrived"
            time.sleep(0.01)
        second = start(served.url, folder, journal, "plan", "first-job")
        children.append(second)
        out, err = second.communicate(timeout=90)
        assert second.returncode == 3, (out, err)
        assert "REFUSED UNDER_WAY" in out
        out, err = first.communicate(timeout=90)
        assert first.returncode == 0, err
        assert held.received == dict.fromkeys(targets, 1), held.received
        assert held.applied == dict.fromkeys(targets, 1), held.applied
        assert job.exists()
        # Once the first has ended, a revert may be planned again: nothing is left to do.
        third = start(served.url, folder, journal, "plan", "first-job")
        children.append(third)
        out, err = third.communicate(timeout=90)
        assert third.returncode == 0, err
        assert held.received == dict.fromkeys(targets, 1)
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
            child.communicate()
        served.stop()
