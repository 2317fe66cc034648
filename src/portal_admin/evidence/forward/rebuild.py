"""A journal file and its checkpoints file rebuilt from what a receiver stored.

The JSON format's messages carry each record's and checkpoint's own line
(``portal_admin.line``); ``journal export --format jsonl`` writes the records' lines
themselves. :func:`rebuild` reads such lines from any number of files (a syslog receiver's
file, where each line has a syslog header before the JSON, an HEC export, a ``file://``
destination), drops duplicates by hash (a checkpoint: by signature), orders them by seq, and
writes ``journal.jsonl`` and ``journal.checkpoints.jsonl``: ``journal verify`` then checks the
chain and the signed checkpoints on the receiver's side. Duplicates are sorted out in a
temporary SQLite file, so memory stays flat however much was received.
"""

from __future__ import annotations

import contextlib
import sqlite3
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from portal_admin.evidence.journal import canonical
from portal_admin.files import json_input
from portal_admin.files.atomic import atomic_open

#: The files written: each kind of item and its file's name.
OUTPUTS = (("record", "journal.jsonl"), ("checkpoint", "journal.checkpoints.jsonl"))


@dataclass
class Rebuilt:
    """What a rebuild read and wrote."""

    lines: int = 0
    records: int = 0
    checkpoints: int = 0
    duplicates: int = 0
    #: Lines with no record or checkpoint in them (other messages, other formats, damage).
    ignored: int = 0


def _item(raw: bytes) -> tuple[str, dict[str, Any]] | None:
    """The (kind, line) a received line carries, or None."""
    start = raw.find(b"{")
    if start < 0:
        return None
    try:
        doc = json_input.loads(raw[start:])
    except ValueError:
        return None
    if not isinstance(doc, dict):
        return None
    inner = doc.get("portal_admin")
    if isinstance(inner, dict) and isinstance(inner.get("line"), dict):
        doc = inner["line"]
    seq = doc.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool):
        return None
    if isinstance(doc.get("signature"), str) and doc.get("kind") == "checkpoint":
        return "checkpoint", doc
    if isinstance(doc.get("hash"), str) and isinstance(doc.get("prev"), str):
        return "record", doc
    return None


def rebuild(sources: Iterable[Path], out_dir: Path) -> Rebuilt:
    """Write ``out_dir/journal.jsonl`` and ``out_dir/journal.checkpoints.jsonl`` from the
    received lines in ``sources``."""
    done = Rebuilt()
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="rebuild-", dir=out_dir) as work:
        db = sqlite3.connect(Path(work) / "seen.sqlite3")
        with contextlib.closing(db):
            db.execute("CREATE TABLE item (kind TEXT, key TEXT, seq INTEGER, line BLOB,"
                       " PRIMARY KEY (kind, key))")  # fmt: skip
            for source in sources:
                with source.open("rb") as fh:
                    for raw in fh:
                        done.lines += 1
                        found = _item(raw)
                        if found is None:
                            done.ignored += 1
                            continue
                        kind, line = found
                        key = line["signature"] if kind == "checkpoint" else line["hash"]
                        try:
                            text = canonical(line)
                        except UnicodeEncodeError:  # not UTF-8: no journal wrote it
                            done.ignored += 1
                            continue
                        added = db.execute(
                            "INSERT OR IGNORE INTO item VALUES (?, ?, ?, ?)",
                            (kind, key, line["seq"], text),
                        ).rowcount
                        if not added:
                            done.duplicates += 1
            db.commit()
            for kind, name in OUTPUTS:
                with atomic_open(out_dir / name, newline="") as fh:
                    rows = db.execute(
                        "SELECT line FROM item WHERE kind = ? ORDER BY seq, rowid", (kind,)
                    )
                    for (line,) in rows:
                        fh.write(line.decode("utf-8") + "\n")
                        if kind == "record":
                            done.records += 1
                        else:
                            done.checkpoints += 1
    return done
