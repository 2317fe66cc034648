"""Planning a list is bounded (#27): a few reads in flight, never one task per line; progress
from the start; a read the server fails with a 500 is tried again instead of ending the plan."""

from __future__ import annotations

import asyncio
import gc
import io
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from portal_admin import jobs
from portal_admin.client.errors import NotFoundError, ServerError
from portal_admin.client.options import RetryPolicy
from portal_admin.client.records import Account
from portal_admin.jobs import targets as pick
from portal_admin.jobs.targets import PlanProgress, all_accounts, match_accounts
from support.portal import FAST_RETRY

from .conftest import Portal


@dataclass
class StubAccounts:
    """``client.accounts`` answering every id at once (an unknown one: not found), counting
    what is in flight and how many tasks the loop holds."""

    missing: frozenset[str] = frozenset()
    fail_first: dict[str, int] = field(default_factory=dict)
    in_flight: int = 0
    most_in_flight: int = 0
    most_tasks: int = 0
    calls: int = 0

    async def get(self, biz_id: str) -> Account:
        self.calls += 1
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        self.most_tasks = max(self.most_tasks, len(asyncio.all_tasks()))
        try:
            await asyncio.sleep(0)
            if self.fail_first.get(biz_id, 0) > 0:
                self.fail_first[biz_id] -= 1
                raise ServerError("boom", code="SYSTEM.INTERNAL_ERROR", http_status=500)
            if biz_id in self.missing:
                raise NotFoundError("no", code="RESOURCE.NOT_FOUND", http_status=404)
            return Account(biz_id=biz_id, account_email=f"{biz_id.lower()}@example.test")
        finally:
            self.in_flight -= 1


@dataclass
class StubOptions:
    retry: RetryPolicy = FAST_RETRY


@dataclass
class StubClient:
    accounts: StubAccounts = field(default_factory=StubAccounts)
    options: StubOptions = field(default_factory=StubOptions)


def id_list(n: int) -> jobs.TargetList:
    return jobs.parse_list("\n".join(f"ACC{i:016X}" for i in range(n)))


async def test_at_most_concurrency_reads_in_flight_and_no_task_per_line() -> None:
    client = StubClient()
    found, problems = await match_accounts(client, id_list(3000), concurrency=8)  # type: ignore[arg-type]
    assert len(found) == 3000 and problems == []
    assert [t.id for t in found[:2]] == ["ACC0000000000000000", "ACC0000000000000001"]
    assert client.accounts.most_in_flight == 8
    # The test's own task and the eight workers: not one task per line (it was 3,001).
    assert client.accounts.most_tasks <= 8 + 2


async def test_in_flight_is_capped_whatever_concurrency_is_asked() -> None:
    client = StubClient()
    await match_accounts(client, id_list(pick.MAX_IN_FLIGHT + 100), concurrency=10_000)  # type: ignore[arg-type]
    assert client.accounts.most_in_flight == pick.MAX_IN_FLIGHT


async def test_progress_is_reported_from_the_start_and_ends_with_every_line() -> None:
    client = StubClient(StubAccounts(missing=frozenset({"ACC0000000000000005"})))
    seen: list[PlanProgress] = []
    answered: list[int] = []  # reads answered when the first report came

    def on_progress(progress: PlanProgress) -> None:
        if not answered:
            answered.append(client.accounts.calls - client.accounts.in_flight)
        seen.append(progress)

    listed = id_list(2000)
    await match_accounts(client, listed, on_progress=on_progress)  # type: ignore[arg-type]
    assert seen[0] == PlanProgress("match", 0, 2000)
    assert seen[-1] == PlanProgress("match", 2000, 2000, skipped=1)
    assert [p.done for p in seen] == sorted(p.done for p in seen)
    assert answered == [0]  # before any read was answered (not a wall-clock bound)


def test_progress_reports_are_spaced() -> None:
    now = [0.0]
    told: list[PlanProgress] = []
    reporter = pick.PlanReporter("match", told.append, 1000, clock=lambda: now[0])
    reporter.report(force=True)
    for _ in range(1000):
        now[0] += 0.001
        reporter.step()
    reporter.finish()
    assert told[0].done == 0 and told[-1].done == 1000
    assert 10 <= len(told) <= 13  # one every 0.1 s of the 1 s, the first and the last


async def test_a_500_is_read_again_not_the_end_of_the_plan() -> None:
    client = StubClient(StubAccounts(fail_first={"ACC0000000000000003": 2}))
    seen: list[PlanProgress] = []
    found, problems = await match_accounts(client, id_list(10), on_progress=seen.append)  # type: ignore[arg-type]
    assert len(found) == 10 and problems == []
    assert seen[-1].retries == 2


async def test_a_500_that_lasts_ends_the_plan_after_the_policys_attempts() -> None:
    client = StubClient(StubAccounts(fail_first={"ACC0000000000000003": 99}))
    with pytest.raises(ServerError):
        await match_accounts(client, id_list(10))  # type: ignore[arg-type]
    assert client.accounts.fail_first["ACC0000000000000003"] == 99 - FAST_RETRY.attempts
    await asyncio.sleep(0)
    assert client.accounts.in_flight == 0  # the other workers were cancelled


