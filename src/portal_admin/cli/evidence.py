"""``evidence verify PACK.zip`` and ``journal verify [PATH]``: the evidence package's own
checks, through its command (``python -m portal_admin.evidence``, which verifies the journal
with ``evidence.journal.verify``), imported only when these commands run.

Exit status as the evidence command gives it: 0 intact, 1 something was changed, added or
removed (it says what), 2 not a pack or journal.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

from .errors import EXIT_USAGE, UsageError


def _evidence_main() -> Any:
    """``portal_admin.evidence.__main__.main``, or a usage error when it is not installed."""
    name = "portal_admin.evidence.__main__"
    try:
        return importlib.import_module(name).main
    except ModuleNotFoundError as exc:
        if exc.name is None or not name.startswith(exc.name):
            raise
        raise UsageError(f"this installation has no {name}: it cannot verify evidence") from None


def _delegate(argv: Sequence[str]) -> int:
    try:
        return int(_evidence_main()(list(argv)))
    except SystemExit as exc:  # its own usage errors
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE


def verify_pack(args: Any) -> int:
    """Check a pack's signature and every file's hash."""
    return _delegate(["verify", args.pack])


def verify_journal(args: Any) -> int:
    """Check the journal's hash chain (this computer's journal unless a path is given)."""
    return _delegate(["journal", "verify", *([args.path] if args.path else [])])
