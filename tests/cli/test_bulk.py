"""``bulk ...`` against the built-in sandbox: the dry run sends nothing, a run changes exactly
the plan, lines that name nothing are kept, refusals exit 1, invitations are made and cancelled."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from portal_admin import jobs
from portal_admin.cli.main import main
from portal_admin.protocol.operations import READ_ONLY_ALLOWED

from .conftest import Query, rows

EMMA = ["--all-matching", "--status", "ACTIVE", "--name", "emma"]


def test_a_dry_run_sends_nothing_and_keeps_no_job(
    tmp_path: Path, query: Query, sent: list[str]
) -> None:
    before = query("--status", "ACTIVE", "--name", "emma")
    plan = tmp_path / "plan.csv"
    sent.clear()
    argv = ["--sandbox", "bulk", "status", "--action", "suspend", *EMMA, "--dry-run"]
    assert main([*argv, "--out", str(plan), "--delimiter", "tab"]) == 0
    assert sent and all(op in READ_ONLY_ALLOWED for op in sent), sent
    assert "\t" in plan.read_text(encoding="utf-8-sig").splitlines()[0]
    with plan.open(encoding="utf-8-sig", newline="") as fh:
        planned = list(csv.DictReader(fh, delimiter="\t"))
    assert {r["target id"] for r in planned} == {a["id"] for a in before}
    assert {(r["current"], r["new"]) for r in planned} == {("ACTIVE", "SUSPENDED")}
    assert query("--status", "ACTIVE", "--name", "emma") == before
    assert jobs.list_jobs() == []


def test_a_run_changes_the_plan_and_writes_the_result(
    tmp_path: Path, query: Query, sent: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    before = query("--status", "ACTIVE", "--name", "emma")
    result = tmp_path / "result.csv"
    sent.clear()
    argv = ["--sandbox", "bulk", "status", "--action", "suspend", *EMMA, "--reason", "left"]
    assert main([*argv, "--out", str(result), "--concurrency", "2"]) == 0
    assert sent.count("accounts.status") == len(before)
    lines = rows(result)
    assert {r["target id"] for r in lines} == {a["id"] for a in before}
    assert all(r["outcome"] == "done" and r["after"] == "SUSPENDED" for r in lines)
    assert all(r["request id"] and r["time"] for r in lines)
    assert query("--status", "ACTIVE", "--name", "emma") == []
    assert f"finished: {len(before)} done" in capsys.readouterr().err
    # the job is kept, with its result beside it when no --out is given
    again = ["--sandbox", "bulk", "status", "--action", "activate", "--ids", lines[0]["target id"]]
    assert main(again) == 0
    job_id = capsys.readouterr().err.split("job ")[1].split()[0]
    assert (jobs.jobs_dir() / f"{job_id}.result.csv").is_file()
    assert (jobs.jobs_dir() / f"{job_id}.job.sqlite3").is_file()


def test_imported_lines_that_name_nothing_are_kept_and_refusals_exit_1(
    tmp_path: Path, query: Query
) -> None:
    some = query("--status", "ACTIVE", "--name", "emma")[:2]
    listed = tmp_path / "list.csv"
    text = "email;note\n" + "".join(f"{a['email']};x\n" for a in some)
    listed.write_text(text + "nobody@nowhere.test;y\nnot an email;z\n", encoding="utf-8")
    result = tmp_path / "result.csv"
    argv = ["--sandbox", "bulk", "update", "--field", "language", "--value", "vi"]
    assert main([*argv, "--file", str(listed), "--out", str(result)]) == 0
    outcomes = {r["target"]: (r["outcome"], r["error code"]) for r in rows(result)}
    assert outcomes["line 4: nobody@nowhere.test"] == ("skipped", "NOT_FOUND")
    assert outcomes["line 5: not an email"] == ("skipped", "INVALID")
    assert [outcomes[a["email"]] for a in some] == [("done", "")] * 2
    # a value the server refuses: both fail with its code and request id, exit status 1
    argv = ["--sandbox", "bulk", "update", "--field", "country", "--value", "ABCD"]
    assert main([*argv, "--file", str(listed), "--out", str(result)]) == 1
    failed = [r for r in rows(result) if r["outcome"] == "failed"]
    assert len(failed) == 2 and {r["error code"] for r in failed} == {
        "VALIDATION.INVALID_PARAMETER"
    }
    assert all(r["request id"] for r in failed)


def test_ids_from_standard_input_and_the_signed_in_account_is_skipped(
    tmp_path: Path, query: Query, monkeypatch: pytest.MonkeyPatch
) -> None:
    admin = query("--email", "admin@sandbox.test")[0]
    other = query("--status", "ACTIVE", "--name", "emma")[0]
    result = tmp_path / "result.csv"
    argv = ["--sandbox", "bulk", "reset-password", "--ids", f"{admin['id']}, {other['id']}"]
    assert main([*argv, "--out", str(result)]) == 0
    outcomes = {r["target id"]: (r["outcome"], r["error code"]) for r in rows(result)}
    assert outcomes == {admin["id"]: ("skipped", "SELF"), other["id"]: ("done", "")}

    class Stdin:
        buffer = io.BytesIO(f"id\n{other['id']}\n".encode())

        def isatty(self) -> bool:
            return False

    monkeypatch.setattr("sys.stdin", Stdin())
    argv = ["--sandbox", "bulk", "update", "--field", "remark", "--value", "from stdin"]
    assert main([*argv, "--file", "-", "--out", str(result)]) == 0
    assert [r["after"] for r in rows(result)] == ["from stdin"]


def test_invite_then_cancel_the_invitations(tmp_path: Path, sent: list[str]) -> None:
    emails = tmp_path / "people.csv"
    emails.write_text(
        "email,message\nann@invited.test,Welcome Ann\nbob@invited.test,\nann@invited.test,\n",
        encoding="utf-8",
    )
    result = tmp_path / "invited.csv"
    argv = ["--sandbox", "bulk", "invite", "--file", str(emails), "--message", "Hello"]
    assert main([*argv, "--expiration-days", "3", "--out", str(result)]) == 0
    invited = {r["target"]: (r["outcome"], r["error code"]) for r in rows(result)}
    assert invited["ann@invited.test"] == ("done", "")
    assert invited["bob@invited.test"] == ("done", "")
    assert invited["line 4: ann@invited.test"] == ("skipped", "DUPLICATE")
    # inviting them again: a pending invitation exists, nothing is sent
    sent.clear()
    assert main([*argv, "--out", str(result)]) == 0
    assert "invitations.create" not in sent
    assert {r["error code"] for r in rows(result)} >= {"PENDING_EXISTS"}
    # older than a day: the sandbox's own earlier invitations, not these two
    argv = ["--sandbox", "bulk", "cancel-invitations", "--reason", "by mistake"]
    plan = tmp_path / "plan.csv"
    assert main([*argv, "--older-than", "1", "--dry-run", "--out", str(plan)]) == 0
    older = {r["target"] for r in rows(plan)}
    assert older and not older & {"ann@invited.test", "bob@invited.test"}
    assert all(r["current"] == "PENDING" and not r["skipped because"] for r in rows(plan))
    # every pending one, by email from a list: both of ann's lines name one invitation
    names = tmp_path / "cancel.csv"
    names.write_text("ann@invited.test\nbob@invited.test\nnobody@invited.test\n", encoding="utf-8")
    assert main([*argv, "--file", str(names), "--out", str(result)]) == 0
    cancelled = {r["target"]: (r["outcome"], r["after"], r["error code"]) for r in rows(result)}
    assert cancelled == {
        "ann@invited.test": ("done", "CANCELLED", ""),
        "bob@invited.test": ("done", "CANCELLED", ""),
        "line 3: nobody@invited.test": ("skipped", "", "NOT_FOUND"),
    }
    assert main([*argv, "--all-pending", "--out", str(result)]) == 0
    assert {r["target"] for r in rows(result)} == older
