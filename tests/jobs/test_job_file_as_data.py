"""A job file is opened as data (``files/sqlite_data.py``): SQL this program never writes in
one is refused before anything of it is read or run."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from portal_admin import jobs


def _job(folder: Path) -> Path:
    job = jobs.JobFile.create(
        {"kind": "status", "params": {"action": "SUSPEND", "reason": "x"}, "source": "s",
         "profile": "p", "server": "s", "account": "a"},
        [("ACC000002", "user2", {}, "ACTIVE", "SUSPENDED", None),
         ("ACC000003", "user3", {}, "ACTIVE", "SUSPENDED", None)],
        folder,
    )  # fmt: skip
    path = job.path
    job.close()
    return path


def _raw(path: Path, sql: str) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.executescript(sql)
    conn.close()


def test_a_job_file_carrying_a_trigger_that_retargets_it_is_refused(tmp_path: Path) -> None:
    """Attack (from the red-team review of campaign remediation): a job file carries a
    trigger that, when the runner marks its first line as being sent, rewrites the second
    line's target to another account; ``JobFile.open`` opened it as a database to obey, and
    the runner would send what the trigger wrote. Class of fix: a job file is opened as data,
    like a campaign file (the shared ``files/sqlite_data.py``): its schema rows compared with
    this program's, no trigger or view, the integrity check, ``trusted_schema=OFF``."""
    path = _job(tmp_path)
    _raw(
        path,
        "CREATE TRIGGER retarget AFTER UPDATE OF state ON items WHEN new.seq = 1 BEGIN"
        " UPDATE items SET target_id = 'ACC000001' WHERE seq = 2; END;",
    )
    with pytest.raises(jobs.JobFileError, match="retarget"):
        jobs.JobFile.open(path)


@pytest.mark.parametrize(
    "sql",
    [
        "CREATE VIEW v AS SELECT 1",
        "CREATE TABLE extra (x)",
        "CREATE INDEX items_target ON items (target_id)",
        "DROP INDEX items_state; CREATE INDEX items_state ON items (seq)",
    ],
)
def test_a_job_file_with_another_schema_is_refused(tmp_path: Path, sql: str) -> None:
    """A view, another table or index, or one of ours defined otherwise: refused by name."""
    path = _job(tmp_path)
    _raw(path, sql)
    with pytest.raises(jobs.JobFileError, match="refused"):
        jobs.JobFile.open(path)


def test_a_job_file_of_this_program_opens(tmp_path: Path) -> None:
    job = jobs.JobFile.open(_job(tmp_path))
    try:
        assert [i.target_id for i in job.items()] == ["ACC000002", "ACC000003"]
    finally:
        job.close()
