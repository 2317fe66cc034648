"""SIGKILL at the worst moments of ``review decide``, ``merge``, ``sign``, ``remediate`` and
``close`` (the command line in a child process): afterwards the file opens, is consistent
(every item's latest decision is its history's), no acknowledged decision is lost and none is
recorded twice; the remediation job resumes and changes every account exactly once; the
campaign is closed once."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from portal_admin.files.portable import sqlite_uri
from portal_admin.reviews import Campaign, Query, Settings, create_campaign, verify
from portal_admin.reviews.split_merge import split
from reviews.support import account, make_snapshot
from support.processes import hard_kill, was_killed
from support.served import ServedSandbox

from .conftest import ADMIN, ADMIN_PASSWORD, loopback

CHILD = Path(__file__).with_name("review_kill_child.py")
KEYRING_DIR = Path(__file__).resolve().parents[1] / "reviews"
REVIEWER = ["--reviewer", "ana@example.test"]
ITEMS = 20_000


def env(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONUNBUFFERED": "1",
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "PORTAL_ADMIN_HOME": str(tmp_path / "portal-admin"),
        "PYTHONPATH": str(KEYRING_DIR),
        "PYTHON_KEYRING_BACKEND": "file_keyring.FileKeyring",
        "REVIEW_TEST_KEYRING": str(tmp_path / "keyring.json"),
        "PORTAL_PASSWORD": ADMIN_PASSWORD,
        "REVIEW_KILL_TIMEOUT": "3",
    }


def run(tmp_path: Path, *argv: str, moment: str = "none") -> subprocess.CompletedProcess[str]:
    """The command to its end (``moment`` none)."""
    return subprocess.run(
        [sys.executable, str(CHILD), moment, str(tmp_path / "marker"), *argv],
        env=env(tmp_path), capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def killed_at(tmp_path: Path, moment: str, *argv: str) -> None:
    """Start the command, SIGKILL it once it reaches ``moment``."""
    marker = tmp_path / "marker"
    marker.unlink(missing_ok=True)
    child = subprocess.Popen(
        [sys.executable, str(CHILD), moment, str(marker), *argv],
        env=env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 90
    while not marker.exists():
        if child.poll() is not None:
            raise AssertionError(f"ended before {moment}: {child.communicate()}")
        assert time.monotonic() < deadline, "the moment never came"
        time.sleep(0.01)
    hard_kill(child)
    child.communicate(timeout=30)
    assert was_killed(child.returncode)


def consistent(path: Path) -> dict[str, int]:
    """Open the file as the program does; check every item's queue decision is its
    history's latest; return decisions per item."""
    with Campaign.open(path) as campaign:
        conn = campaign.conn
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        wrong = conn.execute(
            "SELECT count(*) FROM items AS i WHERE i.decision_seq IS NOT"
            " (SELECT max(seq) FROM decisions AS d WHERE d.item = i.id)"
            " OR i.decision IS NOT (SELECT decision FROM decisions WHERE seq = i.decision_seq)"
        ).fetchone()[0]
        assert wrong == 0
        return dict(conn.execute("SELECT item, count(*) FROM decisions GROUP BY item").fetchall())


@pytest.fixture
def big(tmp_path: Path) -> Path:
    """A campaign of 20,000 accounts."""
    scope = make_snapshot(tmp_path / "scope.sqlite3", (account(n) for n in range(1, ITEMS + 1)))
    create_campaign(tmp_path / "big.review", scope, Settings("big", "2026-12-31")).close()
    return tmp_path / "big.review"


