"""``portal-admin-cli`` in a process of its own, for the SIGKILL tests to kill at a chosen
moment of a campaign transaction.

``review_kill_child.py MOMENT MARKER ARGV...``: MOMENT ``before-commit`` (every statement of
the transaction run, nothing committed: the worst moment for a half-written change) or
``after-commit`` (committed, not yet acknowledged), optionally ``:N`` for the N-th
transaction (default the first); on reaching it the child writes MARKER and waits to be
killed. ``none`` runs the command unchanged.
"""

from __future__ import annotations

import contextlib
import sqlite3
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from portal_admin.reviews import campaign as campaigns

MOMENT, _, NTH = sys.argv[1].partition(":")
MARKER = Path(sys.argv[2])
seen = 0


def stop() -> None:
    MARKER.write_text("here", encoding="utf-8")
    time.sleep(120)


@contextlib.contextmanager
def transaction(self: campaigns.Campaign) -> Iterator[sqlite3.Connection]:
    global seen
    self.conn.execute("BEGIN IMMEDIATE")
    try:
        yield self.conn
    except BaseException:
        self.conn.execute("ROLLBACK")
        raise
    seen += 1
    here = seen == int(NTH or 1)
    if MOMENT == "before-commit" and here:
        stop()
    self.conn.execute("COMMIT")
    if MOMENT == "after-commit" and here:
        stop()


def short_deadline() -> None:
    """The client's deadline for a call (``REVIEW_KILL_TIMEOUT`` seconds) and the runner's
    margin and lease after it shortened, as ``tests/jobs/crash_child.py`` does: a resumed job
    waits that long before reading back what a kill left unanswered."""
    import dataclasses
    import os

    from portal_admin.cli import session

    seconds = os.environ.get("REVIEW_KILL_TIMEOUT")
    if not seconds:
        return
    made = session.client_options

    def options(*args: object, **kwargs: object) -> object:
        return dataclasses.replace(made(*args, **kwargs), timeout=float(seconds))  # type: ignore[arg-type, type-var]

    session.client_options = options  # type: ignore[assignment]
    from portal_admin.jobs import runner

    init = runner.Runner.__init__

    def short(self: runner.Runner, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("settling", runner.Settling(margin=0.5, lease=0.5))
        init(self, *args, **kwargs)  # type: ignore[arg-type]

    runner.Runner.__init__ = short  # type: ignore[method-assign]


short_deadline()
if MOMENT != "none":
    campaigns.Campaign.transaction = transaction  # type: ignore[method-assign]

from portal_admin.cli.main import main  # noqa: E402

sys.exit(main(sys.argv[3:]))
