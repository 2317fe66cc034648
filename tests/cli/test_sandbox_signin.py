"""Runs in a row on the built-in sandbox, in a data folder the desktop program had used: each
signs in (the sandbox never refuses its own codes), without a keyring as with one."""

from __future__ import annotations

import math
import sqlite3
import time
from pathlib import Path

import pytest

from portal_admin.cli.main import main
from portal_admin.connection import builtin
from portal_admin.files.paths import data_dir

BULK = ["--sandbox", "bulk", "status", "--action", "suspend", "--all-matching"]
MATCH = ["--status", "ACTIVE", "--name", "emma"]


pytestmark = pytest.mark.usefixtures("no_keyring")  # every run signs in anew


def _codes_used_ahead(data_folder: Path, steps: int) -> None:
    """What the desktop program and earlier quick runs leave in the built-in sandbox's
    database: the administrator's authenticator codes of the next ``steps`` 30 s steps used."""
    del data_folder  # the program's own data folder: the one data_dir() gives
    db = data_dir() / builtin.SANDBOX_DB_NAME
    now = math.floor(time.time() // 30)
    with sqlite3.connect(db) as conn:
        (admin,) = conn.execute(
            "SELECT biz_id FROM accounts WHERE email = 'admin@sandbox.test'"
        ).fetchone()
        conn.executemany(
            "INSERT OR IGNORE INTO totp_used (account_biz_id, step) VALUES (?, ?)",
            [(admin, step) for step in range(now - 1, now + steps)],
        )
    conn.close()


def test_three_runs_in_a_row_in_a_used_data_folder(data_folder: Path, tmp_path: Path) -> None:
    assert main(["--sandbox", "accounts", "query", "--out", str(tmp_path / "q.csv")]) == 0
    _codes_used_ahead(data_folder, 12)
    assert main([*BULK, *MATCH, "--dry-run", "--out", str(tmp_path / "plan.csv")]) == 0
    assert main([*BULK, *MATCH, "--out", str(tmp_path / "result.csv")]) == 0
    assert main(["--sandbox", "accounts", "query", "--out", str(tmp_path / "q2.csv")]) == 0


def test_many_quick_runs_in_a_row(tmp_path: Path) -> None:
    """Faster than one per 30 s: each used to need one authenticator step more than the last,
    and the ninth was refused (exit 2)."""
    for run in range(10):
        out = tmp_path / f"q{run}.csv"
        assert (
            main(["--sandbox", "accounts", "query", "--status", "SUSPENDED", "--out", str(out)])
            == 0
        ), run