def decisions_csv(path: Path, first: int, last: int, word: str = "Revoke") -> str:
    lines = ["id,decision,justification"]
    lines += [f"account:ACC{n:06d},{word},left in October" for n in range(first, last + 1)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


@pytest.mark.slow
def test_kill_mid_decide_of_a_large_csv(tmp_path: Path, big: Path) -> None:
    first = decisions_csv(tmp_path / "first.csv", 1, 5000)
    done = run(tmp_path, "review", "decide", str(big), first, *REVIEWER)
    assert done.returncode == 0 and "5,000 decisions recorded" in done.stderr  # acknowledged
    second = decisions_csv(tmp_path / "second.csv", 5001, ITEMS)
    killed_at(tmp_path, "before-commit", "review", "decide", str(big), second, *REVIEWER)
    after = consistent(big)
    assert len(after) == 5000 and set(after.values()) == {1}  # the acknowledged, once each
    killed_at(tmp_path, "after-commit", "review", "decide", str(big), second, *REVIEWER)
    assert len(consistent(big)) == ITEMS  # committed before the kill: all of it
    again = run(tmp_path, "review", "decide", str(big), second, *REVIEWER)
    assert again.returncode == 0 and "0 decisions recorded" in again.stderr
    assert set(consistent(big).values()) == {1}  # nothing recorded twice

    # Killed at no chosen moment: while the statements of a 20,000-line change run.
    third = decisions_csv(tmp_path / "third.csv", 1, ITEMS, word="Don't know")
    child = subprocess.Popen(
        [sys.executable, str(CHILD), "none", str(tmp_path / "m"), "review", "decide", str(big),
         third, *REVIEWER],
        env=env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    wal = Path(f"{big}-wal")
    deadline = time.monotonic() + 60
    while child.poll() is None and time.monotonic() < deadline:
        if wal.exists() and wal.stat().st_size > 256 * 1024:  # pages of this change written
            hard_kill(child)
            break
        time.sleep(0.001)
    child.communicate(timeout=30)
    counts = consistent(big)
    assert set(counts.values()) in ({1}, {2})  # all of the change or none of it


@pytest.mark.slow
def test_kill_mid_merge_and_mid_sign(tmp_path: Path, big: Path) -> None:
    with Campaign.open(big) as campaign:
        parts = split(campaign, "institution", tmp_path / "parts")
    (part,) = parts
    decisions = decisions_csv(tmp_path / "d.csv", 1, ITEMS)
    assert run(tmp_path, "review", "decide", str(part), decisions, *REVIEWER).returncode == 0
    killed_at(tmp_path, "before-commit", "review", "sign", str(part), *REVIEWER)
    with Campaign.open(part) as opened:
        assert not opened.is_signed() and verify(opened).status == "unsigned"
    killed_at(tmp_path, "after-commit", "review", "sign", str(part), *REVIEWER)
    signed = run(tmp_path, "review", "sign", str(part), *REVIEWER)
    assert signed.returncode == 0
    with Campaign.open(part) as opened:
        assert verify(opened).status == "intact" and len(verify(opened).signoffs) == 1

    killed_at(tmp_path, "before-commit", "review", "merge", str(big), str(part))
    assert consistent(big) == {}  # nothing of the file
    killed_at(tmp_path, "after-commit", "review", "merge", str(big), str(part))
    assert len(consistent(big)) == ITEMS
    again = run(tmp_path, "review", "merge", str(big), str(part))
    assert again.returncode == 0 and "merged 0 decisions and 0 sign-offs" in again.stderr
    assert set(consistent(big).values()) == {1}
    with Campaign.open(big) as merged:
        check = verify(merged)
        assert check.status == "intact" and len(check.signoffs) == 1


@pytest.fixture(scope="module")
def served_many() -> Iterator[ServedSandbox]:
    server = ServedSandbox("--seed-accounts", "400")
    try:
        yield server
    finally:
        server.stop()


def job_counts(job: Path) -> dict[str, int]:
    conn = sqlite3.connect(sqlite_uri(job), uri=True, timeout=5)
    try:
        return dict(conn.execute("SELECT state, count(*) FROM items GROUP BY state").fetchall())
    finally:
        conn.close()


@pytest.mark.slow
@pytest.mark.http
def test_kill_mid_remediate_and_mid_close_over_loopback(
    tmp_path: Path, served_many: ServedSandbox
) -> None:
    connection = [*loopback(served_many), "--environment", "test"]
    out = tmp_path / "q4.review"
    made = run(tmp_path, *connection, "review", "create", str(out), "--name", "Q4")
    assert made.returncode == 0, made.stderr
    with Campaign.open(out) as campaign:
        chosen = [
            i.id
            for i in campaign.page(Query(kind="account", status="ACTIVE"), limit=1000)
            if i.label != ADMIN
        ][:150]
    lines = ["id,decision,justification", *(f"{i},Revoke,left" for i in chosen)]
    (tmp_path / "d.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert (
        run(tmp_path, "review", "decide", str(out), str(tmp_path / "d.csv"), *REVIEWER).returncode
        == 0
    )
    assert run(tmp_path, "review", "sign", str(out), *REVIEWER, "--allow-undecided").returncode == 0

    # SIGKILL once the jobs are planned, before the campaign records them: the plan left
    # behind is never run, and the next remediate leaves no second one.
    killed_at(tmp_path, "before-commit", *connection, "review", "remediate", str(out))
    assert len(list((tmp_path / "portal-admin").rglob("*.job.sqlite3"))) == 1
    with Campaign.open(out) as campaign:
        assert campaign.meta.get("remediation") is None

    # SIGKILL while the job's requests are under way.
    child = subprocess.Popen(
        [sys.executable, str(CHILD), "none", str(tmp_path / "m"), *connection, "review",
         "remediate", str(out), "--concurrency", "2"],
        env=env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    job: Path | None = None
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and child.poll() is None:
        if job is None:
            conn = sqlite3.connect(sqlite_uri(out), uri=True, timeout=5)
            row = conn.execute("SELECT value FROM meta WHERE key = 'remediation'").fetchone()
            conn.close()
            if row is not None:
                job_id = json.loads(row[0])["jobs"][0]["id"]  # in the child's jobs folder
                job = next(tmp_path.rglob(f"{job_id}.job.sqlite3"))
        elif (seen := job_counts(job)).get("done", 0) >= 10 and seen.get("sending", 0) > 0:
            hard_kill(child)
            break
        time.sleep(0.002)
    child.communicate(timeout=30)
    assert job is not None and was_killed(child.returncode), "not killed mid-run"
    left = job_counts(job)
    assert left.get("planned", 0) + left.get("sending", 0) > 0

    resumed = run(tmp_path, *connection, "review", "remediate", str(out))
    assert resumed.returncode == 0, resumed.stderr
    assert "found again" in resumed.stderr
    final = job_counts(job)
    assert final == {"done": 150}  # each exactly once: a repeat would be refused (failed)
    assert len(list((tmp_path / "portal-admin").rglob("*.job.sqlite3"))) == 1

    killed_at(tmp_path, "before-commit", *connection, "review", "close", str(out))
    with Campaign.open(out) as campaign:
        assert not campaign.meta.get("closed") and campaign.meta.get("closing") is None
    closed = run(tmp_path, *connection, "review", "close", str(out))
    assert closed.returncode == 0, closed.stderr
    assert "revoked and done: 150" in closed.stdout
    again = run(tmp_path, *connection, "review", "close", str(out))
    assert "closed already" in again.stderr
    pack = run(tmp_path, "review", "pack", str(out), str(tmp_path / "q4.zip"))
    assert pack.returncode == 0
    checked = run(tmp_path, "evidence", "verify", str(tmp_path / "q4.zip"))
    assert checked.returncode == 0 and "intact" in checked.stdout
