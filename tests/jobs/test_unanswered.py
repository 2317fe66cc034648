"""An unknown outcome is never sent again blindly, on a slow server too (issue 27), in-process.

The runner's waits run on a clock whose sleeps pass at once (``FastTime``): a late write of
the "server" is a hook at a moment of that clock, and every read of a target is stamped with
the clock's time, so each test sees exactly when the runner read back.
"""

from __future__ import annotations

import collections
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx

from portal_admin import jobs
from portal_admin.client.events import RequestFinished, RequestStarted
from portal_admin.jobs.actions import ACTIONS
from portal_admin.jobs.runner import NOTE_CHANGED, NOTE_NOT_SEEN, NOTE_REPEAT_REFUSED
from portal_admin.jobs.targets import all_accounts
from portal_admin.protocol.envelope import build_envelope
from portal_admin.protocol.operations import OPERATIONS

from .conftest import FastTime, Portal

WRITES = {OPERATIONS[op].path: op for op in ("accounts.update", "accounts.status")}
#: Decides one write: an answer of its own (the write is not passed on), or None (passed on).
Handler = Callable[[str, str], Awaitable[httpx.Response | None]]


class Gate(httpx.ASGITransport):
    """The in-process transport, with a say over account writes; counts them per target."""

    def __init__(self, app: Any) -> None:
        super().__init__(app=app)
        self.handler: Handler | None = None
        self.writes: collections.Counter[str] = collections.Counter()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        operation = WRITES.get(request.url.path) if request.method == "POST" else None
        if operation is not None:
            target = str(json.loads(await request.aread()).get("userBizId"))
            self.writes[target] += 1
            if self.handler is not None:
                answer = await self.handler(operation, target)
                if answer is not None:
                    return answer
        return await super().handle_async_request(request)


async def gated(make_portal: Callable[..., Awaitable[Portal]]) -> tuple[Portal, Gate]:
    """A signed-in portal whose account writes pass a :class:`Gate`."""
    gates: list[Gate] = []

    def transport(app: Any) -> Gate:
        gates.append(Gate(app))
        return gates[-1]

    portal = await make_portal(transport=transport)
    return portal, gates[0]


def gateway_timeout() -> httpx.Response:
    """A gateway's 504 with an error envelope: the server behind it may still be at work."""
    body = build_envelope(None, code="5000", message="Gateway Timeout", now_ms=0, success=False)
    return httpx.Response(504, json=body)


async def plan(
    portal: Portal, action: jobs.Action, targets: list[jobs.Target], folder: Path
) -> jobs.JobFile:
    return await jobs.create_job(
        portal.client, action, targets, await portal.context(), folder=folder
    )


async def accounts(portal: Portal, n: int) -> list[jobs.Target]:
    me = (await portal.client.auth.profile()).biz_id
    found = [t async for t in all_accounts(portal.client, status="ACTIVE") if t.id != me]
    return found[:n]


def reads_of(portal: Portal, fast: FastTime) -> dict[str, list[float]]:
    """The clock's time of every ``accounts.get``, by account id (filled as they start)."""
    reads: dict[str, list[float]] = collections.defaultdict(list)

    def on_event(event: object) -> None:
        if isinstance(event, RequestStarted) and event.operation_id == "accounts.get":
            reads[event.path.rsplit("/", 1)[-1]].append(fast.wall())

    portal.client.events.subscribe(on_event)
    return reads


def set_in_sandbox(portal: Portal, target: str, column: str, value: str) -> Callable[[], None]:
    """A write the sandbox applies late (as the held request finally runs)."""

    def apply() -> None:
        portal.app.state.sandbox.db.execute(
            f"UPDATE accounts SET {column} = ? WHERE biz_id = ?",
            (value, target),
        )

    return apply


async def test_a_target_left_sending_is_read_back_only_after_its_sent_until(
    portal: Portal, folder: Path, fast: FastTime
) -> None:
    """A kill left a remark update unanswered; the server applies it 10 s later. The resumed
    runner waits for ``sent_until`` (20 s), then finds it done: nothing is sent twice."""
    a, b, c = await accounts(portal, 3)
    job = await jobs.create_job(
        portal.client,
        jobs.UpdateField("remark", "late"),
        [a, b, c],
        await portal.context(),
        folder=folder,
    )
    first = next(job.items([jobs.ItemState.PLANNED]))
    assert first.target_id == a.id
    start = fast.wall()
    await job.set_item(first.seq, jobs.ItemState.SENDING, sent_until=start + 20)
    fast.at(start + 10, set_in_sandbox(portal, a.id, "remark", "late"))
    reads = reads_of(portal, fast)
    seen: list[float] = []
    updates = portal.sent("accounts.update", None)
    runner = jobs.Runner(
        portal.client,
        job,
        settling=fast.settling(),
        on_progress=lambda p: seen.append(p.settling),
        publish_every=0,
    )
    progress = await runner.run()
    assert progress.state is jobs.JobState.FINISHED
    assert progress.counts["done"] == 3 and progress.counts["failed"] == 0
    assert reads[a.id] and min(reads[a.id]) >= start + 20  # not before its deadline
    assert max(seen) > 19  # the progress showed the wait
    assert portal.sent("accounts.update", None) - updates == 2  # b and c only
    line = next(i for i in job.items() if i.target_id == a.id)
    assert (line.state, line.note, line.after) == (
        jobs.ItemState.DONE,
        "verified by reading back",
        "late",
    )
    job.close()


