"""``jobs list | show | resume`` on jobs of the built-in sandbox kept in the data folder."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from portal_admin import jobs
from portal_admin.cli.main import main

from .conftest import Query, rows


def paused_job(accounts: list[dict[str, str]], value: str, **meta: object) -> jobs.JobFile:
    """A job of remark changes on the built-in sandbox, left paused as a dropped connection
    leaves it (one target sent and not answered: ``sending``)."""

    async def plan() -> jobs.JobFile:
        job = jobs.JobFile.create(
            {
                "kind": "update",
                "params": {"field": "remark", "value": value},
                "profile": "Sandbox",
                "server": "http://sandbox.local",
                "account": "admin@sandbox.test",
                "environment": "sandbox",
                "concurrency": 2,
                **meta,
            },
            [(a["id"], a["email"], dict(a), a["remark"], value, None) for a in accounts],
        )
        first = next(job.items())
        # sent long enough ago that the request can no longer be applied (docs/bulk.md)
        await job.set_item(first.seq, jobs.ItemState.SENDING, sent_until=time.time() - 1)
        await job.set_meta(state=jobs.JobState.PAUSED, pause_reason="CONNECTION")
        return job

    return asyncio.run(plan())


def test_list_show_and_resume_a_paused_job(
    tmp_path: Path, query: Query, sent: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    some = query("--status", "ACTIVE", "--name", "emma")[:3]
    job = paused_job(some, "checked")
    job_id = job.id
    job.close()
    capsys.readouterr()
    assert main(["jobs", "list"]) == 0
    header, line = capsys.readouterr().out.splitlines()
    assert header.split()[:8] == [
        "id",
        "action",
        "state",
        "done",
        "failed",
        "skipped",
        "unknown",
        "left",
    ]
    assert line.split()[:8] == [job_id, "update", "paused", "0", "0", "0", "0", "3"]
    assert main(["jobs", "show", job_id[:17], "--out", str(tmp_path / "show.csv")]) == 0
    assert [r["state"] for r in rows(tmp_path / "show.csv")] == ["unknown", "planned", "planned"]
    assert "the server could not be reached" in capsys.readouterr().err

    # the unanswered request had been applied (its answer was lost): the resumed job reads
    # it back and does not send it again
    first = ["--sandbox", "bulk", "update", "--field", "remark", "--value", "checked"]
    assert main([*first, "--ids", some[0]["id"]]) == 0
    sent.clear()
    result = tmp_path / "result.csv"
    assert main(["jobs", "resume", job_id, "--out", str(result)]) == 0
    assert "finished: 3 done" in capsys.readouterr().err
    assert sent.count("accounts.update") == 2
    assert [(r["outcome"], r["note"]) for r in rows(result)] == [
        ("done", "verified by reading back"),
        ("done", ""),
        ("done", ""),
    ]
    changed = {a["id"]: a["remark"] for a in query("--status", "ACTIVE", "--name", "emma")}
    assert {changed[a["id"]] for a in some} == {"checked"}
    assert main(["jobs", "resume", job_id]) == 2  # finished: nothing left
    assert "finished: nothing to resume" in capsys.readouterr().err


def test_a_job_run_elsewhere_is_not_resumed(
    query: Query, capsys: pytest.CaptureFixture[str]
) -> None:
    job = paused_job(query("--status", "ACTIVE", "--name", "emma")[:2], "elsewhere")
    job.lock()  # another program's runner holds it
    try:
        assert main(["jobs", "resume", job.id]) == 2
        assert f"job {job.id} is being run by another program" in capsys.readouterr().err
        assert main(["jobs", "list"]) == 0
        assert " paused " in capsys.readouterr().out
    finally:
        job.close()


def test_a_job_is_resumed_on_its_own_server_only(
    query: Query, capsys: pytest.CaptureFixture[str]
) -> None:
    job = paused_job(
        query("--status", "ACTIVE", "--name", "emma")[:2],
        "x",
        server="https://portal.example.com",
        profile="Nowhere",
    )
    job_id = job.id
    job.close()
    assert main(["jobs", "resume", job_id]) == 2
    assert "name it with --profile NAME or --server URL" in capsys.readouterr().err
    assert main(["--sandbox", "jobs", "resume", job_id]) == 2
    assert "belongs to https://portal.example.com, not http://sandbox.local" in (
        capsys.readouterr().err
    )
