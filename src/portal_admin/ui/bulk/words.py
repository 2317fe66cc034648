"""The translated words of bulk changes: skip reasons, import errors, states, pause reasons."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP

CONTEXT = "BulkWords"

REASONS = {
    "SELF": QT_TRANSLATE_NOOP("BulkWords", "The signed-in account itself"),
    "NO_CHANGE": QT_TRANSLATE_NOOP("BulkWords", "Already has the new value"),
    "NOT_ALLOWED": QT_TRANSLATE_NOOP("BulkWords", "Its current status does not allow this"),
    "NOT_FOUND": QT_TRANSLATE_NOOP("BulkWords", "Not found"),
    "DUPLICATE": QT_TRANSLATE_NOOP("BulkWords", "Listed more than once"),
    "FINAL": QT_TRANSLATE_NOOP("BulkWords", "Already accepted, declined, expired or cancelled"),
    "PENDING_EXISTS": QT_TRANSLATE_NOOP("BulkWords", "A pending invitation exists"),
    "INVALID": QT_TRANSLATE_NOOP("BulkWords", "Neither an email nor an id"),
    "BAD_EXPIRY": QT_TRANSLATE_NOOP("BulkWords", "The expiry is not 1 to 365 whole days"),
}

IMPORT_ERRORS = {
    "WRONG_ENCODING": QT_TRANSLATE_NOOP("BulkWords", "The file is not UTF-8 text."),
    "TOO_LARGE": QT_TRANSLATE_NOOP("BulkWords", "The file is too large (64 MiB at most)."),
    "TOO_MANY_LINES": QT_TRANSLATE_NOOP("BulkWords", "The list has more than 200,000 lines."),
    "MISSING_COLUMN": QT_TRANSLATE_NOOP("BulkWords", "No column is named email or id."),
    "BAD_CSV": QT_TRANSLATE_NOOP("BulkWords", "The CSV cannot be read (an unclosed quote?)."),
    "EMPTY": QT_TRANSLATE_NOOP("BulkWords", "The list names nothing."),
}

STATES = {
    "planned": QT_TRANSLATE_NOOP("BulkWords", "Planned"),
    "skipped": QT_TRANSLATE_NOOP("BulkWords", "Skipped"),
    "sending": QT_TRANSLATE_NOOP("BulkWords", "Being sent"),
    "done": QT_TRANSLATE_NOOP("BulkWords", "Done"),
    "failed": QT_TRANSLATE_NOOP("BulkWords", "Failed"),
    "unknown": QT_TRANSLATE_NOOP("BulkWords", "Unknown outcome"),
    "cancelled": QT_TRANSLATE_NOOP("BulkWords", "Cancelled"),
    "running": QT_TRANSLATE_NOOP("BulkWords", "Running"),
    "paused": QT_TRANSLATE_NOOP("BulkWords", "Paused"),
    "finished": QT_TRANSLATE_NOOP("BulkWords", "Finished"),
    "interrupted": QT_TRANSLATE_NOOP("BulkWords", "Interrupted"),
}

PAUSES = {
    "BY_USER": QT_TRANSLATE_NOOP("BulkWords", "Paused."),
    "CONNECTION": QT_TRANSLATE_NOOP(
        "BulkWords", "Paused: the server cannot be reached. Nothing is lost; resume when it is."
    ),
    "SIGNED_OUT": QT_TRANSLATE_NOOP("BulkWords", "Paused: the sign-in has ended."),
    "STOPPED": QT_TRANSLATE_NOOP("BulkWords", "Paused: the program stopped the job."),
}

KINDS = {
    "status": QT_TRANSLATE_NOOP("BulkWords", "Change status"),
    "reset-password": QT_TRANSLATE_NOOP("BulkWords", "Reset passwords"),
    "update": QT_TRANSLATE_NOOP("BulkWords", "Set a field"),
    "invite": QT_TRANSLATE_NOOP("BulkWords", "Invite"),
    "cancel-invitation": QT_TRANSLATE_NOOP("BulkWords", "Cancel invitations"),
    "revert": QT_TRANSLATE_NOOP("BulkWords", "Revert"),
}


def word(table: dict[str, str], code: str | None) -> str:
    """The translated word of ``code`` in ``table`` (the code itself when unknown)."""
    if not code:
        return ""
    source = table.get(code)
    return QCoreApplication.translate(CONTEXT, source) if source else code
