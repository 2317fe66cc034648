"""On a production connection a run is confirmed by the number of targets that will change:
typed on the terminal, or given as ``--confirm N`` (``--yes-i-typed N``) by a script."""

from __future__ import annotations

import sys

from portal_admin.connection.profiles import EnvironmentType

from .errors import UsageError
from .output import say


def confirm_count(environment: str, profile: str, count: int, given: int | None) -> None:
    """Return when the run may start; UsageError (nothing is sent) when it is not confirmed."""
    if count == 0 or not _production(environment):
        return
    if given is None:
        if not sys.stdin.isatty():
            raise UsageError(
                f"production ({profile}): {count} targets would change;"
                f" confirm with --confirm {count}"
            )
        say(f"PRODUCTION ({profile}): {count} targets will change.")
        print(f"Type {count} to go on: ", end="", file=sys.stderr, flush=True)
        answer = sys.stdin.readline().strip().replace(",", "")
        given = int(answer) if answer.isdigit() else None
    if given != count:
        raise UsageError(f"not confirmed: {count} targets would change; nothing was sent")


def _production(environment: str) -> bool:
    try:
        return EnvironmentType(environment).needs_confirmation
    except ValueError:  # an environment this program does not know: the careful side
        return True
