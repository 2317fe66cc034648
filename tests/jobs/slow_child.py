"""A bulk job in a process of its own, for the slow-server test to kill: plan it, or resume it.

``slow_child.py BASE_URL FOLDER plan KIND N`` plans a change of N active accounts (KIND
``remark``: a remark; ``status``: a suspension) and runs it; ``slow_child.py BASE_URL FOLDER
resume JOBFILE`` resumes a job. It prints ``JOB <path>`` once the plan is written and, when it
finishes, ``SETTLING <seconds>`` (the longest wait for unanswered requests its progress
showed) and ``CODES <json>`` (the codes of every write's answer). The client's deadline is
``TIMEOUT``; the runner's margin and lease after it are short.
"""

from __future__ import annotations

import asyncio
import collections
import json
import sys
from pathlib import Path

from crash_child import EMAIL, sign_in  # run as a script: its folder is on the path

from portal_admin import jobs
from portal_admin.client import ClientOptions, MemoryTokenStore, PortalClient
from portal_admin.client.events import RequestFinished
from portal_admin.jobs.targets import all_accounts

#: The client's deadline for a call (longer than the server's hold), the runner's margin and
#: lease after it (seconds).
TIMEOUT = 6.0
SETTLING = jobs.Settling(margin=1.0, lease=1.0)
REMARK = "checked on a slow server"
WRITES = ("accounts.update", "accounts.status")


async def main(base_url: str, folder: Path, mode: str, args: list[str]) -> int:
    options = ClientOptions(access_code="SANDBOX", client_hash="slow-test", timeout=TIMEOUT)
    async with PortalClient(base_url, options, token_store=MemoryTokenStore()) as client:
        codes: collections.Counter[str] = collections.Counter()

        def count(event: object) -> None:
            if isinstance(event, RequestFinished) and event.operation_id in WRITES:
                codes[str(event.code)] += 1

        client.events.subscribe(count)
        await sign_in(client, base_url)
        if mode == "plan":
            kind, n = args[0], int(args[1])
            me = await client.auth.profile()
            context = jobs.JobContext("slow", base_url, EMAIL, me.biz_id, "test")
            targets = []
            async for target in all_accounts(client, status="ACTIVE", sort="accountEmail,asc"):
                if target.id != me.biz_id:
                    targets.append(target)
                if len(targets) == n:
                    break
            action: jobs.Action = jobs.UpdateField("remark", REMARK)
            if kind == "status":
                action = jobs.ChangeStatus("SUSPEND")
            job = await jobs.create_job(client, action, targets, context, folder=folder)
        else:
            job = jobs.JobFile.open(Path(args[0]))
        print("JOB", job.path, flush=True)
        longest = 0.0

        def watch(progress: jobs.Progress) -> None:
            nonlocal longest
            longest = max(longest, progress.settling)

        runner = jobs.Runner(client, job, concurrency=4, on_progress=watch, settling=SETTLING)
        progress = await runner.run()
        jobs.write_result(job, job.path.with_suffix(".result.csv"))
        print("SETTLING", f"{longest:.3f}", flush=True)
        print("CODES", json.dumps(codes), flush=True)
        job.close()
        return 0 if progress.state is jobs.JobState.FINISHED else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], Path(sys.argv[2]), sys.argv[3], sys.argv[4:])))
