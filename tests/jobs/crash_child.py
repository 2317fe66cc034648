"""A bulk job in a process of its own, for the crash test to kill: plan it, or resume it.

``crash_child.py BASE_URL FOLDER plan N`` plans suspending N active accounts and runs it;
``crash_child.py BASE_URL FOLDER resume JOBFILE`` resumes a job. It prints ``JOB <path>``
once the plan is written and, when it finishes, ``CODES <json>``: the codes of every
status-change answer it received. Its client's deadline is short (``TIMEOUT``), and so is the
margin after it: a resumed job waits that long before reading back what a kill left unanswered.
"""

from __future__ import annotations

import asyncio
import collections
import json
import sys
from pathlib import Path

import httpx

from portal_admin import jobs
from portal_admin.client import ClientOptions, MemoryTokenStore, PortalClient
from portal_admin.client.events import RequestFinished
from portal_admin.jobs.targets import all_accounts

EMAIL, PASSWORD = "admin@sandbox.test", "Sandbox-Admin-2026!"
#: The client's deadline for a call, and the runner's margin and lease after it (seconds).
TIMEOUT = 5.0
SETTLING = jobs.Settling(margin=1.0, lease=1.0)


async def sign_in(client: PortalClient, base_url: str) -> None:
    """Sign in with an authenticator code; the held test clock is moved past the last code."""
    async with httpx.AsyncClient(base_url=base_url) as plain:
        await plain.post("/sandbox/clock/advance", json={"seconds": 31})
        await client.auth.start(EMAIL, PASSWORD)
        totp = await plain.get("/sandbox/totp", params={"email": EMAIL})
    await client.auth.complete("OTP", totp.json()["data"]["code"])


async def main(base_url: str, folder: Path, mode: str, arg: str) -> int:
    options = ClientOptions(access_code="SANDBOX", client_hash="crash-test", timeout=TIMEOUT)
    async with PortalClient(base_url, options, token_store=MemoryTokenStore()) as client:
        codes: collections.Counter[str] = collections.Counter()

        def count(event: object) -> None:
            if isinstance(event, RequestFinished) and event.operation_id == "accounts.status":
                codes[str(event.code)] += 1

        client.events.subscribe(count)
        await sign_in(client, base_url)
        if mode == "plan":
            me = await client.auth.profile()
            context = jobs.JobContext("crash", base_url, EMAIL, me.biz_id, "test")
            targets = []
            async for target in all_accounts(client, status="ACTIVE", sort="accountEmail,asc"):
                if target.id != me.biz_id:
                    targets.append(target)
                if len(targets) == int(arg):
                    break
            job = await jobs.create_job(
                client, jobs.ChangeStatus("SUSPEND"), targets, context, folder=folder
            )
        else:
            job = jobs.JobFile.open(Path(arg))
        print("JOB", job.path, flush=True)
        progress = await jobs.Runner(client, job, concurrency=4, settling=SETTLING).run()
        jobs.write_result(job, job.path.with_suffix(".result.csv"))
        print("CODES", json.dumps(codes), flush=True)
        job.close()
        return 0 if progress.state is jobs.JobState.FINISHED else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], Path(sys.argv[2]), sys.argv[3], sys.argv[4])))