async def test_a_504_is_read_back_after_the_deadline_not_at_once(
    make_portal: Callable[..., Awaitable[Portal]], folder: Path, fast: FastTime
) -> None:
    """A gateway answers 504 while the server behind it applies the write 25 s later (within
    the client's 30 s deadline and the margin): read back after both, it is done, not repeated."""
    portal, gate = await gated(make_portal)
    a, b = await accounts(portal, 2)
    job = await jobs.create_job(
        portal.client,
        jobs.UpdateField("remark", "gateway"),
        [a, b],
        await portal.context(),
        folder=folder,
    )
    sent_at: list[float] = []

    async def handler(operation: str, target: str) -> httpx.Response | None:
        if target == a.id and gate.writes[target] == 1:
            sent_at.append(fast.wall())
            fast.at(fast.wall() + 25, set_in_sandbox(portal, a.id, "remark", "gateway"))
            return gateway_timeout()
        return None

    gate.handler = handler
    reads = reads_of(portal, fast)
    runner = jobs.Runner(
        portal.client,
        job,
        settling=fast.settling(),
        backoff=jobs.Backoff(initial=0.01, maximum=0.01),
    )
    progress = await runner.run()
    assert progress.state is jobs.JobState.FINISHED
    assert progress.counts["done"] == 2 and progress.counts["failed"] == 0
    assert gate.writes == {a.id: 1, b.id: 1}  # the 504'd write was not sent again
    deadline = sent_at[0] + portal.client.options.timeout + runner.settling.margin
    assert reads[a.id] and min(reads[a.id]) >= deadline
    line = next(i for i in job.items() if i.target_id == a.id)
    assert (line.state, line.note, line.error_code) == (
        jobs.ItemState.DONE,
        "verified by reading back",
        None,
    )
    job.close()


async def test_a_target_changed_by_someone_else_meanwhile_is_not_sent_again(
    portal: Portal, folder: Path, fast: FastTime
) -> None:
    """Read back after the deadline, the remark is neither the one planned from nor the new
    one: someone else set it, maybe after this change landed. Sending again could undo their
    change: the target is left to a person."""
    (a,) = await accounts(portal, 1)
    job = await plan(portal, jobs.UpdateField("remark", "ours"), [a], folder)
    line = next(job.items())
    await job.set_item(line.seq, jobs.ItemState.SENDING, sent_until=fast.wall() + 5)
    set_in_sandbox(portal, a.id, "remark", "theirs")()
    updates = portal.sent("accounts.update", None)
    progress = await jobs.Runner(portal.client, job, settling=fast.settling()).run()
    assert portal.sent("accounts.update", None) == updates
    assert progress.counts["unknown"] == 1
    assert next(job.items()).note == NOTE_CHANGED
    remark = (await portal.client.accounts.get(a.id)).account_remark
    assert remark == "theirs"
    job.close()


async def test_a_refused_repeat_of_an_unknown_outcome_is_read_back_as_done(
    make_portal: Callable[..., Awaitable[Portal]], folder: Path, fast: FastTime
) -> None:
    """The server applied the first suspension later than any deadline: the read-back found it
    not applied, the repeat was refused (already suspended). That is done, not a failure."""
    portal, gate = await gated(make_portal)
    a, b = await accounts(portal, 2)
    job = await plan(portal, jobs.ChangeStatus("SUSPEND"), [a, b], folder)
    first = next(job.items([jobs.ItemState.PLANNED]))
    await job.set_item(first.seq, jobs.ItemState.SENDING, sent_until=fast.wall() + 5)

    async def handler(operation: str, target: str) -> httpx.Response | None:
        if target == a.id:  # the first request lands just before the repeat
            set_in_sandbox(portal, a.id, "status", "SUSPENDED")()
        return None

    gate.handler = handler
    codes: list[str | None] = []

    def on_event(event: object) -> None:
        if isinstance(event, RequestFinished) and event.operation_id == "accounts.status":
            codes.append(event.code)

    portal.client.events.subscribe(on_event)
    progress = await jobs.Runner(portal.client, job, settling=fast.settling()).run()
    assert "VALIDATION.INVALID_PARAMETER" in codes  # the repeat was refused
    assert progress.counts["done"] == 2 and progress.counts["failed"] == 0
    line = next(i for i in job.items() if i.target_id == a.id)
    assert (line.state, line.note, line.after, line.unknown_sends) == (
        jobs.ItemState.DONE,
        NOTE_REPEAT_REFUSED,
        "SUSPENDED",
        1,
    )
    job.close()


