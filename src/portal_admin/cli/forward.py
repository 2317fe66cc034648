"""``journal forward``, ``journal export`` and ``journal rebuild``: the journal for a SIEM.

``forward --to URL`` sends the journal's records and signed checkpoints to a destination and
keeps its place there (``portal_admin.evidence.forward``; docs/siem.md). Exit status: 0 all
sent (``--once``) or stopped cleanly (SIGTERM, Ctrl+C); 1 the destination failed (its place
is kept) or the journal no longer holds the record the destination has; 2 an unusable
command line (nothing sent). ``export`` writes records with their seq and hash as JSON lines
or CSV; ``rebuild`` makes a journal and its checkpoints file from what a receiver stored.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from portal_admin.evidence import journal
from portal_admin.evidence.forward import cursor as cursors
from portal_admin.evidence.forward import destinations, forwarder
from portal_admin.evidence.forward.rebuild import rebuild as rebuild_journal
from portal_admin.files.terminal import printable

from .errors import EXIT_FAILED, EXIT_OK, UsageError
from .output import say, writable, write_csv, write_lines


@dataclass(frozen=True)
class ForwardCommand:
    """``journal forward``: the destination, its format and TLS or HEC settings, how to run."""

    to: str | None
    format: str
    once: bool
    status: bool
    reset: bool
    ca_bundle: str | None
    client_cert: str | None
    client_key: str | None
    token_env: str
    ack_timeout: float
    journal: str | None
    batch: int
    poll: float


@dataclass(frozen=True)
class ExportCommand:
    """``journal export``: from which record, in which format, to where."""

    format: str
    since_seq: int
    out: str | None
    delimiter: str
    journal: str | None


@dataclass(frozen=True)
class RebuildCommand:
    """``journal rebuild``: the receiver's files, and the folder the journal goes to."""

    received: tuple[str, ...]
    out: str


def _journal_path(given: str | None) -> Path:
    return Path(given) if given else journal.default_journal_path()


def _status() -> int:
    found = forwarder.standings()
    if not found:
        say("no destination yet (journal forward --to URL starts one)")
    for standing in found:
        c = standing.cursor
        if c is None:
            print(f"{standing.path}: {printable(standing.problem)}")
            continue
        print(f"{printable(c.destination)}  ({c.format})")
        print(f"  journal     {printable(c.journal)}")
        where = f"seq {c.seq}, hash {c.hash}" if c.started else "nothing sent yet"
        print(f"  cursor      {where}; {c.checkpoints} checkpoint(s) sent; updated {c.updated}")
        if standing.problem:
            print(f"  PROBLEM     {printable(standing.problem)}")
        else:
            print(
                f"  behind      {standing.records_behind} record(s),"
                f" {standing.checkpoints_behind} checkpoint(s)"
            )
    return EXIT_OK


@contextlib.contextmanager
def _stopped_by_signals(stop: threading.Event) -> Iterator[None]:
    """SIGTERM and Ctrl+C set ``stop`` (the run ends after the batch under way) instead of
    interrupting it; the handlers before are put back after."""

    def handler(signum: int, frame: Any) -> None:
        del signum, frame
        stop.set()

    names = ("SIGINT", "SIGTERM")
    before = {n: signal.getsignal(getattr(signal, n)) for n in names if hasattr(signal, n)}
    main = threading.current_thread() is threading.main_thread()
    if main:
        for name in before:
            signal.signal(getattr(signal, name), handler)
    try:
        yield
    finally:
        if main:
            for name, old in before.items():
                signal.signal(getattr(signal, name), old)


def forward(cmd: ForwardCommand) -> int:
    """Send the journal to a destination from its cursor (``--status``: every cursor)."""
    if cmd.status:
        return _status()
    if not cmd.to:
        raise UsageError("journal forward: --to URL is needed (or --status)")
    options = destinations.Options(
        ca_bundle=cmd.ca_bundle,
        client_cert=cmd.client_cert,
        client_key=cmd.client_key,
        token_env=cmd.token_env,
        ack_timeout=cmd.ack_timeout,
    )
    if cmd.client_key and not cmd.client_cert:
        raise UsageError("journal forward: --client-key goes with --client-cert")
    if cmd.poll <= 0 or cmd.batch <= 0 or cmd.ack_timeout <= 0:
        raise UsageError("journal forward: --poll, --batch and --ack-timeout must be above 0")
    path = _journal_path(cmd.journal)
    if cmd.journal and not path.is_file():
        raise UsageError(f"{path}: no such journal")
    try:
        destination = destinations.open_destination(cmd.to, options)
        if cmd.reset:
            cursors.cursor_path(destination.label, path).unlink(missing_ok=True)
        run = forwarder.Forwarder(
            path, destination, cmd.format, batch=cmd.batch, seal_key=cursors.seal_key()
        )
    except destinations.UnusableDestination as exc:
        raise UsageError(printable(str(exc))) from None
    except cursors.CursorError as exc:
        say(f"journal forward: {printable(str(exc))}")
        return EXIT_FAILED
    stop = threading.Event()
    try:
        with _stopped_by_signals(stop):
            report = run.run(follow=not cmd.once, stop=stop, poll=cmd.poll)
    except destinations.DestinationError as exc:
        say(f"journal forward: {printable(str(exc))}")
        if run.cursor.started:
            say(f"  kept: {printable(destination.label)} has every record up to seq"
                f" {run.cursor.seq}; the next run sends the rest")  # fmt: skip
        return EXIT_FAILED
    except cursors.JournalRewritten as exc:
        say(f"journal forward: {printable(str(exc))}")
        return EXIT_FAILED
    _said(run, report)
    return EXIT_OK


def _said(run: forwarder.Forwarder, report: forwarder.Report) -> None:
    """The run's summary for the person."""
    where = f"at seq {run.cursor.seq}" if run.cursor.started else "no record yet"
    skipped = f"; {report.unreadable} unreadable line(s) skipped" if report.unreadable else ""
    say(
        f"{report.records} record(s) and {report.checkpoints} checkpoint(s) sent to"
        f" {printable(run.destination.label)}; {where}{skipped}"
    )


def export(cmd: ExportCommand) -> int:
    """Write the journal's records (from ``--since-seq``) as JSON lines or CSV."""
    path = _journal_path(cmd.journal)
    if cmd.journal and not path.is_file():
        raise UsageError(f"{path}: no such journal")
    out = str(writable(cmd.out)) if cmd.out else None
    since = cmd.since_seq

    def records() -> Iterator[dict[str, Any]]:
        for record in journal.read(path):
            seq = record.get("seq")
            if isinstance(seq, int) and not isinstance(seq, bool) and seq >= since:
                yield record

    if cmd.format == "csv":
        write_csv(journal.csv_rows(records()), out, cmd.delimiter)
    else:
        write_lines((journal.canonical(r).decode("utf-8") + "\n" for r in records()), out)
    return EXIT_OK


def rebuild(cmd: RebuildCommand) -> int:
    """A journal and its checkpoints file from what a receiver stored (JSON format lines)."""
    sources = [Path(name) for name in cmd.received]
    for source in sources:
        if not source.is_file():
            raise UsageError(f"{source}: no such file")
    out = Path(cmd.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out}: is not a folder")
    done = rebuild_journal(sources, out)
    say(
        f"{done.lines} line(s) read: {done.records} record(s) and {done.checkpoints}"
        f" checkpoint(s) written to {out}, {done.duplicates} duplicate(s) dropped,"
        f" {done.ignored} other line(s) ignored"
    )
    say(f"check it: portal-admin-cli journal verify {out / 'journal.jsonl'} --fingerprint HEX")
    return EXIT_OK
