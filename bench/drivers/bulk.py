"""Driver of the bulk benchmark (a subprocess of ``bench.bench_bulk``).

On a qasync loop, as in the program, against a sandbox served over loopback HTTP with no
write rate limit: the engine (``jobs.Runner``: durable job file, bounded concurrency), run by
the program's own bulk window (``ui.bulk.dialog.BulkDialog.run``: progress bar, counts, result
table), changes the status of T accounts, and a bare ``httpx.AsyncClient`` loop sends the same
requests with the same concurrency.
Rounds alternate SUSPEND and ACTIVATE over the same accounts, and which side goes first, so
both send the same work. A 1 ms precise timer measures the loop's lag while the engine runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from portal_admin import jobs
from portal_admin.jobs.actions import ACTION_RESULT, Target
from portal_admin.jobs.targets import all_accounts

from ..common import RequestRecorder, portal_client, sign_in
from .browse import LagMeter, percentile
from .ui_session import panel_context, qt_loop

STATUS_PATH = "/web/v1/system/accounts/admin/status"


async def bare(
    base_url: str, headers: dict[str, str], ids: list[str], action: str, concurrency: int
) -> float:
    """Seconds for a bare httpx loop to send ``action`` for every id, ``concurrency`` at once."""
    queue = list(reversed(ids))
    async with httpx.AsyncClient(base_url=base_url, headers=headers) as http:

        async def worker() -> None:
            while queue:
                target = queue.pop()
                answer = await http.post(STATUS_PATH, json={"userBizId": target, "action": action})
                answer.raise_for_status()

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return time.perf_counter() - start


async def engine(
    panel: Any, targets: list[Target], action: str, concurrency: int, folder: Path
) -> tuple[float, float, list[float]]:
    """Plan seconds, run seconds and the loop's lags for the program's bulk window running
    ``action`` (its progress bar, counts and result table updated as it goes)."""
    from portal_admin.ui.bulk.dialog import BulkDialog, Sources

    client = panel.client
    me = await client.auth.profile()
    context = jobs.JobContext("bench", str(client.base_url), "", me.biz_id, "test")
    start = time.perf_counter()
    job = await jobs.create_job(
        client, jobs.ChangeStatus(action), targets, context, folder=folder, concurrency=concurrency
    )
    planned = time.perf_counter() - start
    dialog = BulkDialog(panel, Sources("accounts"), "status")
    dialog.show()
    meter = LagMeter()
    meter.start()
    start = time.perf_counter()
    progress = await dialog.run(job)
    ran = time.perf_counter() - start
    lags = meter.stop()
    dialog.close()
    assert progress is not None and progress.counts["done"] == len(targets), progress
    return planned, ran, lags


def with_status(targets: list[Target], status: str) -> list[Target]:
    """The targets as they are after a change to ``status``."""
    return [Target(t.id, t.label, {**t.record, "status": status}) for t in targets]


async def run(args: argparse.Namespace) -> dict[str, Any]:
    recorder = RequestRecorder()
    async with portal_client(args.url) as client:
        client.http.event_hooks["request"].append(recorder)
        await sign_in(client)
        me = await client.auth.profile()
        targets = []
        async for target in all_accounts(client, status="ACTIVE"):
            if target.id != me.biz_id:
                targets.append(target)
            if len(targets) == args.targets:
                break
        await client.auth.profile()
        headers = {
            k: v
            for k, v in recorder.replay_args()["headers"].items()
            if k.lower() not in ("content-length", "x-request-id", "host")
        }
        ids = [t.id for t in targets]
        from portal_admin.ui.panels.accounts.accounts_panel import AccountsPanel

        panel = AccountsPanel(panel_context(client))
        from portal_admin.ui.startup.collector import keep_out_of_full_collections

        keep_out_of_full_collections()  # as the program does once its window shows
        engine_s: list[float] = []
        plan_s: list[float] = []
        bare_s: list[float] = []
        lags: list[float] = []
        status = "ACTIVE"
        with tempfile.TemporaryDirectory() as tmp:
            for round_ in range(args.rounds):
                for side in ("engine", "bare") if round_ % 2 == 0 else ("bare", "engine"):
                    action = "SUSPEND" if status == "ACTIVE" else "ACTIVATE"
                    if side == "engine":
                        p, r, lag = await engine(
                            panel,
                            with_status(targets, status),
                            action,
                            args.concurrency,
                            Path(tmp),
                        )
                        plan_s.append(p)
                        engine_s.append(r)
                        lags.extend(lag)
                    else:
                        bare_s.append(await bare(args.url, headers, ids, action, args.concurrency))
                    status = ACTION_RESULT[action]
    return {
        "targets": len(targets),
        "engine_s": engine_s,
        "bare_s": bare_s,
        "plan_s": plan_s,
        "engine_median_s": statistics.median(engine_s),
        "bare_median_s": statistics.median(bare_s),
        "plan_median_s": statistics.median(plan_s),
        "lag_p99_ms": percentile(lags, 99),
        "lag_max_ms": max(lags, default=0.0),
        "lag_ticks": len(lags),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--targets", type=int, default=10_000)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    _qapp, loop = qt_loop()
    with loop:
        result = loop.run_until_complete(run(args))
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