def test_only_what_the_client_does_not_retry_is_retried_by_planning() -> None:
    assert pick.transient(ServerError("x", http_status=500))
    for status in (502, 503, 504):  # the client's own retries have tried these
        assert not pick.transient(ServerError("x", http_status=status))
    assert not pick.transient(NotFoundError("x", http_status=404))
    assert not pick.transient(ValueError("x"))


def _overhead(n: int) -> tuple[int, int]:
    """(peak while matching ``n`` ids, what the result keeps) in bytes, by tracemalloc."""
    listed = id_list(n)
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        result = asyncio.run(match_accounts(StubClient(), listed))  # type: ignore[arg-type]
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(result[0]) == n
    return peak - base, kept - base


def test_memory_while_planning_is_what_the_plan_keeps_plus_a_bounded_amount() -> None:
    """Above what the matched targets keep, planning holds a few workers' worth and the
    lists of results (about 140 bytes a line); one task per line held about 1,300 bytes a line
    more (2,000 ids: 2.4 MiB above the result; 20,000: 25.8 MiB)."""
    small_peak, small_kept = _overhead(2_000)
    large_peak, large_kept = _overhead(20_000)
    print(f"2,000 ids: peak {small_peak / 2**20:.1f} MiB, kept {small_kept / 2**20:.1f} MiB")
    print(f"20,000 ids: peak {large_peak / 2**20:.1f} MiB, kept {large_kept / 2**20:.1f} MiB")
    assert (large_peak - large_kept) / 20_000 < 400
    assert (small_peak - small_kept) / 2_000 < 400


# -- against the sandbox --------------------------------------------------------------------


async def _ids(portal: Portal, n: int) -> list[str]:
    return [t.id async for t in all_accounts(portal.client)][:n]


async def test_planning_500_ids_succeeds_on_a_server_failing_5_percent(
    make_portal: Callable[..., Any],
) -> None:
    portal: Portal = await make_portal(seed_accounts=520, faults=("error_5xx_rate=0.05", "seed=27"))
    faults = portal.app.state.faults
    faults.enabled = False
    ids = await _ids(portal, 500)
    assert len(ids) == 500
    listed = jobs.parse_list("\n".join(ids))
    faults.enabled = True
    seen: list[PlanProgress] = []
    found, problems = await match_accounts(portal.client, listed, on_progress=seen.append)
    faults.enabled = False
    report = faults.report()
    assert problems == []
    assert sorted(t.id for t in found) == sorted(ids)
    failed = portal.sent("accounts.get", code=None) - portal.sent("accounts.get")
    assert failed >= 10, report  # the server did fail about 5% of the reads
    assert seen[-1].retries > 0  # of which the 500s were read again by planning


async def test_every_account_matching_reads_a_failed_page_again(
    make_portal: Callable[..., Any],
) -> None:
    portal: Portal = await make_portal(seed_accounts=300)
    real = portal.client.accounts.query
    failures = [1]

    async def flaky(**kwargs: Any) -> Any:
        if kwargs.get("page") == 1 and failures[0]:
            failures[0] -= 1
            raise ServerError("boom", code="SYSTEM.INTERNAL_ERROR", http_status=500)
        return await real(**kwargs)

    portal.client.accounts.query = flaky  # type: ignore[method-assign]
    every = [t.id async for t in all_accounts(portal.client)]
    assert len(every) == len(set(every)) >= 300
    assert failures == [0]


async def test_creating_the_job_reports_its_planning(
    make_portal: Callable[..., Any], folder: Path
) -> None:
    portal: Portal = await make_portal(seed_accounts=150)
    seen: list[PlanProgress] = []
    job = await jobs.create_job(
        portal.client,
        jobs.ChangeStatus("SUSPEND"),
        all_accounts(portal.client),
        await portal.context(),
        folder=folder,
        on_progress=seen.append,
    )
    skipped = sum(job.skip_counts().values())
    total = job.counts()["planned"] + skipped
    job.discard()
    assert seen[0] == PlanProgress("plan", 0, None)
    assert seen[-1] == PlanProgress("plan", total, None, skipped=skipped)
    listed = [t async for t in all_accounts(portal.client)][:20]
    seen.clear()
    job = await jobs.create_job(
        portal.client,
        jobs.ChangeStatus("SUSPEND"),
        listed,
        await portal.context(),
        folder=folder,
        on_progress=seen.append,
    )
    job.discard()
    assert seen[0] == PlanProgress("plan", 0, 20) and seen[-1].done == 20


@given(st.text(alphabet=st.sampled_from(["a", ",", '"', "\n", "\r", "\x0b", "\u2028", " "])))
def test_a_lists_lines_are_what_a_string_file_gives(text: str) -> None:
    """parse_list reads lines one at a time, as ``io.StringIO(text)`` gave them, without its
    four-bytes-a-character copy of the whole list."""
    assert list(pick._lines(text)) == list(io.StringIO(text))


def test_parsing_a_large_list_holds_little_more_than_its_text() -> None:
    text = "id,note\n" + "".join(f"ACC{i:016X},{'n' * 240}\n" for i in range(20_000))
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        listed = jobs.parse_list(text)
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(listed.entries) == 20_000
    # What the entries keep, plus less than the text once more (a StringIO copy was 4 times).
    assert peak - kept < len(text), (peak - base, kept - base, len(text))
