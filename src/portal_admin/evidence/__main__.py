"""``python -m portal_admin.evidence``: check evidence packs and the journal (no Qt).

    python -m portal_admin.evidence verify PACK.zip [--fingerprint HEX] [--format text|json]
    python -m portal_admin.evidence trust add FINGERPRINT --name NAME
    python -m portal_admin.evidence trust list
    python -m portal_admin.evidence trust remove FINGERPRINT
    python -m portal_admin.evidence journal verify [PATH] [--fingerprint HEX] [--format text|json]
    python -m portal_admin.evidence journal export OUT [--format csv|json] [--since ISO]
        [--until ISO] [--operation ID] [--target ID] [--account EMAIL] [--outcome ok|failed|unknown]

``verify`` exits 0 when the pack is intact and signed by a trusted key (this installation's,
one added with ``trust add``, or the ``--fingerprint`` given), 1 when anything was changed,
added or removed or another key signed it than the fingerprint given (saying what), 2 when it
is not a pack (or the fingerprint given is not one), 3 when it is consistent but signed by a
key that is not trusted (its fingerprint is printed). ``trust`` exits 0 when done, 1 when
``remove`` finds no such trusted key, 2 for a fingerprint or name that cannot be used or a
trust file that cannot be read. ``journal verify`` exits 0 when every record verifies and
the journal agrees with its signed checkpoints, 1 when the chain is broken (naming the first
record) or a checkpoint disagrees with it, does not verify or was signed by another key than
this installation's or a trusted one (or the ``--fingerprint`` given), 2 when the file is not
a journal or cannot be read. Records no anchoring checkpoint vouches for (appended by another
hand, or since the last checkpoint) are said (``NOT AUTHENTICATED``), with exit 0: the chain
itself is whole. ``--format json``: what a verification found as one JSON line (its fields
are named in docs/cli.md), with the same exit status.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from portal_admin.files.terminal import json_line, printable

from . import journal
from . import trust as trusting

if TYPE_CHECKING:
    from .pack import PackVerification

PROG = "python -m portal_admin.evidence"
FORMATS = ("text", "json")


def build_parser() -> argparse.ArgumentParser:
    """The command line."""
    parser = argparse.ArgumentParser(prog=PROG)
    areas = parser.add_subparsers(dest="area", required=True)
    check_pack = areas.add_parser("verify", help="check an evidence pack")
    check_pack.add_argument("pack")
    check_pack.add_argument("--fingerprint", help="the signing key's expected fingerprint")
    check_pack.add_argument("--format", choices=FORMATS, default="text", help="json: one line")
    trusted = areas.add_parser("trust", help="the keys trusted to sign packs").add_subparsers(
        dest="command", required=True
    )
    add = trusted.add_parser("add", help="trust a key (a colleague's, the reviewers')")
    add.add_argument("fingerprint")
    add.add_argument("--name", required=True, help="whose key it is")
    trusted.add_parser("list", help="this installation's key and the trusted keys")
    remove = trusted.add_parser("remove", help="stop trusting a key")
    remove.add_argument("fingerprint")
    commands = areas.add_parser("journal", help="the journal of changes").add_subparsers(
        dest="command", required=True
    )
    check = commands.add_parser("verify", help="check every record's hash and link")
    check.add_argument("path", nargs="?", help="default: this computer's journal")
    check.add_argument(
        "--fingerprint", help="the checkpoints' signing key (default: this installation's)"
    )
    check.add_argument("--format", choices=FORMATS, default="text", help="json: one line")
    export = commands.add_parser("export", help="write records as CSV or JSON")
    export.add_argument("out")
    export.add_argument("--path", help="default: this computer's journal")
    export.add_argument("--format", choices=("csv", "json"), default="csv")
    for name in ("since", "until", "operation", "target", "account"):
        export.add_argument(f"--{name}")
    export.add_argument("--outcome", choices=("ok", "failed", "unknown"))
    return parser


def main(argv: Sequence[str] | None = None, *, prog: str = PROG) -> int:
    """Run the command line; returns the exit status. ``prog``: how the messages name this
    command (``portal-admin-cli evidence`` when that runs it)."""
    args = build_parser().parse_args(argv)
    try:
        if args.area == "verify":
            return _verify(args.pack, args.fingerprint, prog, args.format)
        if args.area == "trust":
            return _trust(args, prog)
    except trusting.TrustError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # the trust file cannot be written
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2
    path = Path(args.path) if args.path else None
    if args.command == "verify":
        target = path or journal.default_journal_path()
        if path is not None and not path.is_file():
            print(f"{path}: no such journal", file=sys.stderr)
            return 2
        try:
            result = journal.verify(
                target, expected_key=args.fingerprint or trusting.own_fingerprint
            )
        except OSError as exc:
            print(f"{target}: {exc.strerror}", file=sys.stderr)
            return 2
        if result.records == 0 and result.problems:
            print(f"{target}: not a journal", file=sys.stderr)
            return 2
        if args.format == "json":
            _json_line(journal_record(result))
            return 0 if result.ok else 1
        print(result.summary())
        for problem in result.problems[:20]:
            print(f"  line {problem.line} (seq {problem.seq}): {problem.reason}")
        for brk in result.breaks:
            print(f"  new segment at line {brk.line} (seq {brk.seq}) after: {brk.reason}")
        for trouble in result.anchor[:20]:
            print(f"  {trouble}")
        for note in result.notes:
            print(f"  {note}")
        if result.pending:
            print(
                f"  {result.pending} change(s) sent whose outcome was not recorded"
                " (the program stopped before the answer)"
            )
        return 0 if result.ok else 1
    records = journal.read(
        path,
        since=args.since,
        until=args.until,
        operation=args.operation,
        target=args.target,
        account=args.account,
        outcome=args.outcome,
    )
    out = Path(args.out)
    count = (
        journal.export_csv(records, out)
        if args.format == "csv"
        else journal.export_json(records, out)
    )
    print(f"{count} records written to {out}")
    return 0


#: How ``verify`` says each status.
WORDS = {
    "intact": "intact",
    "untrusted": "signed by an untrusted key",
    "changed": "CHANGED",
    "not-a-pack": "not an evidence pack",
}


def _json_line(record: dict[str, Any]) -> None:
    print(json_line(record), flush=True)


def journal_record(result: journal.Verification) -> dict[str, Any]:
    """What verifying a journal found, as one record (``journal verify --format json``)."""
    return {
        "journal": str(result.path),
        "ok": result.ok,
        "records": result.records,
        "segments": result.segments,
        "head": result.head,
        "end_seq": result.end_seq,
        "checkpoints": result.checkpoints,
        "pending": result.pending,
        "problems": [{"line": p.line, "seq": p.seq, "reason": p.reason} for p in result.problems],
        "breaks": [{"line": b.line, "seq": b.seq, "reason": b.reason} for b in result.breaks],
        "anchor": list(result.anchor),
        "notes": list(result.notes),
        "anchored": result.anchored,
        "unauthenticated": list(result.unauthenticated),
    }


def pack_record(checked: PackVerification) -> dict[str, Any]:
    """What checking a pack found, as one record (``verify --format json``)."""
    return {
        "pack": str(checked.path),
        "status": checked.status,
        "kind": checked.kind,
        "fingerprint": checked.fingerprint,
        "trust": checked.trust,
        "signer_name": checked.signer_name,
        "problems": list(checked.problems),
    }


def _verify(pack: str, fingerprint: str | None, prog: str, form: str = "text") -> int:
    from .pack import verify_pack

    checked = verify_pack(Path(pack), fingerprint)
    if form == "json":
        _json_line(pack_record(checked))
        return checked.exit_status
    print(f"{pack}: {WORDS[checked.status]}")
    if checked.fingerprint:
        whose = {
            "pinned": "the fingerprint given",
            "own": "this installation's key",
            "trusted": f"trusted: {checked.signer_name}",
            "untrusted": "not trusted here",
        }[checked.trust]
        print(f"  {checked.kind}; signed by key {checked.fingerprint} ({whose})")
    for trouble in checked.problems:
        print(f"  {trouble}")
    if checked.status == "untrusted":
        print(
            "  Its files match its signature, but anyone can sign a pack with a key of their"
            " own.\n  Compare the fingerprint with the one its owner recorded; if it is theirs,"
            f' trust it:\n    {prog} trust add "{checked.fingerprint}" --name "WHOSE KEY"'
            "\n  or check against that one key with --fingerprint."
        )
    return checked.exit_status


def _trust(args: argparse.Namespace, prog: str) -> int:
    store = trusting.TrustStore()
    if args.command == "add":
        entry = store.add(args.fingerprint, args.name)
        print(f"trusted: {entry.fingerprint} ({entry.name})")
        if entry.fingerprint == trusting.own_fingerprint():
            print("  (this installation's own key, which is trusted anyway)")
        return 0
    if args.command == "remove":
        fingerprint = trusting.normalize_fingerprint(args.fingerprint)
        if not store.remove(fingerprint):
            print(f"{prog}: {fingerprint} is not a trusted key", file=sys.stderr)
            return 1
        print(f"no longer trusted: {fingerprint}")
        return 0
    own = trusting.own_fingerprint()
    print(f"{own}  this installation's key" if own else "no key of this installation yet")
    trusted = store.keys()
    for entry in trusted:
        print(
            f"{printable(entry.fingerprint)}  {printable(entry.name)}"
            f" (added {printable(entry.added)})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
