"""The bulk engine against the in-process sandbox: plan, run, pause, resume, cancel, faults."""

from __future__ import annotations

import asyncio
import csv
from pathlib import Path

import pytest

from portal_admin import jobs
from portal_admin.client.errors import ReadOnlyError
from portal_admin.jobs.targets import all_accounts, match_accounts
from support.accounts import AUDITOR

from .conftest import FastTime, Portal


async def suspend_plan(portal: Portal, folder: Path, **kwargs: object) -> jobs.JobFile:
    """A plan suspending every account of the sandbox."""
    return await jobs.create_job(
        portal.client,
        jobs.ChangeStatus("SUSPEND", reason="left the institution"),
        all_accounts(portal.client),
        await portal.context(),
        folder=folder,
        **kwargs,  # type: ignore[arg-type]
    )


def state_of(path: Path) -> jobs.JobState:
    """The state a job file records (read by a second reader, as another program would)."""
    job = jobs.JobFile.open(path)
    try:
        return job.state()
    finally:
        job.close()


async def statuses(portal: Portal) -> dict[str, str]:
    """Every account's status code, by id, as the sandbox has it now."""
    return {
        a.biz_id: a.account_status.code if a.account_status else ""
        async for a in portal.client.accounts.iterate(size=100)
    }


async def test_plan_says_what_happens_to_each_target_and_sends_nothing(
    portal: Portal, folder: Path
) -> None:
    before = await statuses(portal)
    writes = portal.sent("accounts.status", None)
    job = await suspend_plan(portal, folder)
    items = list(job.items())
    assert len(items) == len(before)
    me = (await portal.client.auth.profile()).biz_id
    for item in items:
        assert item.current == before[item.target_id]
        assert item.new == "SUSPENDED"
        if item.target_id == me:
            assert item.skip == jobs.Skip.SELF
        elif item.current == "SUSPENDED":
            assert item.skip == jobs.Skip.NO_CHANGE
        elif item.current in ("ACTIVE",):
            assert item.skip is None and item.state is jobs.ItemState.PLANNED
        else:
            assert item.skip == jobs.Skip.NOT_ALLOWED, item
    assert job.skip_counts()["SELF"] == 1
    assert portal.sent("accounts.status", None) == writes  # a dry run sends no change
    assert await statuses(portal) == before
    plan_csv = folder / "plan.csv"
    assert jobs.write_plan(job, plan_csv) == len(items)
    assert plan_csv.read_bytes().startswith(b"\xef\xbb\xbf")
    job.close()


