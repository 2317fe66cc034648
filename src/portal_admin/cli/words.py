"""The command line's English words for the engine's codes (skips, import problems, pauses)."""

from __future__ import annotations

from portal_admin.jobs import ImportCode, PauseReason, RevertSkip, Skip
from portal_admin.jobs.targets import MAX_BYTES, MAX_LINES

#: Why a line of the plan is skipped.
SKIPS: dict[str, str] = {
    Skip.SELF: "the signed-in account itself",
    Skip.NO_CHANGE: "already has the new value",
    Skip.NOT_ALLOWED: "its current status does not allow this",
    Skip.NOT_FOUND: "not found",
    Skip.DUPLICATE: "listed more than once",
    Skip.FINAL: "already accepted, declined, expired or cancelled",
    Skip.PENDING_EXISTS: "a pending invitation exists",
    ImportCode.INVALID: "neither an email nor an id",
    RevertSkip.CHANGED_SINCE: "changed since the record",
    RevertSkip.NOT_REVERSIBLE: "cannot be reverted",
    RevertSkip.NO_BEFORE: "no value before recorded",
    RevertSkip.NOT_APPLIED: "the change was refused: nothing to revert",
    RevertSkip.OTHER_ACCOUNT: "another account's setting",
}

#: Why an imported list cannot be read at all.
IMPORT_PROBLEMS: dict[str, str] = {
    ImportCode.WRONG_ENCODING: "the file is not UTF-8 (save it as UTF-8 and try again)",
    ImportCode.TOO_LARGE: f"the file is larger than {MAX_BYTES // (1024 * 1024)} MiB",
    ImportCode.TOO_MANY_LINES: f"the file has more than {MAX_LINES:,} lines",
    ImportCode.MISSING_COLUMN: "no column is named email or id",
    ImportCode.BAD_CSV: "the CSV cannot be read",
    ImportCode.EMPTY: "the file lists nothing",
}

#: Why a job paused.
PAUSES: dict[str, str] = {
    PauseReason.BY_USER: "interrupted",
    PauseReason.CONNECTION: "the server could not be reached",
    PauseReason.SIGNED_OUT: "the sign-in ended",
    PauseReason.STOPPED: "the program was stopped",
}


def skip(code: str) -> str:
    """A skip or problem code in words."""
    return SKIPS.get(code, code)


def pause(code: str | None, detail: str | None = None) -> str:
    """A pause reason in words (with the error code that caused it, if any)."""
    text = PAUSES.get(code or "", code or "paused")
    return f"{text} ({detail})" if detail else text
