"""A journaled bulk job in a process of its own, for the kill test to SIGKILL mid-run.

``journal_kill_child.py DB JOURNAL FOLDER N``: the in-process sandbox on the SQLite file DB
(seeded on first use), a client whose changes are journaled to JOURNAL, and a job suspending
N active accounts, run with concurrency 4; every answer comes back 15 ms after the server
applied the change. Prints ``JOB <path>`` once the plan is written.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: ``support``

from portal_admin import jobs
from portal_admin.client import ClientOptions, MemoryTokenStore, PortalClient
from portal_admin.evidence.journal import Journal
from portal_admin.evidence.recorder import attach
from portal_admin.jobs.targets import all_accounts
from portal_admin.sandbox import SandboxConfig, create_app
from support.accounts import ADMIN_EMAIL
from support.portal import sign_in

SEEDED = 700
#: Seconds each answer takes to come back after the server applied the change (a network's
#: way back): the window in which a kill finds changes applied and not yet answered.
ANSWER_DELAY = 0.015


def answers_delayed(app: Any) -> Any:
    """The sandbox's ASGI app with every answer (but ``/sandbox/*``) held back a little."""

    async def delayed(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["path"].startswith("/sandbox"):
            await app(scope, receive, send)
            return

        async def later(message: Any) -> None:
            if message["type"] == "http.response.start":
                await asyncio.sleep(ANSWER_DELAY)
            await send(message)

        await app(scope, receive, later)

    return delayed


async def main(db: Path, journal: Path, folder: Path, n: int) -> int:
    app = create_app(SandboxConfig(db=str(db), seed_accounts=SEEDED, write_rate_limit=0))
    options = ClientOptions(access_code="SANDBOX", client_hash="journal-kill")
    async with PortalClient(
        "http://sandbox.local",
        options,
        transport=httpx.ASGITransport(app=answers_delayed(app)),
        token_store=MemoryTokenStore(),
    ) as client:
        await sign_in(client)
        attach(client, profile="Sandbox", server="http://sandbox.local", journal=Journal(journal))
        me = await client.auth.profile()
        context = jobs.JobContext("Sandbox", "http://sandbox.local", ADMIN_EMAIL, me.biz_id, "test")
        targets = []
        async for target in all_accounts(client, status="ACTIVE", sort="accountEmail,asc"):
            if target.id != me.biz_id:
                targets.append(target)
            if len(targets) == n:
                break
        job = await jobs.create_job(
            client, jobs.ChangeStatus("SUSPEND"), targets, context, folder=folder
        )
        print("JOB", job.path, flush=True)
        await jobs.Runner(client, job, concurrency=4).run()
        job.close()
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    sys.exit(asyncio.run(main(Path(args[0]), Path(args[1]), Path(args[2]), int(args[3]))))
