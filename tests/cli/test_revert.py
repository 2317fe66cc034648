"""``jobs revert ID`` and ``journal revert SEQ...`` on the built-in sandbox (#30)."""

from __future__ import annotations

from pathlib import Path

import pytest

from portal_admin import jobs
from portal_admin.cli.confirm import confirm_jobs
from portal_admin.cli.errors import UsageError
from portal_admin.cli.main import main
from portal_admin.evidence import journal as journal_file
from support.forgery import append_forged

from .conftest import Query, rows
from .test_loopback import write_profiles

EMMA = ["--all-matching", "--status", "ACTIVE", "--name", "emma"]


def suspend_emmas(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, list[str]]:
    """A bulk suspension on the sandbox: its job id and targets."""
    result = tmp_path / "suspended.csv"
    assert (
        main(["--sandbox", "bulk", "status", "--action", "suspend", *EMMA, "--out", str(result)])
        == 0
    )
    err = capsys.readouterr().err
    job_id = next(line.removeprefix("job ") for line in err.splitlines() if line.startswith("job "))
    return job_id, [r["target id"] for r in rows(result) if r["outcome"] == "done"]


def test_a_job_is_reverted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], sent: list[str], query: Query
) -> None:
    job_id, targets = suspend_emmas(tmp_path, capsys)
    assert targets
    sent.clear()
    plan = tmp_path / "plan.csv"
    assert main(["--sandbox", "jobs", "revert", job_id[:17], "--dry-run", "--out", str(plan)]) == 0
    assert "accounts.status" not in sent  # a dry run sends no change
    lines = rows(plan)
    assert {r["target id"] for r in lines} == set(targets)
    assert {
        (r["before"], r["after"], r["now"], r["planned or skipped because"]) for r in lines
    } == {("ACTIVE", "SUSPENDED", "SUSPENDED", "planned")}
    assert [p for p in jobs.list_jobs() if job_id not in p.name] == []  # no job kept
    result = tmp_path / "reverted.csv"
    assert main(["--sandbox", "jobs", "revert", job_id, "--out", str(result)]) == 0
    assert {r["outcome"] for r in rows(result)} == {"done"}
    now = {a["id"]: a["status"] for a in query("--name", "emma")}
    assert all(now[t] == "ACTIVE" for t in targets)
    # The journal says which records each change reverted, and the revert's job id.
    records = [
        r
        for r in journal_file.read()
        if r["kind"] == "change" and r["operation"] == "accounts.status" and "reverts" in r["after"]
    ]
    assert len(records) == len(targets)
    assert all(r["after"]["job"] != job_id and r["after"]["reverts"] for r in records)


def test_journal_records_are_reverted_and_bad_input_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], sent: list[str], query: Query
) -> None:
    _, targets = suspend_emmas(tmp_path, capsys)
    seq = next(
        r["seq"]
        for r in journal_file.read()
        if r["kind"] == "change" and r["targets"] == [targets[0]]
    )
    sent.clear()
    assert main(["--sandbox", "journal", "revert", str(seq), "999999"]) == 2
    assert "no change with seq 999999" in capsys.readouterr().err
    assert main(["--sandbox", "jobs", "revert", "no-such-job"]) == 2
    assert "records no change of job 'no-such-job'" in capsys.readouterr().err
    assert "accounts.status" not in sent and "accounts.get" not in sent
    assert main(["--sandbox", "journal", "revert", str(seq)]) == 0
    now = {a["id"]: a["status"] for a in query("--name", "emma")}
    assert now[targets[0]] == "ACTIVE"
    assert all(now[t] == "SUSPENDED" for t in targets[1:])
    # Already back: nothing to set back, nothing sent.
    sent.clear()
    assert main(["--sandbox", "journal", "revert", str(seq)]) == 0
    err = capsys.readouterr().err
    assert "plan: 0 to set back, 1 skipped (already back)" in err
    assert "nothing to set back: nothing was sent" in err
    assert "accounts.status" not in sent


