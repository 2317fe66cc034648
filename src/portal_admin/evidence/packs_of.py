"""What a pack is made of: a snapshot, a diff, or a range of the journal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import checkpoints, diff, pack, snapshot


def source(args: Any, journal: Any) -> tuple[str, dict[str, pack.Table], dict[str, Any]]:
    """(kind, tables, summary) for ``--snapshot S``, ``--diff OLD NEW`` or ``--journal``."""
    if args.snapshot:
        taken = snapshot.open_snapshot(Path(args.snapshot))
        return "snapshot", pack.snapshot_tables(taken), pack.snapshot_summary(taken)
    if args.diff:
        result = diff.diff_snapshots(Path(args.diff[0]), Path(args.diff[1]))
        return "diff", pack.diff_tables(result), pack.diff_summary(result)
    records = list(journal.read(since=args.since, until=args.until))
    check = journal.verify()
    summary = {
        "records": len(records),
        "since": args.since or "",
        "until": args.until or "",
        "journal head": check.head,
        "journal intact": check.ok,
    }
    marks = checkpoints.lines(checkpoints.checkpoints_path(journal.default_journal_path()))
    summary["checkpoints"] = len(marks)
    return "journal", pack.journal_tables(records, marks), summary
