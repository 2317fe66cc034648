"""``portal-admin-cli`` against the built-in sandbox (in process) and a loopback sandbox."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from portal_admin import jobs
from portal_admin.cli.main import main
from support.served import ServedSandbox


@pytest.fixture(autouse=True)
def data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data folder of this test's own: its built-in sandbox and its jobs."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "data"


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8-sig", newline="") as fh:
        return list(csv.DictReader(fh))


def query(tmp_path: Path, *filters: str) -> list[dict[str, str]]:
    out = tmp_path / f"query-{time.monotonic_ns()}.csv"
    assert main(["accounts", "query", "--sandbox", *filters, "--out", str(out)]) == 0
    return rows(out)


def test_accounts_query_as_csv_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    suspended = query(tmp_path, "--status", "SUSPENDED")
    assert suspended and {r["status"] for r in suspended} == {"SUSPENDED"}
    assert (
        main(["accounts", "query", "--sandbox", "--status", "SUSPENDED", "--format", "json"]) == 0
    )
    printed = json.loads(capsys.readouterr().out)
    assert [a["id"] for a in printed] == [r["id"] for r in suspended]


def test_a_dry_run_sends_nothing_and_keeps_no_job(tmp_path: Path) -> None:
    before = query(tmp_path, "--status", "ACTIVE", "--name", "emma")
    plan = tmp_path / "plan.csv"
    argv = ["bulk", "status", "--sandbox", "--action", "suspend", "--all-matching"]
    argv += ["--status", "ACTIVE", "--name", "emma", "--dry-run", "--out", str(plan)]
    assert main(argv) == 0
    planned = rows(plan)
    assert {r["target id"] for r in planned} == {r["id"] for r in before}
    assert {(r["current"], r["new"]) for r in planned} == {("ACTIVE", "SUSPENDED")}
    assert query(tmp_path, "--status", "ACTIVE", "--name", "emma") == before
    assert jobs.list_jobs() == []


def test_a_run_changes_the_targets_and_writes_the_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = query(tmp_path, "--status", "ACTIVE", "--name", "emma")
    result = tmp_path / "result.csv"
    argv = ["bulk", "status", "--sandbox", "--action", "suspend", "--all-matching"]
    argv += ["--status", "ACTIVE", "--name", "emma", "--out", str(result), "--reason", "left"]
    assert main(argv) == 0
    lines = rows(result)
    assert {r["target id"] for r in lines} == {r["id"] for r in before}
    assert all(r["outcome"] == "done" and r["after"] == "SUSPENDED" for r in lines)
    assert query(tmp_path, "--status", "ACTIVE", "--name", "emma") == []
    capsys.readouterr()
    assert main(["jobs", "list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert len(listed) == 2 and " finished " in listed[1]


def test_an_imported_list_keeps_unmatched_lines_and_failures_exit_1(tmp_path: Path) -> None:
    some = query(tmp_path, "--status", "ACTIVE", "--name", "emma")[:2]
    listed = tmp_path / "list.csv"
    listed.write_text(
        "email\n" + "".join(f"{r['email']}\n" for r in some) + "nobody@nowhere.test\n",
        encoding="utf-8",
    )
    result = tmp_path / "result.csv"
    argv = ["bulk", "update", "--sandbox", "--field", "language", "--value", "vi"]
    assert main([*argv, "--file", str(listed), "--out", str(result)]) == 0
    outcomes = {r["target"]: (r["outcome"], r["error code"]) for r in rows(result)}
    assert outcomes["line 4: nobody@nowhere.test"] == ("skipped", "NOT_FOUND")
    assert [outcomes[r["email"]] for r in some] == [("done", "")] * 2
    # a value the server refuses: every target fails, with its code
    argv = ["bulk", "update", "--sandbox", "--field", "country", "--value", "ABCD"]
    assert main([*argv, "--file", str(listed), "--out", str(result)]) == 1
    failed = [r for r in rows(result) if r["outcome"] == "failed"]
    assert len(failed) == 2 and {r["error code"] for r in failed} == {
        "VALIDATION.INVALID_PARAMETER"
    }
    assert all(r["request id"] for r in failed)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"email\nok@example.org\n\xff\xfe@example.org\n", "line 3: the file is not UTF-8"),
        (b"first,second\na,b\n", "line 1: no column is named email or id"),
        (b'email\n"unterminated@example.org\n', "the CSV cannot be read"),
        (b"", "the file lists nothing"),
    ],
)
def test_a_bad_file_is_a_usage_error_naming_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, message: str
) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_bytes(content)
    argv = ["bulk", "reset-password", "--sandbox", "--file", str(bad), "--dry-run"]
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_a_million_lines_are_refused_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    big = tmp_path / "big.csv"
    big.write_bytes(b"email\n" + b"someone@example.org\n" * 1_000_000)
    started = time.monotonic()
    assert main(["bulk", "reset-password", "--sandbox", "--file", str(big), "--dry-run"]) == 2
    assert "more than 200,000 lines" in capsys.readouterr().err
    assert time.monotonic() - started < 10


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bulk", "reset-password", "--sandbox", "--dry-run"]) == 2
    assert "one of --file, --ids and --all-matching" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exited:
        main(["bulk", "status", "--sandbox", "--action", "explode", "--ids", "x"])
    assert exited.value.code == 2
    assert main(["accounts", "query"]) == 2  # no server named


def test_a_paused_job_resumes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    some = query(tmp_path, "--status", "ACTIVE", "--name", "emma")[:3]
    argv = ["bulk", "update", "--sandbox", "--field", "remark", "--value", "checked"]
    argv += ["--ids", ",".join(r["id"] for r in some), "--dry-run"]
    assert main(argv) == 0
    # a job left paused (as a dropped connection or Ctrl+C leaves it)
    job_path = _paused_job(some)
    capsys.readouterr()
    assert main(["jobs", "resume", job_path.name.split(".")[0]]) == 0
    assert "finished: 3 done" in capsys.readouterr().err
    done = query(tmp_path, "--status", "ACTIVE", "--name", "emma")
    assert {r["remark"] for r in done if r["id"] in {s["id"] for s in some}} == {"checked"}
    assert main(["jobs", "resume", job_path.name.split(".")[0]]) == 2  # finished: nothing left


def _paused_job(accounts: list[dict[str, str]]) -> Path:
    """A job of three remark changes, planned by the engine and left paused."""
    import asyncio

    from portal_admin.jobs.actions import Target

    async def plan() -> Path:
        meta = {
            "kind": "update",
            "params": {"field": "remark", "value": "checked"},
            "profile": "Sandbox",
            "server": "http://sandbox.local",
            "account": "admin@sandbox.test",
            "concurrency": 2,
        }
        targets = [Target(a["id"], a["email"], {"remark": a["remark"]}) for a in accounts]
        job = jobs.JobFile.create(
            meta,
            [(t.id, t.label, dict(t.record), t.record["remark"], "checked", None) for t in targets],
        )
        await job.set_meta(state=jobs.JobState.PAUSED, pause_reason="CONNECTION")
        job.close()
        return job.path

    return asyncio.run(plan())


def test_production_asks_for_the_number_of_targets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    served = ServedSandbox("--seed-accounts", "60")
    try:
        monkeypatch.setenv("SANDBOX_PASSWORD", "Sandbox-Admin-2026!")
        base = ["bulk", "status", "--server", served.base_url, "--access-code", "SANDBOX"]
        base += ["--user", "admin@sandbox.test", "--password-env", "SANDBOX_PASSWORD"]
        base += ["--sandbox-mfa", "--action", "suspend", "--all-matching", "--status", "ACTIVE"]
        assert main(base) == 2  # not a terminal, no --confirm
        err = capsys.readouterr().err
        count = int(err.split("--confirm ")[1].split()[0])
        assert main([*base, "--confirm", str(count + 1)]) == 2
        assert f"not confirmed: {count} targets" in capsys.readouterr().err
        assert jobs.list_jobs() == []  # nothing kept, nothing sent
        assert main([*base, "--confirm", str(count)]) == 0
        assert f"finished: {count} done" in capsys.readouterr().err
    finally:
        served.stop()


def test_the_command_line_imports_no_qt() -> None:
    code = (
        "import sys, portal_admin.cli.main, portal_admin.cli.commands, portal_admin.jobs;"
        "bad = [m for m in sys.modules if m.startswith(('PySide6', 'qasync', 'portal_admin.ui'))];"
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True, env=dict(os.environ))
