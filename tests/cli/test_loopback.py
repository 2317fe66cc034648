"""The command line over loopback HTTP against ``portal-sandbox serve``: the non-interactive
sign-in, production confirmation, profiles and the desktop program's kept refresh token, and
Ctrl+C pausing a job that ``jobs resume`` finishes."""

from __future__ import annotations

import json
import logging
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import keyring
import pytest
from keyring.backend import KeyringBackend

from portal_admin import jobs
from portal_admin.cli.main import main
from portal_admin.files.paths import config_dir
from support.served import ServedSandbox

from .conftest import ADMIN, Query, loopback, rows

pytestmark = pytest.mark.http


def test_a_run_with_the_documented_non_interactive_sign_in(
    served: ServedSandbox,
    password: str,
    query: Query,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    connection = tuple(loopback(served, "--environment", "test"))
    before = query("--portal", "TENANT", "--status", "ACTIVE", connection=connection)
    assert before
    result = tmp_path / "result.csv"
    argv = [*connection, "bulk", "update", "--field", "timezone", "--value", "Asia/Tokyo"]
    argv += ["--all-matching", "--portal", "TENANT", "--status", "ACTIVE", "--out", str(result)]
    assert main(argv) == 0
    assert {r["target id"] for r in rows(result) if r["outcome"] == "done"} <= {
        a["id"] for a in before
    }
    after = query("--portal", "TENANT", "--status", "ACTIVE", connection=connection)
    assert {a["timezone"] for a in after if a["email"] != ADMIN} == {"Asia/Tokyo"}
    captured = capsys.readouterr()
    for text in (captured.out, captured.err, caplog.text, result.read_text(encoding="utf-8")):
        assert password not in text
    # the connection options may follow the command too
    argv = ["accounts", "query", "--server", served.base_url, "--access-code", "SANDBOX"]
    argv += ["--user", ADMIN, "--password-env", "PORTAL_PASSWORD", "--sandbox-mfa"]
    assert main([*argv, "--email", "emma"]) == 0
    assert all("emma" in line.lower() for line in capsys.readouterr().out.splitlines()[1:])


def test_production_asks_for_the_number_of_targets(
    served: ServedSandbox,
    password: str,
    typed: Callable[[str], None],
    capsys: pytest.CaptureFixture[str],
    sent: list[str],
) -> None:
    del password
    argv = [*loopback(served), "bulk", "status", "--action", "suspend"]
    argv += ["--all-matching", "--portal", "PARTNER", "--status", "ACTIVE"]
    assert main(argv) == 2  # production (the default for --server), no terminal, no --confirm
    err = capsys.readouterr().err
    count = int(re.search(r"confirm with --confirm (\d+)", err).group(1))  # type: ignore[union-attr]
    assert count > 0
    assert main([*argv, "--confirm", str(count + 1)]) == 2
    assert f"not confirmed: {count} targets would change; nothing was sent" in (
        capsys.readouterr().err
    )
    typed(f"{count - 1}\n")  # a person who typed the wrong number
    assert main(argv) == 2
    assert f"Type {count} to go on" in capsys.readouterr().err
    assert "accounts.status" not in sent
    assert jobs.list_jobs() == []  # nothing kept, nothing sent
    typed(f"{count}\n")
    assert main(argv) == 0
    assert f"finished: {count} done" in capsys.readouterr().err
    # a script: --yes-i-typed N
    back = [*loopback(served), "bulk", "status", "--action", "activate"]
    back += ["--all-matching", "--portal", "PARTNER", "--status", "SUSPENDED"]
    assert main([*back, "--dry-run"]) == 0  # a dry run needs no confirmation
    suspended = int(re.search(r"plan: (\d+) to change", capsys.readouterr().err).group(1))  # type: ignore[union-attr]
    assert main([*back, "--yes-i-typed", str(suspended)]) == 0
    assert f"finished: {suspended} done" in capsys.readouterr().err


class DictKeyring(KeyringBackend):
    """A keyring in memory that says it works (as the OS keyring does)."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.secrets: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.secrets.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.secrets[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.secrets.pop((service, username), None)


@pytest.fixture
def os_keyring() -> Iterator[DictKeyring]:
    previous = keyring.get_keyring()
    ring = DictKeyring()
    keyring.set_keyring(ring)
    try:
        yield ring
    finally:
        keyring.set_keyring(previous)


def write_profiles(*profiles: dict[str, object]) -> None:
    """The desktop program's profiles file."""
    folder = config_dir()
    folder.mkdir(parents=True, exist_ok=True)
    data = {"version": 1, "last_used": None, "profiles": list(profiles)}
    (folder / "profiles.json").write_text(json.dumps(data), encoding="utf-8")


def test_a_profile_and_the_kept_refresh_token(
    served: ServedSandbox,
    password: str,
    os_keyring: DictKeyring,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    sent: list[str],
) -> None:
    caplog.set_level(logging.DEBUG)
    write_profiles(
        {
            "name": "Local",
            "base_url": served.base_url,
            "portal_access_code": "SANDBOX",
            "environment": "test",
        }
    )
    argv = ["--profile", "local", "--user", ADMIN, "accounts", "query", "--status", "SUSPENDED"]
    assert main([*argv[:4], "--password-env", "PORTAL_PASSWORD", "--sandbox-mfa", *argv[4:]]) == 0
    # kept where the desktop program keeps it: service portal-admin, "<profile>|<account>"
    token = os_keyring.secrets[("portal-admin", f"Local|{ADMIN}")]
    first = capsys.readouterr().out
    sent.clear()
    assert main(argv) == 0  # no password, no terminal: the kept token signs in
    assert "auth.login_initiate" not in sent and "auth.token_refresh" in sent
    assert capsys.readouterr().out == first
    new_token = os_keyring.secrets[("portal-admin", f"Local|{ADMIN}")]
    captured = capsys.readouterr()
    for secret in (password, token, new_token):
        assert secret not in captured.out + captured.err + caplog.text
    # without a kept token and without a terminal, the password cannot be asked for
    os_keyring.secrets.clear()
    assert main(argv) == 2
    assert "Password needed: run in a terminal or use --password-env" in capsys.readouterr().err


@pytest.fixture
def own_served() -> Iterator[ServedSandbox]:
    """A sandbox of the test's own: the module's shared one counts every refresh of the
    administrator's tokens in its rate-limit window, whichever tests ran before."""
    server = ServedSandbox("--seed-accounts", "60")
    try:
        yield server
    finally:
        server.stop()


def test_a_kiosk_profile_reads_but_makes_no_plan(
    own_served: ServedSandbox, password: str, capsys: pytest.CaptureFixture[str], sent: list[str]
) -> None:
    del password
    served = own_served
    write_profiles(
        {
            "name": "Audit",
            "base_url": served.base_url,
            "portal_access_code": "SANDBOX",
            "environment": "production",
            "kiosk": True,
        }
    )
    connection = ["--profile", "Audit", "--user", ADMIN, "--password-env", "PORTAL_PASSWORD"]
    connection.append("--sandbox-mfa")
    assert main([*connection, "accounts", "query", "--status", "SUSPENDED"]) == 0
    capsys.readouterr()
    argv = [*connection, "bulk", "reset-password", "--all-matching", "--dry-run"]
    assert main(argv) == 2
    assert "read-only: no bulk reset-password plan is built" in capsys.readouterr().err
    assert jobs.list_jobs() == []
    assert not any(op.startswith("accounts.") and op != "accounts.query" for op in sent)


@pytest.mark.skipif(
    sys.platform == "win32",
    reason="Windows cannot send Ctrl+C (SIGINT) to one child process: a console's Ctrl+C "
    "reaches its whole process group",
)
def test_ctrl_c_pauses_and_jobs_resume_finishes(
    password: str, tmp_path: Path, query: Query
) -> None:
    del password
    served = ServedSandbox("--seed-accounts", "120", "--write-rate-limit", "20")
    try:
        connection = loopback(served, "--environment", "test")
        active = query("--status", "ACTIVE", connection=tuple(connection))
        command = [sys.executable, "-m", "portal_admin.cli", *connection, "--lang", "en"]
        command += ["bulk", "update", "--field", "remark", "--value", "once"]
        command += ["--all-matching", "--status", "ACTIVE", "--progress", "--concurrency", "2"]
        child = subprocess.Popen(
            command, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=os.environ
        )
        assert child.stderr is not None
        seen: list[str] = []
        deadline = time.monotonic() + 60
        for line in child.stderr:  # progress lines, one a second: interrupt after some work
            seen.append(line)
            if re.search(r"done [1-9]", line) or time.monotonic() > deadline:
                break
        child.send_signal(signal.SIGINT)
        _, rest = child.communicate(timeout=60)
        err = "".join(seen) + rest
        assert child.returncode == 1, err
        job_id = re.search(r"jobs resume (\S+)'", err).group(1)  # type: ignore[union-attr]
        assert "paused (interrupted)" in err and "Traceback" not in err
        job = jobs.JobFile.open(jobs.jobs_dir() / f"{job_id}.job.sqlite3")
        try:
            assert job.meta()["state"] == "paused" and job.meta()["pause_reason"] == "BY_USER"
            counts = job.counts()
            assert counts["planned"] > 0 and counts["sending"] == 0 and counts["done"] > 0
        finally:
            job.close()
        result = tmp_path / "result.csv"
        assert main([*connection, "jobs", "resume", job_id, "--out", str(result)]) == 0
        lines = rows(result)
        changed = [r for r in lines if r["outcome"] == "done"]
        assert len(changed) == len(active) - 1  # every target but the signed-in account
        assert len({r["request id"] for r in changed}) == len(changed)
        assert all(r["note"] == "" for r in changed)  # none sent twice, none read back
        after = query("--status", "ACTIVE", connection=tuple(connection))
        assert {a["remark"] for a in after if a["email"] != ADMIN} == {"once"}
    finally:
        served.stop()