async def test_a_run_changes_every_planned_target_once_and_writes_the_result(
    portal: Portal, folder: Path
) -> None:
    job = await suspend_plan(portal, folder)
    planned = {i.target_id for i in job.items([jobs.ItemState.PLANNED])}
    seen: list[jobs.Progress] = []
    progress = await jobs.Runner(portal.client, job, on_progress=seen.append).run()
    assert progress.state is jobs.JobState.FINISHED
    assert progress.counts["done"] == len(planned)
    assert progress.counts["failed"] == progress.counts["sending"] == 0
    assert portal.sent("accounts.status") == len(planned)
    assert portal.sent("accounts.status", None) == len(planned)  # nothing sent twice
    now = await statuses(portal)
    assert all(now[t] == "SUSPENDED" for t in planned)
    assert seen[-1].finished == seen[-1].total == len(list(job.items()))
    result = folder / "result.csv"
    jobs.write_result(job, result)
    with result.open(encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    done = [r for r in rows if r["outcome"] == "done"]
    assert {r["target id"] for r in done} == planned
    assert all(r["before"] == "ACTIVE" and r["after"] == "SUSPENDED" for r in done)
    assert all(r["request id"] and r["time"] for r in done)
    assert {r["error code"] for r in rows if r["outcome"] == "skipped"} <= set(jobs.Skip)
    assert state_of(job.path) is jobs.JobState.FINISHED
    job.close()


async def test_a_read_only_client_gets_no_plan(make_portal: object, folder: Path) -> None:
    auditor = await make_portal(email=AUDITOR[0], password=AUDITOR[1], read_only=True)  # type: ignore[operator]
    with pytest.raises(ReadOnlyError):
        await suspend_plan(auditor, folder)
    assert not jobs.list_jobs(folder)


async def test_pause_holds_the_job_and_resume_finishes_it(portal: Portal, folder: Path) -> None:
    job = await suspend_plan(portal, folder)
    total = len(list(job.items([jobs.ItemState.PLANNED])))
    paused = asyncio.Event()
    runner: jobs.Runner

    def watch(progress: jobs.Progress) -> None:
        if progress.counts["done"] >= 10 and not runner.paused and not paused.is_set():
            runner.pause()
            paused.set()

    runner = jobs.Runner(portal.client, job, on_progress=watch, concurrency=2, publish_every=0)
    task = asyncio.create_task(runner.run())
    await paused.wait()
    # Requests under way finish, then the file says paused; nothing new starts.
    async with asyncio.timeout(10):
        while state_of(job.path) is not jobs.JobState.PAUSED:
            await asyncio.sleep(0.01)
    held = portal.sent("accounts.status", None)
    await asyncio.sleep(0.05)
    assert portal.sent("accounts.status", None) == held < total
    runner.resume()
    progress = await task
    assert progress.state is jobs.JobState.FINISHED
    assert progress.counts["done"] == total == portal.sent("accounts.status")
    job.close()


async def test_cancel_keeps_what_was_done_and_sends_nothing_more(
    portal: Portal, folder: Path
) -> None:
    job = await suspend_plan(portal, folder)
    runner: jobs.Runner

    def watch(progress: jobs.Progress) -> None:
        if progress.counts["done"] >= 5:
            runner.cancel()

    runner = jobs.Runner(portal.client, job, on_progress=watch, concurrency=1, publish_every=0)
    progress = await runner.run()
    assert progress.state is jobs.JobState.CANCELLED
    done = progress.counts["done"]
    assert 5 <= done < 10
    assert progress.counts["cancelled"] > 0 and progress.counts["planned"] == 0
    assert portal.sent("accounts.status", None) == done
    job.close()


async def test_rate_limits_are_waited_out_without_failures(
    make_portal: object, folder: Path
) -> None:
    portal: Portal = await make_portal(seed_accounts=80, write_rate_limit=20)  # type: ignore[operator]
    job = await suspend_plan(portal, folder)
    planned = len(list(job.items([jobs.ItemState.PLANNED])))
    assert planned > 20
    runner = jobs.Runner(
        portal.client, job, concurrency=8, backoff=jobs.Backoff(initial=0.05, maximum=0.4)
    )
    progress = await runner.run()
    assert progress.state is jobs.JobState.FINISHED
    assert progress.counts["done"] == planned and progress.counts["failed"] == 0
    assert portal.sent("accounts.status", "REQUEST.RATE_LIMITED") > 0
    assert portal.sent("accounts.status") == planned
    job.close()


async def test_dropped_connections_pause_and_resuming_reads_back_before_sending(
    make_portal: object, folder: Path, fast: FastTime
) -> None:
    """Drops before or after the server ran: each unknown outcome is read back (once its
    request can no longer be applied), never repeated blindly (a repeated suspension would
    fail as not allowed from SUSPENDED)."""
    portal: Portal = await make_portal(  # type: ignore[operator]
        seed_accounts=150, faults=("drop_rate=0.08", "seed=11")
    )
    faults = portal.app.state.faults
    faults.enabled = False
    job = await suspend_plan(portal, folder)
    planned = {i.target_id for i in job.items([jobs.ItemState.PLANNED])}
    faults.enabled = True
    pauses = 0
    while True:
        runner = jobs.Runner(portal.client, job, stop_on_pause=True, settling=fast.settling())
        progress = await runner.run()
        if progress.state is not jobs.JobState.PAUSED:
            break
        assert progress.pause_reason == jobs.PauseReason.CONNECTION
        pauses += 1
        assert pauses < 200
    faults.enabled = False
    assert pauses > 0
    assert progress.state is jobs.JobState.FINISHED
    assert progress.counts["failed"] == 0 and progress.counts["unknown"] == 0
    assert progress.counts["done"] == len(planned)
    now = await statuses(portal)
    assert all(now[t] == "SUSPENDED" for t in planned)
    notes = [i.note for i in job.items() if i.note]
    assert any(n == "verified by reading back" for n in notes)
    assert fast.slept  # each resumption waited for the unanswered requests' deadline
    job.close()


async def test_an_unknown_password_reset_is_never_sent_again(portal: Portal, folder: Path) -> None:
    me = (await portal.client.auth.profile()).biz_id
    accounts = [a async for a in all_accounts(portal.client, status="ACTIVE") if a.id != me][:3]
    job = await jobs.create_job(
        portal.client, jobs.ResetPassword(), accounts, await portal.context(), folder=folder
    )
    first = next(job.items([jobs.ItemState.PLANNED]))
    await job.set_item(first.seq, jobs.ItemState.SENDING)  # as a crash mid-request leaves it
    progress = await jobs.Runner(portal.client, job).run()
    assert progress.counts["unknown"] == 1 and progress.counts["done"] == 2
    assert portal.sent("accounts.password_reset", None) == 2
    unknown = next(job.items([jobs.ItemState.UNKNOWN]))
    assert unknown.target_id == first.target_id
    assert unknown.note == "outcome unknown: not repeated"
    job.close()


async def test_resume_after_a_crash_sends_only_what_did_not_happen(
    portal: Portal, folder: Path, fast: FastTime
) -> None:
    job = await suspend_plan(portal, folder)
    a, b, *_ = list(job.items([jobs.ItemState.PLANNED]))
    # a: the request reached the server before the crash; b: it did not.
    await portal.client.accounts.change_status(a.target_id, "SUSPEND")
    await job.set_item(a.seq, jobs.ItemState.SENDING)
    await job.set_item(b.seq, jobs.ItemState.SENDING)
    job.close()
    job = jobs.JobFile.open(job.path)
    sent = portal.sent("accounts.status", None)
    progress = await jobs.Runner(portal.client, job, settling=fast.settling()).run()
    assert progress.counts["failed"] == 0
    items = {i.seq: i for i in job.items()}
    assert items[a.seq].state is jobs.ItemState.DONE
    assert items[a.seq].note == "verified by reading back"
    assert items[b.seq].state is jobs.ItemState.DONE
    assert portal.sent("accounts.status", None) - sent == progress.counts["done"] - 1
    job.close()


async def test_one_runner_per_job(portal: Portal, folder: Path) -> None:
    job = await suspend_plan(portal, folder)
    other = jobs.JobFile.open(job.path)
    other.lock()
    assert job.is_locked_elsewhere()
    with pytest.raises(jobs.JobLockedError):
        await jobs.Runner(portal.client, job).run()
    other.close()
    assert not job.is_locked_elsewhere()
    assert (await jobs.Runner(portal.client, job).run()).state is jobs.JobState.FINISHED
    job.close()


async def test_an_imported_list_keeps_its_unmatched_lines_in_the_plan(
    portal: Portal, folder: Path
) -> None:
    some = [a async for a in all_accounts(portal.client, status="ACTIVE")][:3]
    text = "\n".join(
        [
            "email,note",
            f"{some[0].label},first",
            f"{some[1].label.upper()},case differs",
            "nobody@nowhere.test,unknown",
            f"{some[0].label},twice",
            "not an email,bad",
        ]
    )
    listed = jobs.parse_list(text)
    found, problems = await match_accounts(portal.client, listed)
    assert [t.id for t in found] == [some[0].id, some[1].id]
    assert [(p.line, p.code) for p in problems] == [
        (4, "NOT_FOUND"),
        (5, "DUPLICATE"),
        (6, "INVALID"),
    ]
    job = await jobs.create_job(
        portal.client,
        jobs.UpdateField("language", "ja"),
        found,
        await portal.context(),
        problems=problems,
        folder=folder,
    )
    assert job.skip_counts() == {"NOT_FOUND": 1, "DUPLICATE": 1, "INVALID": 1}
    await jobs.Runner(portal.client, job).run()
    assert (await portal.client.accounts.get(some[1].id)).default_language == "ja"
    job.close()


async def test_invite_and_cancel_invitations(portal: Portal, folder: Path) -> None:
    from portal_admin.jobs.targets import invitee_targets, match_invitations

    before = await portal.client.invitations.list()
    pending = next(i for i in before if i.invitation_status and i.invitation_status.is_("PENDING"))
    listed = jobs.parse_list(
        "email,message\nnew.one@example.org,Welcome\nnew.two@example.org,\n"
        f"{pending.invitee_email},again\n"
    )
    targets, problems = invitee_targets(before, listed)
    job = await jobs.create_job(
        portal.client,
        jobs.Invite(message="Hello", expiration_days=3),
        targets,
        await portal.context(),
        problems=problems,
        folder=folder,
    )
    assert job.skip_counts() == {"PENDING_EXISTS": 1}
    assert (await jobs.Runner(portal.client, job).run()).counts["done"] == 2
    after = await portal.client.invitations.list()
    new = {i.invitee_email: i for i in after}
    assert new["new.one@example.org"].message == "Welcome"
    assert new["new.two@example.org"].message == "Hello"
    job.close()

    cancel_list = jobs.parse_list("new.one@example.org\nnew.two@example.org\n")
    targets, problems = match_invitations(after, cancel_list)
    job = await jobs.create_job(
        portal.client,
        jobs.CancelInvitation(reason="sent by mistake"),
        targets,
        await portal.context(),
        problems=problems,
        folder=folder,
    )
    assert (await jobs.Runner(portal.client, job).run()).counts["done"] == 2
    statuses_now = {
        i.invitee_email: i.invitation_status.code
        for i in await portal.client.invitations.list()
        if i.invitation_status
    }
    assert statuses_now["new.one@example.org"] == "CANCELLED"
    job.close()


def test_an_invitation_lists_expiry_is_bounded_as_the_wire_says() -> None:
    """1 to 30 days (``protocol.bodies.EXPIRATION_DAYS``): a line the server would refuse is a
    problem of the plan, not a failure of the run."""
    from portal_admin.protocol.bodies import EXPIRATION_DAYS

    low, high = EXPIRATION_DAYS
    listed = jobs.parse_list(
        "email,expirationDays\n"
        f"a@example.org,{low}\nb@example.org,{high}\n"
        f"c@example.org,{high + 1}\nd@example.org,0\n"
    )
    assert [e.value for e in listed.entries] == ["a@example.org", "b@example.org"]
    assert [(p.line, p.code) for p in listed.problems] == [(4, "BAD_EXPIRY"), (5, "BAD_EXPIRY")]
