"""A run is confirmed by the number of targets that will change, typed on the terminal or given
as ``--confirm N`` (``--yes-i-typed N``) by a script, when ``jobs.confirmation_needed`` says so:
every run on production, and a revert of more than 100 targets anywhere."""

from __future__ import annotations

import sys

from portal_admin import jobs
from portal_admin.connection.profiles import EnvironmentType

from .errors import UsageError
from .output import say


def confirm_job(job: jobs.JobFile, environment: str, profile: str, given: int | None) -> None:
    """Return when ``job`` may run; UsageError (nothing is sent) when it is not confirmed."""
    needed = jobs.confirmation_needed(job, production(environment))
    if needed is not None:
        _typed(needed, environment, profile, given)


def confirm_count(environment: str, profile: str, count: int, given: int | None) -> None:
    """Return when a run of ``count`` changes may start (a run that is no job's: confirmed on
    production); UsageError (nothing is sent) when it is not confirmed."""
    if count == 0 or not production(environment):
        return
    _typed(count, environment, profile, given)


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