async def test_an_invitation_not_seen_after_the_deadline_is_left_to_a_person(
    portal: Portal, folder: Path, fast: FastTime
) -> None:
    """Not idempotent: an invitation found is done; one not found is ``unknown``, never sent
    again (a second one would mail the person again)."""
    emails = ["late.one@example.com", "late.two@example.com"]
    targets = [jobs.Target(e, e, {"status": ""}) for e in emails]
    job = await plan(portal, jobs.Invite(), targets, folder)
    until = fast.wall() + 30
    for item in list(job.items([jobs.ItemState.PLANNED])):
        await job.set_item(item.seq, jobs.ItemState.SENDING, sent_until=until)
    await portal.client.invitations.create(emails[0])  # the first one did arrive
    created = portal.sent("invitations.create", None)
    progress = await jobs.Runner(portal.client, job, settling=fast.settling()).run()
    assert portal.sent("invitations.create", None) == created  # nothing sent
    assert sum(fast.slept) >= 29  # and nothing read before the deadline
    lines = {i.target_id: i for i in job.items()}
    assert (lines[emails[0]].state, lines[emails[0]].note) == (
        jobs.ItemState.DONE,
        "verified by reading back",
    )
    assert (lines[emails[1]].state, lines[emails[1]].note) == (
        jobs.ItemState.UNKNOWN,
        NOTE_NOT_SEEN,
    )
    assert progress.counts["unknown"] == 1
    job.close()


async def test_a_claimed_target_that_waited_gets_a_later_sent_until_before_it_leaves(
    make_portal: Callable[..., Awaitable[Portal]], folder: Path, fast: FastTime
) -> None:
    """Targets are marked ``sending`` sixteen at a time; on a slow server the last of them
    leaves long after its mark. Whenever a write leaves, the job file (read as another
    process would) already holds a ``sent_until`` past its deadline."""
    portal, gate = await gated(make_portal)
    targets = await accounts(portal, 5)
    job = await jobs.create_job(
        portal.client,
        jobs.UpdateField("remark", "slow"),
        targets,
        await portal.context(),
        folder=folder,
    )
    seq = {i.target_id: i.seq for i in job.items()}
    reader = jobs.JobFile.open(job.path)
    timeout = portal.client.options.timeout
    short: list[tuple[str, float, float]] = []

    async def handler(operation: str, target: str) -> httpx.Response | None:
        (line,) = reader.items_at([seq[target]])
        needed = fast.wall() + timeout
        assert line.sent_until is not None
        if line.sent_until < needed:
            short.append((target, line.sent_until, needed))
        fast.offset += 12  # each write takes 12 s: more than the lease
        return None

    gate.handler = handler
    runner = jobs.Runner(
        portal.client, job, concurrency=1, settling=fast.settling(margin=2.0, lease=5.0)
    )
    progress = await runner.run()
    reader.close()
    assert progress.counts["done"] == 5
    assert not short, short
    assert len({i.sent_until for i in job.items()}) == 5  # each but the first was renewed
    job.close()


async def test_a_sent_until_far_ahead_is_waited_for_one_window_at_most(
    portal: Portal, folder: Path, fast: FastTime
) -> None:
    """A ``sent_until`` a year ahead (a clock set wrong when it was written): the runner holds
    the lock, so the request left before it started; it waits one window and lease, no more."""
    (a,) = await accounts(portal, 1)
    job = await plan(portal, jobs.UpdateField("remark", "ahead"), [a], folder)
    line = next(job.items())
    await job.set_item(line.seq, jobs.ItemState.SENDING, sent_until=fast.wall() + 365 * 86400)
    runner = jobs.Runner(portal.client, job, settling=fast.settling())
    progress = await runner.run()
    assert progress.counts["done"] == 1
    assert runner.window <= sum(fast.slept) <= runner.window + runner.settling.lease + 1
    job.close()


def test_every_action_says_whether_it_may_be_sent_again() -> None:
    declared = {kind: vars(cls).get("idempotent") for kind, cls in ACTIONS.items()}
    assert declared == {
        "status": True,
        "update": True,
        "cancel-invitation": True,
        "reset-password": False,
        "invite": False,
        "revert": True,
    }