def test_a_kiosk_profile_cannot_revert(capsys: pytest.CaptureFixture[str], sent: list[str]) -> None:
    write_profiles(
        {
            "name": "Audit",
            "base_url": "https://portal.example.org",
            "portal_access_code": "X",
            "environment": "production",
            "kiosk": True,
        }
    )
    assert main(["--profile", "Audit", "journal", "revert", "1"]) == 2
    assert "kiosk profile: it cannot revert" in capsys.readouterr().err
    assert main(["--profile", "Audit", "jobs", "revert", "some-job"]) == 2
    assert sent == []  # not even a sign-in


def planned(folder: Path, kind: str, count: int) -> jobs.JobFile:
    rows_ = [(f"id{n}", f"t{n}", {}, "A", "B", None) for n in range(count)]
    return jobs.JobFile.create({"kind": kind, "params": {}}, rows_, folder)


def test_one_confirmation_rule(tmp_path: Path) -> None:
    small, big = planned(tmp_path, "revert", 100), planned(tmp_path, "revert", 101)
    bulk = planned(tmp_path, "status", 500)
    empty = planned(tmp_path, "revert", 0)
    assert jobs.confirmation_needed(small, production=True) == 100
    assert jobs.confirmation_needed(small, production=False) is None
    assert jobs.confirmation_needed(big, production=False) == 101
    assert jobs.confirmation_needed(big, production=False, threshold=200) is None
    assert jobs.confirmation_needed(bulk, production=True) == 500
    assert jobs.confirmation_needed(bulk, production=False) is None
    assert jobs.confirmation_needed(empty, production=True) is None
    # The command line applies it: a big revert on a test server needs the number typed.
    with pytest.raises(UsageError, match="confirm with --confirm 101"):
        confirm_jobs([big], "test", "Test server", None)
    with pytest.raises(UsageError, match="not confirmed"):
        confirm_jobs([big], "test", "Test server", 100)
    confirm_jobs([big], "test", "Test server", 101)
    confirm_jobs([small], "test", "Test server", None)
    with pytest.raises(UsageError):
        confirm_jobs([small], "production", "Prod", None)
    for job in (small, big, bulk, empty):
        job.close()


def test_a_forged_record_is_refused_unless_accepted_and_a_reason_is_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], sent: list[str], query: Query
) -> None:
    job_id, targets = suspend_emmas(tmp_path, capsys)
    path = journal_file.default_journal_path()
    genuine = next(
        r for r in journal_file.read() if r["kind"] == "change" and r["targets"] == [targets[0]]
    )
    # Someone who can write the file appends a correctly chained copy naming an account the
    # job never touched.
    victim = next(a["id"] for a in query("--status", "ACTIVE") if a["id"] not in targets)
    copy = {k: v for k, v in genuine.items() if k not in ("prev", "hash", "seq", "intent_seq")}
    [forged] = append_forged(path, {**copy, "targets": [victim]})
    sent.clear()
    assert main(["--sandbox", "journal", "revert", str(forged)]) == 2
    err = capsys.readouterr().err
    assert f"record(s) {forged} are not authenticated" in err
    assert "--accept-unauthenticated" in err and "nothing was sent" in err
    assert "accounts.status" not in sent
    assert main(["--sandbox", "journal", "revert", str(forged), "--accept-unauthenticated"]) == 0
    assert "1 unauthenticated journal record(s) accepted on purpose" in capsys.readouterr().err
    # The genuine record, with a reason: sent with the change and kept in the journal.
    reason = "Ticket 4711: suspended by mistake"
    assert main(["--sandbox", "journal", "revert", str(genuine["seq"]), "--reason", reason]) == 0
    kept = [
        r
        for r in journal_file.read()
        if r["kind"] == "change" and r["targets"] == [targets[0]] and "reverts" in r["after"]
    ]
    assert [(r["fields"]["reason"], r["after"]["reason"]) for r in kept] == [(reason, reason)]
    assert main(["--sandbox", "jobs", "revert", job_id, "--reason", "bell\x07"]) == 2
    assert "without control characters" in capsys.readouterr().err
