"""The runner fix made with undo (#30): a target id that cannot be read back is a failed
target with the client's code, not a crash of the run."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx

from portal_admin import jobs
from portal_admin.client.errors import InvalidIdError

from .conftest import FastTime, Portal
from .test_unanswered import accounts, gated, gateway_timeout, plan


async def test_a_tampered_id_whose_send_got_a_5xx_fails_on_read_back(
    make_portal: Callable[..., Awaitable[Portal]], tmp_path: Path, fast: FastTime
) -> None:
    portal, gate = await gated(make_portal)
    job = await plan(portal, jobs.ChangeStatus("SUSPEND"), await accounts(portal, 2), tmp_path)
    first = job.items().__next__()
    with sqlite3.connect(job.path) as conn:  # the file edited by hand: an id that is no id
        conn.execute("UPDATE items SET target_id = ? WHERE seq = ?", ("../bad id", first.seq))

    async def answer(operation: str, target: str) -> httpx.Response | None:
        del operation
        return gateway_timeout() if target == "../bad id" else None

    gate.handler = answer
    progress = await jobs.Runner(
        portal.client, job, settling=fast.settling(), backoff=jobs.Backoff(0.0, 0.0)
    ).run()
    assert progress.state is jobs.JobState.FINISHED
    lines = {i.seq: i for i in job.items()}
    assert lines[first.seq].state is jobs.ItemState.FAILED
    assert lines[first.seq].error_code == InvalidIdError.CODE
    assert progress.counts["done"] == 1
