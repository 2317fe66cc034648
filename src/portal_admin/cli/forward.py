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
from pathlib import Path
from typing import Any

from portal_admin.evidence import journal
from portal_admin.evidence.forward import cursor as cursors
from portal_admin.evidence.forward import destinations, forwarder
from portal_admin.evidence.forward.rebuild import rebuild as rebuild_journal
from portal_admin.files.terminal import printable

from .errors import EXIT_FAILED, EXIT_OK, UsageError
from .output import say, writable, write_csv, write_lines


def _journal_path(args: Any) -> Path:
    return Path(args.journal) if args.journal else journal.default_journal_path()


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


def forward(args: Any) -> int:
    """Send the journal to a destination from its cursor (``--status``: every cursor)."""
    if args.status:
        return _status()
    if not args.to:
        raise UsageError("journal forward: --to URL is needed (or --status)")
    options = destinations.Options(
        ca_bundle=args.ca_bundle,
        client_cert=args.client_cert,
        client_key=args.client_key,
        token_env=args.token_env,
        ack_timeout=args.ack_timeout,
    )
    if args.client_key and not args.client_cert:
        raise UsageError("journal forward: --client-key goes with --client-cert")
    if args.poll <= 0 or args.batch <= 0 or args.ack_timeout <= 0:
        raise UsageError("journal forward: --poll, --batch and --ack-timeout must be above 0")
    path = _journal_path(args)
    if args.journal and not path.is_file():
        raise UsageError(f"{path}: no such journal")
    try:
        destination = destinations.open_destination(args.to, options)
        if args.reset:
            cursors.cursor_path(destination.label, path).unlink(missing_ok=True)
        run = forwarder.Forwarder(
            path, destination, args.format, batch=args.batch, seal_key=cursors.seal_key()
        )
    except destinations.UnusableDestination as exc:
        raise UsageError(printable(str(exc))) from None
    except cursors.CursorError as exc:
        say(f"journal forward: {printable(str(exc))}")
        return EXIT_FAILED
    stop = threading.Event()
    try:
        with _stopped_by_signals(stop):
            report = run.run(follow=not args.once, stop=stop, poll=args.poll)
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


def export(args: Any) -> int:
    """Write the journal's records (from ``--since-seq``) as JSON lines or CSV."""
    path = _journal_path(args)
    if args.journal and not path.is_file():
        raise UsageError(f"{path}: no such journal")
    out = str(writable(args.out)) if args.out else None
    since = args.since_seq

    def records() -> Iterator[dict[str, Any]]:
        for record in journal.read(path):
            seq = record.get("seq")
            if isinstance(seq, int) and not isinstance(seq, bool) and seq >= since:
                yield record

    if args.format == "csv":
        write_csv(journal.csv_rows(records()), out, args.delimiter)
    else:
        write_lines((journal.canonical(r).decode("utf-8") + "\n" for r in records()), out)
    return EXIT_OK


def rebuild(args: Any) -> int:
    """A journal and its checkpoints file from what a receiver stored (JSON format lines)."""
    sources = [Path(name) for name in args.received]
    for source in sources:
        if not source.is_file():
            raise UsageError(f"{source}: no such file")
    out = Path(args.out)
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
