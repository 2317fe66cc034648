"""The job file: owner-only permissions, and version 1 files opened, upgraded and resumed."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from portal_admin import jobs
from portal_admin.jobs.store import SCHEMA_VERSION, SUFFIX
from portal_admin.jobs.targets import all_accounts

from .conftest import FastTime, Portal

posix = pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")

#: The items table as version 1 of the program wrote it.
V1_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE items (
    seq INTEGER PRIMARY KEY,
    target_id TEXT NOT NULL,
    label TEXT NOT NULL,
    record TEXT NOT NULL,
    current TEXT NOT NULL,
    new TEXT NOT NULL,
    skip TEXT,
    state TEXT NOT NULL,
    after TEXT,
    error_code TEXT,
    request_id TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    note TEXT,
    finished_at TEXT
);
CREATE INDEX items_state ON items (state, seq);
"""


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def open_umask() -> Iterator[None]:
    """A umask that takes nothing away (files would be 0666, folders 0777)."""
    previous = os.umask(0)
    yield
    os.umask(previous)


def plan(folder: Path, remark: str = "private note") -> jobs.JobFile:
    meta = {"kind": "update", "params": {"field": "remark", "value": remark}, "concurrency": 2}
    record = {"email": "someone@example.com", "name": "Some One", "remark": ""}
    return jobs.JobFile.create(
        meta, [("ACC1", "someone@example.com", record, "", remark, None)], folder
    )


@posix
async def test_a_job_file_and_the_files_beside_it_are_for_its_owner_only(
    tmp_path: Path, open_umask: None
) -> None:
    del open_umask
    folder = tmp_path / "jobs"
    job = plan(folder)
    assert mode(folder) == 0o700
    assert mode(job.path) == 0o600
    await job.set_meta(state=jobs.JobState.RUNNING)  # SQLite now has its -wal and -shm
    job.lock()
    beside = [Path(f"{job.path}{side}") for side in ("-wal", "-shm", ".lock")]
    assert all(p.exists() for p in beside)
    assert {p.name: mode(p) for p in [job.path, *beside]} == {
        p.name: 0o600 for p in [job.path, *beside]
    }
    assert job.is_locked_elsewhere() is False
    job.close()
    assert not list(folder.glob(".*.tmp*"))  # nothing left of the temporary plan


@posix
async def test_an_earlier_job_file_made_readable_to_all_is_restricted_when_opened(
    tmp_path: Path,
) -> None:
    job = plan(tmp_path)
    path = job.path
    job.close()
    os.chmod(path, 0o644)  # as version 1 created it
    job = jobs.JobFile.open(path)
    await job.set_meta(state=jobs.JobState.PAUSED)  # SQLite makes its -wal and -shm
    beside = [Path(f"{path}{side}") for side in ("-wal", "-shm")]
    assert {p.name: mode(p) for p in [path, *beside]} == {p.name: 0o600 for p in [path, *beside]}
    job.close()


def write_v1(path: Path, rows: list[tuple[str, str, dict[str, str], str, str, str]]) -> None:
    """A job file as version 1 wrote it: (target id, label, record, current, new, state)."""
    conn = sqlite3.connect(path)
    conn.executescript(V1_SCHEMA)
    meta = {
        "kind": "update",
        "params": {"field": "remark", "value": "from version 1"},
        "profile": "Sandbox",
        "server": "http://sandbox.local",
        "account": "admin@sandbox.test",
        "environment": "sandbox",
        "concurrency": 2,
        "id": path.name.removesuffix(SUFFIX),
        "schema": 1,
        "state": "running",  # the version-1 runner was killed
        "created_at": "2026-11-01T10:00:00.000+00:00",
    }
    values = [(k, json.dumps(v)) for k, v in meta.items()]
    conn.executemany("INSERT INTO meta VALUES (?, ?)", values)
    conn.executemany(
        "INSERT INTO items (target_id, label, record, current, new, state, attempts)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(t, label, json.dumps(r), c, n, s, int(s != "planned")) for t, label, r, c, n, s in rows],
    )
    conn.commit()
    conn.close()


async def test_a_version_1_job_file_opens_upgraded_and_resumes(
    portal: Portal, tmp_path: Path, fast: FastTime
) -> None:
    me = (await portal.client.auth.profile()).biz_id
    a, b, c = [t async for t in all_accounts(portal.client, status="ACTIVE") if t.id != me][:3]
    new = "from version 1"
    # a: sent by version 1 and applied, its answer lost (left ``sending``); b: not sent yet
    await portal.client.accounts.update(a.id, account_remark=new)
    path = tmp_path / f"20261101-100000000-abcdef{SUFFIX}"
    write_v1(
        path,
        [
            (a.id, a.label, dict(a.record), str(a.record["remark"]), new, "sending"),
            (b.id, b.label, dict(b.record), str(b.record["remark"]), new, "planned"),
            (c.id, c.label, dict(c.record), str(c.record["remark"]), new, "planned"),
        ],
    )
    job = jobs.JobFile.open(path)
    assert job.meta()["schema"] == SCHEMA_VERSION == 2
    lines = list(job.items())
    assert [(i.state, i.sent_until, i.unknown_sends) for i in lines] == [
        (jobs.ItemState.SENDING, None, 0),
        (jobs.ItemState.PLANNED, None, 0),
        (jobs.ItemState.PLANNED, None, 0),
    ]
    updates = portal.sent("accounts.update", None)
    runner = jobs.Runner(portal.client, job, settling=fast.settling())
    progress = await runner.run()
    assert progress.state is jobs.JobState.FINISHED and progress.counts["done"] == 3
    # its time of sending is not recorded: it was read back one whole window later
    assert sum(fast.slept) >= runner.window - 1
    assert portal.sent("accounts.update", None) - updates == 2  # b and c, not a again
    assert next(job.items()).note == "verified by reading back"
    job.close()
    again = jobs.JobFile.open(path)  # opened again: already version 2
    assert again.meta()["schema"] == 2
    again.close()


@pytest.mark.parametrize("schema", [3, "two", None])
def test_a_job_file_of_another_version_is_refused(tmp_path: Path, schema: object) -> None:
    path = tmp_path / f"x{SUFFIX}"
    write_v1(path, [])
    conn = sqlite3.connect(path)
    conn.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (json.dumps(schema),))
    conn.commit()
    conn.close()
    with pytest.raises(jobs.JobFileError, match="not a job file"):
        jobs.JobFile.open(path)
