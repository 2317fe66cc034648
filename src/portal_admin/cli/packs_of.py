"""What ``evidence pack`` packs: a snapshot, a diff, or a range of the journal, as its options
name it (``--snapshot``, ``--diff OLD NEW``, ``--journal`` with ``--since`` and ``--until``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from portal_admin.evidence import checkpoints, diff, journal, pack, snapshot


@dataclass(frozen=True)
class PackSource:
    """One of ``snapshot``, ``diff`` (OLD, NEW) and ``journal`` (from ``since`` until
    ``until``, ISO 8601)."""

    snapshot: str | None = None
    diff: tuple[str, str] | None = None
    journal: bool = False
    since: str | None = None
    until: str | None = None


def source(chosen: PackSource) -> tuple[str, dict[str, pack.Table], dict[str, Any]]:
    """(kind, tables, summary) of the pack: a snapshot's, a diff's or the journal's."""
    if chosen.snapshot:
        taken = snapshot.open_snapshot(Path(chosen.snapshot))
        return "snapshot", pack.snapshot_tables(taken), pack.snapshot_summary(taken)
    if chosen.diff:
        result = diff.diff_snapshots(Path(chosen.diff[0]), Path(chosen.diff[1]))
        return "diff", pack.diff_tables(result), pack.diff_summary(result)
    records = list(journal.read(since=chosen.since, until=chosen.until))
    check = journal.verify()
    summary = {
        "records": len(records),
        "since": chosen.since or "",
        "until": chosen.until or "",
        "journal head": check.head,
        "journal intact": check.ok,
    }
    marks = checkpoints.lines(checkpoints.checkpoints_path(journal.default_journal_path()))
    summary["checkpoints"] = len(marks)
    return "journal", pack.journal_tables(records, marks), summary
