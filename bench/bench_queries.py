"""Sandbox queries: filtered, sorted account queries at 100,000 accounts against the same at
1,000 (indexes, not scans).

Each query is the request ``client.accounts.query`` sends (recorded from the client), replayed
with the client's own ``httpx.AsyncClient`` against the in-process sandbox, so the time is the
sandbox's whole handling of it: parsing, the count, the page query, the records. Both sandboxes
live in one process and the requests alternate between them, so load on the machine hits both
alike. The databases are seeded once and cached (``bench.sandbox_cache``); each run works on a
fresh copy. The note gives the SQL alone (count + page, as the handler builds them).
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import statistics
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx

from .common import IN_PROCESS_URL, RequestRecorder, in_process_app, portal_client, sign_in
from .harness import Result, at_most, pick
from .sandbox_cache import fresh_copy

GOAL = 3.0

#: (label, keyword arguments of client.accounts.query)
QUERIES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("status=SUSPENDED by email", {"status": "SUSPENDED", "sort": "accountEmail,asc"}),
    ("status=ACTIVE by updated desc", {"status": "ACTIVE", "sort": "updatedAt,desc"}),
    ("name~'mar' by name", {"name": "mar", "sort": "accountName,asc"}),
    ("email~'a' by created desc", {"email": "a", "sort": "createdAt,desc"}),
)

Send = Callable[[], Awaitable[Any]]


@contextlib.asynccontextmanager
async def _sandbox(accounts: int, folder: Path) -> AsyncIterator[tuple[Any, dict[str, Send]]]:
    """A signed-in sandbox of ``accounts``: its app and one replayable request per query."""
    db = fresh_copy(accounts, folder / f"queries-{accounts}.sqlite3")
    app = in_process_app(accounts=accounts, db=str(db))
    try:
        async with portal_client(IN_PROCESS_URL, httpx.ASGITransport(app=app)) as client:
            await sign_in(client)
            recorder = RequestRecorder()
            client.http.event_hooks["request"].append(recorder)
            sends: dict[str, Send] = {}
            for label, kwargs in QUERIES:
                await client.accounts.query(size=20, **kwargs)
                sent = recorder.replay_args()

                async def send(sent: dict[str, Any] = sent) -> Any:
                    response = await client.http.request(**sent)
                    response.raise_for_status()
                    return response

                sends[label] = send
            yield app, sends
    finally:
        app.state.sandbox.db.close()


def _sql_ms(db_path: str, kwargs: dict[str, Any], repeat: int) -> float:
    """Median ms of the handler's count and page SQL for a query, on its own connection."""
    from portal_admin.protocol.bodies import AccountQuery
    from portal_admin.protocol.enums import ACCOUNT_STATUS
    from portal_admin.sandbox.routes.accounts import query_sql

    body: dict[str, Any] = {k: v for k, v in kwargs.items() if k in ("email", "name")}
    if "status" in kwargs:
        body["accountStatus"] = ACCOUNT_STATUS.value_of(kwargs["status"])
    page_sql, count_sql, params = query_sql(AccountQuery.model_validate(body), [kwargs["sort"]])
    con = sqlite3.connect(db_path)
    try:
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            con.execute(count_sql, params).fetchall()
            con.execute(page_sql, [*params, 20, 0]).fetchall()
            times.append(time.perf_counter() - start)
    finally:
        con.close()
    return statistics.median(times) * 1000


async def _run(quick: bool) -> list[Result]:
    small = pick(quick, 1_000, 1_000, 200)
    large = pick(quick, 100_000, 100_000, 2_000)
    repeat = pick(quick, 21, 61, 3)
    results = []
    with tempfile.TemporaryDirectory(prefix="portal-admin-bench-") as tmp:
        folder = Path(tmp)
        async with _sandbox(small, folder) as (app_s, s), _sandbox(large, folder) as (app_l, b):
            for label, kwargs in QUERIES:
                ts: list[float] = []
                tl: list[float] = []
                for i in range(repeat):
                    order = ((s, ts), (b, tl)) if i % 2 == 0 else ((b, tl), (s, ts))
                    for sends, sink in order:
                        start = time.perf_counter()
                        await sends[label]()
                        sink.append(time.perf_counter() - start)
                sql_s = _sql_ms(app_s.state.sandbox.db.path, kwargs, repeat)
                sql_l = _sql_ms(app_l.state.sandbox.db.path, kwargs, repeat)
                results.append(
                    at_most(
                        f"sandbox query {label}, {large // 1000}k vs {small // 1000 or 1}k (ms)",
                        statistics.median(tl) * 1000,
                        statistics.median(ts) * 1000,
                        "ms",
                        GOAL,
                        f"page of 20 + total, in-process, median; SQL alone {sql_l:.2f} vs "
                        f"{sql_s:.2f} ms",
                    )
                )
    return results


def run(quick: bool) -> list[Result]:
    return asyncio.run(_run(quick))
