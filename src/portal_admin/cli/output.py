"""Where output goes: messages for people on standard error, data on standard output or a file."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from portal_admin.files.atomic import atomic_open
from portal_admin.files.csv_rules import DELIMITERS, ENCODING, write_rows
from portal_admin.files.terminal import json_line, printable

from .errors import UsageError


def say(text: str) -> None:
    """A line for the person, on standard error (standard output carries data)."""
    print(text, file=sys.stderr, flush=True)


def writable(path: str) -> Path:
    """``path`` as a Path, refused early (before anything is sent) when it cannot be written."""
    target = Path(path)
    folder = target.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if target.is_dir():
        raise UsageError(f"{path}: is a folder")
    if not os.access(folder, os.W_OK):
        raise UsageError(f"{path}: cannot write in {folder}")
    return target


def write_csv(rows: Iterable[Iterable[Any]], out: str | None, delimiter: str) -> None:
    """Rows (header first) as CSV by the program's rules, to ``out`` or standard output."""
    if out:
        with atomic_open(Path(out), encoding=ENCODING, newline="") as fh:
            write_rows(fh, rows, DELIMITERS[delimiter])
    else:
        write_rows(sys.stdout, rows, DELIMITERS[delimiter])
        sys.stdout.flush()


def write_text(text: str, out: str | None) -> None:
    """Text to ``out`` (atomically) or standard output."""
    if out:
        with atomic_open(Path(out)) as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
        sys.stdout.flush()


def write_lines(lines: Iterable[str], out: str | None) -> None:
    """Lines (each with its line end), streamed to ``out`` (atomically) or standard output."""
    if out:
        with atomic_open(Path(out), newline="") as fh:
            fh.writelines(lines)
    else:
        sys.stdout.writelines(lines)
        sys.stdout.flush()


def write_json_lines(records: Iterable[dict[str, Any]], out: str | None) -> int:
    """Records as JSON lines (one object a line, UTF-8; what a terminal would obey escaped) to
    ``out`` (atomically) or standard output, as they come; returns how many."""
    count = 0

    def lines(fh: Any) -> None:
        nonlocal count
        for record in records:
            fh.write(json_line(record) + "\n")
            count += 1

    if out:
        with atomic_open(Path(out)) as fh:
            lines(fh)
    else:
        lines(sys.stdout)
        sys.stdout.flush()
    return count


def show_plan(records: Iterable[dict[str, str]]) -> None:
    """A dry run's lines for a person, on standard output: each target with its current and new
    value, or why it is skipped (the targets' names come from the server: made printable)."""
    for record in records:
        target = printable(record["target"] or record["target_id"], 120)
        if record["skipped_because"]:
            change = f"skipped: {printable(record['skipped_because'])}"
        else:
            change = f"{printable(record['current'], 60)} -> {printable(record['new'], 60)}"
        print(f"{target}\t{change}")
    sys.stdout.flush()
