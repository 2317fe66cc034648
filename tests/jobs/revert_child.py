"""A revert in a process of its own, for the kill test (``test_revert_kill.py``).

``revert_child.py BASE_URL FOLDER JOURNAL plan JOB_ID`` plans the revert of job ``JOB_ID`` from
the journal and runs it; ``revert_child.py BASE_URL FOLDER JOURNAL resume JOBFILE`` resumes it.
Its changes are journaled in ``JOURNAL``. It prints ``JOB <path>`` once the plan is written,
``READ <n>`` (account reads before its first write) and ``CODES <json>`` when it ends, or
``REFUSED <code>`` (exit 3) when the revert cannot be planned. ``REVERT_KEY`` in the
environment: the fingerprint of "this installation's" key, whose checkpoints it believes.
"""

from __future__ import annotations

import asyncio
import collections
import json
import os
import sys
from pathlib import Path

from crash_child import EMAIL, sign_in  # run as a script: its folder is on the path

from portal_admin import jobs
from portal_admin.client import ClientOptions, MemoryTokenStore, PortalClient
from portal_admin.client.events import RequestFinished, RequestStarted
from portal_admin.evidence.journal import Journal
from portal_admin.evidence.recorder import attach

TIMEOUT = 6.0
SETTLING = jobs.Settling(margin=1.0, lease=1.0)
PROFILE = "kill"


async def main(base_url: str, folder: Path, journal: Path, mode: str, arg: str) -> int:
    options = ClientOptions(access_code="SANDBOX", client_hash="revert-kill", timeout=TIMEOUT)
    async with PortalClient(base_url, options, token_store=MemoryTokenStore()) as client:
        codes: collections.Counter[str] = collections.Counter()
        order: list[str] = []

        def count(event: object) -> None:
            if isinstance(event, RequestStarted):
                order.append(event.operation_id)
            if isinstance(event, RequestFinished) and event.operation_id == "accounts.status":
                codes[str(event.code)] += 1

        client.events.subscribe(count)
        await sign_in(client, base_url)
        attach(client, profile=PROFILE, server=base_url, journal=Journal(journal))
        me = await client.auth.profile()
        context = jobs.JobContext(PROFILE, base_url, EMAIL, me.biz_id, "test")
        order.clear()
        if mode == "plan":
            try:
                job = await jobs.plan_job_revert(
                    client,
                    arg,
                    context,
                    journal_path=journal,
                    folder=folder,
                    expected_key=os.environ.get("REVERT_KEY"),
                )
            except jobs.RevertError as exc:
                print("REFUSED", exc.code, flush=True)
                return 3
        else:
            job = jobs.JobFile.open(Path(arg))
        print("JOB", job.path, flush=True)
        progress = await jobs.Runner(client, job, concurrency=4, settling=SETTLING).run()
        jobs.write_result(job, job.path.with_suffix(".result.csv"))
        first_write = order.index("accounts.status") if "accounts.status" in order else len(order)
        print("READ", order[:first_write].count("accounts.get"), flush=True)
        print("CODES", json.dumps(codes), flush=True)
        job.close()
        return 0 if progress.state is jobs.JobState.FINISHED else 1


if __name__ == "__main__":
    sys.exit(
        asyncio.run(
            main(sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4], sys.argv[5])
        )
    )
