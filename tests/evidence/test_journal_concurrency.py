"""Several processes appending to one journal at once: the chain stays whole.

Each process keeps the journal's last hash; without the OS lock and the re-read tail two
processes chained from the same record and verification called the journal BROKEN.
"""

from __future__ import annotations

import itertools
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from portal_admin.evidence import journal as jr

PROCESSES = 4
EACH = 120

APPENDER = """
import sys, time
from pathlib import Path
from portal_admin.evidence.journal import Journal
path, go, name, n = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], int(sys.argv[4])
journal = Journal(path)
print("ready", flush=True)
while not go.exists():
    time.sleep(0.001)
for i in range(n):
    journal.append({"operation": "accounts.update", "targets": [f"{name}-{i}"], "outcome": "ok"})
"""


def test_processes_appending_at_once_keep_one_chain(tmp_path: Path) -> None:
    path = tmp_path / "journal" / "journal.jsonl"
    go = tmp_path / "go"
    script = tmp_path / "appender.py"
    script.write_text(APPENDER, encoding="utf-8")
    children = [
        subprocess.Popen(
            [sys.executable, str(script), str(path), str(go), f"P{p}", str(EACH)],
            stdout=subprocess.PIPE,
            text=True,
        )
        for p in range(PROCESSES)
    ]
    for child in children:
        assert child.stdout is not None and child.stdout.readline() == "ready\n"
    go.touch()  # all start appending together
    started = time.monotonic()
    for child in children:
        assert child.wait(timeout=60) == 0
        assert child.stdout is not None
        child.stdout.close()
    took = time.monotonic() - started
    result = jr.verify(path)
    assert result.ok, (result.summary(), result.problems[:5])
    assert not result.breaks  # no new segment either: no append saw another's half line
    records = list(jr.read(path))
    assert [r["seq"] for r in records] == list(range(1, PROCESSES * EACH + 1))
    targets = Counter(t for r in records for t in r["targets"])
    assert len(targets) == PROCESSES * EACH and set(targets.values()) == {1}
    # They really interleaved: not one process after the other.
    order = [r["targets"][0].split("-")[0] for r in records]
    assert sum(a != b for a, b in itertools.pairwise(order)) > PROCESSES, took


def test_an_object_that_did_not_write_last_reads_the_tail_again(tmp_path: Path) -> None:
    """Two journals of one file in one process (as two processes): each sees the other's
    records through the file's size, not its own cached head."""
    path = tmp_path / "journal.jsonl"
    one, two = jr.Journal(path), jr.Journal(path)
    for i in range(3):
        one.append({"operation": "accounts.update", "targets": [f"A{i}"], "outcome": "ok"})
        two.append({"operation": "accounts.update", "targets": [f"B{i}"], "outcome": "ok"})
    result = jr.verify(path)
    assert result.ok and result.records == 6 and not result.breaks
    assert [r["seq"] for r in jr.read(path)] == [1, 2, 3, 4, 5, 6]
