"""``python -m portal_admin.evidence``: check evidence packs and the journal (no Qt).

    python -m portal_admin.evidence verify PACK.zip [--fingerprint HEX]
    python -m portal_admin.evidence journal verify [PATH]
    python -m portal_admin.evidence journal export OUT [--format csv|json] [--since ISO]
        [--until ISO] [--operation ID] [--target ID] [--account EMAIL] [--outcome ok|failed|unknown]

``verify`` exits 0 when the pack is intact, 1 when anything was changed, added or removed
(saying what), 2 when it is not a pack. ``journal verify`` exits 0 when every record
verifies, 1 when the chain is broken (naming the first record), 2 when the file is not a
journal or cannot be read.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from . import journal


def build_parser() -> argparse.ArgumentParser:
    """The command line."""
    parser = argparse.ArgumentParser(prog="python -m portal_admin.evidence")
    areas = parser.add_subparsers(dest="area", required=True)
    check_pack = areas.add_parser("verify", help="check an evidence pack")
    check_pack.add_argument("pack")
    check_pack.add_argument("--fingerprint", help="the signing key's expected fingerprint")
    commands = areas.add_parser("journal", help="the journal of changes").add_subparsers(
        dest="command", required=True
    )
    check = commands.add_parser("verify", help="check every record's hash and link")
    check.add_argument("path", nargs="?", help="default: this computer's journal")
    export = commands.add_parser("export", help="write records as CSV or JSON")
    export.add_argument("out")
    export.add_argument("--path", help="default: this computer's journal")
    export.add_argument("--format", choices=("csv", "json"), default="csv")
    for name in ("since", "until", "operation", "target", "account"):
        export.add_argument(f"--{name}")
    export.add_argument("--outcome", choices=("ok", "failed", "unknown"))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    if args.area == "verify":
        from .pack import verify_pack

        checked = verify_pack(Path(args.pack), args.fingerprint)
        words = {"intact": "intact", "changed": "CHANGED", "not-a-pack": "not an evidence pack"}
        print(f"{args.pack}: {words[checked.status]}")
        if checked.fingerprint:
            print(f"  {checked.kind}; signed by key {checked.fingerprint}")
        for trouble in checked.problems:
            print(f"  {trouble}")
        return checked.exit_status
    path = Path(args.path) if args.path else None
    if args.command == "verify":
        target = path or journal.default_journal_path()
        if path is not None and not path.is_file():
            print(f"{path}: no such journal", file=sys.stderr)
            return 2
        try:
            result = journal.verify(target)
        except OSError as exc:
            print(f"{target}: {exc.strerror}", file=sys.stderr)
            return 2
        if result.records == 0 and result.problems:
            print(f"{target}: not a journal", file=sys.stderr)
            return 2
        print(result.summary())
        for problem in result.problems[:20]:
            print(f"  line {problem.line} (seq {problem.seq}): {problem.reason}")
        for brk in result.breaks:
            print(f"  new segment at line {brk.line} (seq {brk.seq}) after: {brk.reason}")
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


if __name__ == "__main__":
    sys.exit(main())
