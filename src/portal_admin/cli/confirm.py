"""A run is confirmed by the number of targets that will change, typed on the terminal or given
as ``--confirm N`` (``--yes-i-typed N``) by a script, when ``jobs.confirmation_needed`` says so:
every run on production, and a revert of more than 100 targets anywhere."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from portal_admin import jobs
from portal_admin.connection.profiles import EnvironmentType

from .errors import UsageError
from .output import say


def confirm_jobs(
    found: Sequence[jobs.JobFile], environment: str, profile: str, given: int | None
) -> None:
    """Return when the jobs ``found`` may run; UsageError (nothing is sent) when they are not
    confirmed. The targets of those that need it are confirmed together: one number."""
    needed = sum(jobs.confirmation_needed(job, production(environment)) or 0 for job in found)
    if needed:
        _typed(needed, environment, profile, given)


def _typed(count: int, environment: str, profile: str, given: int | None) -> None:
    where = "PRODUCTION" if production(environment) else environment.upper() or "THIS SERVER"
    if given is None:
        if not sys.stdin.isatty():
            raise UsageError(
                f"{where.lower()} ({profile}): {count} targets would change;"
                f" confirm with --confirm {count}"
            )
        say(f"{where} ({profile}): {count} targets will change.")
        print(f"Type {count} to go on: ", end="", file=sys.stderr, flush=True)
        answer = sys.stdin.readline().strip().replace(",", "")
        given = int(answer) if answer.isdigit() else None
    if given != count:
        raise UsageError(f"not confirmed: {count} targets would change; nothing was sent")


def production(environment: str) -> bool:
    """True where every change is confirmed (an environment this program does not know too)."""
    try:
        return EnvironmentType(environment).needs_confirmation
    except ValueError:  # an environment this program does not know: the careful side
        return True
