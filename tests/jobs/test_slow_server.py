"""A server that holds writes: a job killed while they are held, resumed at once elsewhere.

The sandbox is served over loopback HTTP (uvicorn, in a thread of the test) behind a wrapper
that holds every account write for ``HOLD`` seconds before applying it, whatever the client
does meanwhile (it keeps working after the client is gone), and counts per target the writes
it received and applied. A job of 8 targets (4 at a time) is killed with SIGKILL while its
first 4 writes are held, and resumed at once in a new process. The resumed runner must not read
a target back before the first request can no longer be applied (its ``sent_until``); then
every target is written exactly once, and the result file agrees with the server. A runner
that reads back at once sees none of the held writes, sends all 8 again and writes 4 twice (a
remark), or gets 4 refusals reported as failures (a suspension).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import csv
import json
import os
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from portal_admin.files.portable import sqlite_uri
from portal_admin.protocol.operations import OPERATIONS
from portal_admin.sandbox import SandboxConfig, create_app
from support.processes import hard_kill

pytestmark = [pytest.mark.slow, pytest.mark.http]

CHILD = Path(__file__).with_name("slow_child.py")
#: Seconds each account write is held before the sandbox applies it (the child's client waits
#: 6 s for an answer, its runner 1 s more, plus a 1 s lease for targets marked ahead).
HOLD = 4.0
TARGETS = 8
WRITES = {OPERATIONS[op].path for op in ("accounts.update", "accounts.status")}


class HoldWrites:
    """Holds account writes for ``hold`` seconds, then applies them even if the client left;
    counts, per target, the writes received and those applied (answered 2000)."""

    def __init__(self, app: ASGIApp, hold: float) -> None:
        self.app = app
        self.hold = hold
        self.received: collections.Counter[str] = collections.Counter()
        self.applied: collections.Counter[str] = collections.Counter()
        self.lock = threading.Lock()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] not in WRITES:
            await self.app(scope, receive, send)
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        target = str(json.loads(body).get("userBizId"))
        with self.lock:
            self.received[target] += 1
        await asyncio.sleep(self.hold)
        given = False

        async def replay() -> Message:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            await asyncio.Event().wait()  # no disconnect is ever seen: the work goes on
            raise AssertionError("unreachable")

        answer: list[bytes] = []

        async def forward(message: Message) -> None:
            if message["type"] == "http.response.body":
                answer.append(message.get("body", b""))
            with contextlib.suppress(Exception):  # the client may be gone
                await send(message)

        await self.app(scope, replay, forward)
        with contextlib.suppress(ValueError):
            if json.loads(b"".join(answer)).get("code") == "2000":
                with self.lock:
                    self.applied[target] += 1


class Served:
    """An ASGI app served by uvicorn on 127.0.0.1 (a free port), in a thread of its own."""

    def __init__(self, app: ASGIApp) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        config = uvicorn.Config(app, log_level="warning", lifespan="off", access_log=False)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.01)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


def start(url: str, folder: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(CHILD), url, str(folder), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def job_path(child: subprocess.Popen[str]) -> Path:
    assert child.stdout is not None
    line = child.stdout.readline()
    assert line.startswith("JOB "), (line, child.stderr.read() if child.stderr else "")
    return Path(line.split(" ", 1)[1].strip())


def items(job: Path) -> list[dict[str, Any]]:
    """The job's lines, read as another process would."""
    conn = sqlite3.connect(sqlite_uri(job), uri=True, timeout=5)
    conn.row_factory = sqlite3.Row
    try:
        return [dict(r) for r in conn.execute("SELECT * FROM items ORDER BY seq")]
    finally:
        conn.close()


def output(child: subprocess.Popen[str], key: str, out: str) -> str:
    for line in out.splitlines():
        if line.startswith(key + " "):
            return line.split(" ", 1)[1]
    raise AssertionError(f"no {key} line in {out!r}")


@pytest.mark.parametrize("kind", ["remark", "status"])
def test_a_job_killed_while_writes_are_held_writes_each_target_once(
    kind: str, tmp_path: Path
) -> None:
    app = create_app(SandboxConfig(db=":memory:", seed_accounts=60, test_clock=True))
    held = HoldWrites(app, HOLD)
    served = Served(held)
    children: list[subprocess.Popen[str]] = []
    try:
        folder = tmp_path / "jobs"
        first = start(served.url, folder, "plan", kind, str(TARGETS))
        children.append(first)
        job = job_path(first)
        deadline = time.monotonic() + 60
        while sum(held.received.values()) < 4:  # four writes are held: kill now
            assert first.poll() is None, first.communicate()
            assert time.monotonic() < deadline, "the writes never arrived"
            time.sleep(0.01)
        time.sleep(0.2)
        hard_kill(first)
        first.wait(timeout=30)
        killed_at = time.monotonic()
        assert not held.applied  # the held writes are still to come
        lines = items(job)
        assert [line["state"] for line in lines] == ["sending"] * TARGETS
        assert all(line["sent_until"] > time.time() for line in lines)

        second = start(served.url, folder, "resume", str(job))
        children.append(second)
        assert job_path(second) == job
        # a slow start (Wine on a busy machine) can open the job after the deadline has passed
        resumed_in_time = time.time() < min(line["sent_until"] for line in lines)
        out, err = second.communicate(timeout=60)
        assert second.returncode == 0, err
        if resumed_in_time:  # it waited for the unanswered requests' deadline, and said so
            assert float(output(second, "SETTLING", out)) > 0
        assert time.monotonic() - killed_at > HOLD
        codes = json.loads(output(second, "CODES", out))
        assert set(codes) == {"2000"}, codes  # nothing refused

        targets = [line["target_id"] for line in lines]
        new = lines[0]["new"]
        # the server: every target written exactly once
        assert held.received == dict.fromkeys(targets, 1), held.received
        assert held.applied == dict.fromkeys(targets, 1), held.applied
        column = "remark" if kind == "remark" else "status"
        marks = ",".join("?" * len(targets))
        rows = app.state.sandbox.db.query(
            f"SELECT biz_id, {column} FROM accounts WHERE biz_id IN ({marks})",
            targets,
        )
        assert {r[0]: r[1] for r in rows} == dict.fromkeys(targets, new)

        # the result file agrees: done for each, with the value the server has
        with job.with_suffix(".result.csv").open(encoding="utf-8-sig", newline="") as fh:
            result = list(csv.DictReader(fh))
        assert [(r["target id"], r["outcome"], r["after"]) for r in result] == [
            (t, "done", new) for t in targets
        ]
        notes = collections.Counter(r["note"] for r in result)
        # the four held writes were found applied; the four never sent were sent
        assert notes == {"verified by reading back": 4, "not applied: sent again": 4}, notes
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
            child.communicate()
        served.stop()
