"""A gateway's HTML page answering a bulk write (issue 31): the client's GatewayError is a
ServerError, so the runner treats the write's outcome as unknown and reads the target back
(after the wait), whether the server behind the gateway applied it or not; it is sent again
only when it was not applied."""

from __future__ import annotations

import collections
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx

from portal_admin import jobs
from portal_admin.jobs.targets import all_accounts
from portal_admin.protocol.operations import OPERATIONS

from .conftest import FastTime, Portal

UPDATE = OPERATIONS["accounts.update"].path
PAGE = b"<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"


class Gateway(httpx.ASGITransport):
    """The in-process transport behind a gateway that answers every account update's first
    try with its 502 page: for targets in ``applied`` after passing it on, else without."""

    def __init__(self, app: Any) -> None:
        super().__init__(app=app)
        self.applied: set[str] = set()
        self.writes: collections.Counter[str] = collections.Counter()
        self.active = False

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if not (self.active and request.method == "POST" and request.url.path == UPDATE):
            return await super().handle_async_request(request)
        target = str(json.loads(await request.aread()).get("userBizId"))
        self.writes[target] += 1
        if self.writes[target] > 1:
            return await super().handle_async_request(request)
        if target in self.applied:
            await super().handle_async_request(request)  # the server did it; its answer is lost
        return httpx.Response(502, content=PAGE, headers={"content-type": "text/html"})


async def test_a_write_answered_by_a_gateway_page_is_read_back_not_resent_blindly(
    make_portal: Callable[..., Awaitable[Portal]], folder: Path, fast: FastTime
) -> None:
    gateways: list[Gateway] = []

    def transport(app: Any) -> Gateway:
        gateways.append(Gateway(app))
        return gateways[-1]

    portal = await make_portal(transport=transport)
    gateway = gateways[0]
    me = (await portal.client.auth.profile()).biz_id
    a, b = [t async for t in all_accounts(portal.client, status="ACTIVE") if t.id != me][:2]
    job = await jobs.create_job(
        portal.client,
        jobs.UpdateField("remark", "behind the gateway"),
        [a, b],
        await portal.context(),
        folder=folder,
    )
    gateway.applied = {a.id}
    gateway.active = True
    runner = jobs.Runner(
        portal.client,
        job,
        settling=fast.settling(),
        backoff=jobs.Backoff(initial=0.01, maximum=0.01),
    )
    progress = await runner.run()
    assert progress.state is jobs.JobState.FINISHED
    assert progress.counts["done"] == 2 and progress.counts["failed"] == 0
    assert gateway.writes == {a.id: 1, b.id: 2}  # a: applied, found by reading back
    lines = {i.target_id: i for i in job.items()}
    assert (lines[a.id].state, lines[a.id].note) == (
        jobs.ItemState.DONE,
        "verified by reading back",
    )
    assert lines[b.id].state is jobs.ItemState.DONE  # not applied: sent again, then done
    job.close()
