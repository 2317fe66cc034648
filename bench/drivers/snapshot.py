"""Driver of the snapshot benchmark (a subprocess of ``bench.bench_snapshot``).

Against a sandbox served over loopback: the program's access-review snapshot
(``evidence.snapshot.take_snapshot``: every account page by page, 100 a page, sorted by id,
into a SQLite file; then roles, invitations, the security settings, the channels and the label
lists), and a bare ``httpx.AsyncClient`` fetching the same account pages with the same body,
sort and headers as the client sends (each answer decoded with ``response.json()``, to find
the last page; nothing kept): one request at a time (the plain loop), and with the program's
own two pages ahead (the same overlap of server and client, so the ratio is the program's
cost alone); all on the program's qasync loop. Rounds alternate which side goes first;
prints medians as one JSON line.
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

from portal_admin.evidence.snapshot import AHEAD, PAGE, take_snapshot

from ..common import RequestRecorder, portal_client, sign_in
from .ui_session import qt_loop

QUERY_PATH = "/web/v1/system/accounts/admin/query"


async def bare(base_url: str, headers: dict[str, str], ahead: int = 0) -> tuple[float, int]:
    """Seconds to fetch every account page with a bare client, and the accounts seen;
    ``ahead``: pages asked for ahead of the one being read (0: one request at a time)."""
    body: dict[str, Any] = dict.fromkeys(
        ("institutionBizId", "accountPortal", "accountStatus", "email", "name")
    )
    async with httpx.AsyncClient(base_url=base_url, headers=headers) as http:

        async def page(number: int) -> list[Any]:
            answer = await http.post(
                QUERY_PATH,
                params={"sort": "bizId,asc"},
                json={**body, "page": number, "size": PAGE},
            )
            answer.raise_for_status()
            data = answer.json()["data"]
            return next(v for v in data.values() if isinstance(v, list))

        start = time.perf_counter()
        pending = [asyncio.ensure_future(page(n)) for n in range(max(ahead, 1))]
        asked, seen = len(pending), 0
        while pending:
            items = await pending.pop(0)
            seen += len(items)
            if len(items) < PAGE:
                for task in pending:
                    task.cancel()
                await asyncio.gather(*pending, return_exceptions=True)
                return time.perf_counter() - start, seen
            pending.append(asyncio.ensure_future(page(asked)))
            asked += 1
        raise AssertionError("unreachable")


async def run(args: argparse.Namespace) -> dict[str, Any]:
    recorder = RequestRecorder()
    async with portal_client(args.url) as client:
        client.http.event_hooks["request"].append(recorder)
        await sign_in(client)
        first = await client.accounts.query(page=0, size=PAGE, sort="bizId,asc")
        headers = {
            k: v
            for k, v in recorder.replay_args()["headers"].items()
            if k.lower() not in ("content-length", "x-request-id", "host")
        }
        program_s: list[float] = []
        bare_s: list[float] = []
        ahead_s: list[float] = []
        counted = 0
        with tempfile.TemporaryDirectory() as tmp:
            for round_ in range(args.rounds):
                sides = ("program", "bare", "ahead")
                for side in sides if round_ % 2 == 0 else sides[::-1]:
                    if side == "program":
                        path = Path(tmp) / f"snapshot-{round_}.sqlite"
                        start = time.perf_counter()
                        taken = await take_snapshot(client, path, server=args.url)
                        program_s.append(time.perf_counter() - start)
                        counted = taken.counts()["accounts"]
                        path.unlink()
                    else:
                        ahead = AHEAD if side == "ahead" else 0
                        seconds, seen = await bare(args.url, headers, ahead)
                        (ahead_s if ahead else bare_s).append(seconds)
                        assert seen == first.total_items, (seen, first.total_items)
    assert counted == first.total_items, (counted, first.total_items)
    return {
        "accounts": counted,
        "pages": -(-counted // PAGE),
        "program_s": program_s,
        "bare_s": bare_s,
        "program_median_s": statistics.median(program_s),
        "bare_median_s": statistics.median(bare_s),
        "ahead_median_s": statistics.median(ahead_s),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    _qapp, loop = qt_loop()  # the program's loop (qasync), for both sides
    with loop:
        result = loop.run_until_complete(run(args))
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
