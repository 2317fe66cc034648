"""Helpers of the Jobs and revert panel tests (no tests here); the shared ones are in
``panel_support``."""

from __future__ import annotations

from portal_admin import jobs
from portal_admin.client import PortalClient
from portal_admin.evidence.recorder import journal_at
from portal_admin.jobs.targets import all_accounts

from ..panel_support import PROFILE


async def suspend(client: PortalClient, count: int) -> jobs.JobFile:
    """A bulk job suspending ``count`` active accounts, as the command line runs one."""
    me = await client.auth.profile()
    context = jobs.JobContext(PROFILE, str(client.base_url), me.account_email, me.biz_id, "sandbox")
    active = [t async for t in all_accounts(client, status="ACTIVE") if t.id != me.biz_id]
    job = await jobs.create_job(client, jobs.ChangeStatus("SUSPEND"), active[:count], context)
    await jobs.Runner(client, job, concurrency=2).run()
    journal_at().flush()
    return job
