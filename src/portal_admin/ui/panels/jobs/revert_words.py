"""The translated words of a revert: the values it sets back, why a line is skipped and what
can be done instead, and why a revert cannot be planned at all (``jobs.RevertError``).

The engine's own sentences (``why``, ``instead``, the error's message) are English, for the
command line; the desktop program words the codes itself from the line's values.
"""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import QCoreApplication

from portal_admin import jobs
from portal_admin.evidence.journal import Verification
from portal_admin.jobs.reversible import norm
from portal_admin.jobs.store import Item
from portal_admin.protocol.enums import ACCOUNT_TRANSITIONS
from portal_admin.ui.enum_labels import snake, value_label
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP, fill

CONTEXT = "RevertWords"


def translated(source: str) -> str:
    """``source`` in the current language (context ``RevertWords``)."""
    return QCoreApplication.translate(CONTEXT, source)


#: The values a revert sets back, by the key its records use.
KEYS = {
    "status": QT_TRANSLATE_NOOP("RevertWords", "Status"),
    "accountName": QT_TRANSLATE_NOOP("RevertWords", "Name"),
    "accountPhone": QT_TRANSLATE_NOOP("RevertWords", "Phone"),
    "accountRemark": QT_TRANSLATE_NOOP("RevertWords", "Remark"),
    "defaultLanguage": QT_TRANSLATE_NOOP("RevertWords", "Language"),
    "defaultTimezone": QT_TRANSLATE_NOOP("RevertWords", "Time zone"),
    "defaultCountry": QT_TRANSLATE_NOOP("RevertWords", "Country"),
    "ips": QT_TRANSLATE_NOOP("RevertWords", "IP whitelist entries"),
    "enabled": QT_TRANSLATE_NOOP("RevertWords", "IP whitelist enabled"),
    "channelStatus": QT_TRANSLATE_NOOP("RevertWords", "Channel status"),
    "channelName": QT_TRANSLATE_NOOP("RevertWords", "Channel name"),
    "description": QT_TRANSLATE_NOOP("RevertWords", "Description"),
    "isDefault": QT_TRANSLATE_NOOP("RevertWords", "Default channel"),
    "typeStatus": QT_TRANSLATE_NOOP("RevertWords", "Channel type status"),
    "typeName": QT_TRANSLATE_NOOP("RevertWords", "Channel type name"),
    "typeDescription": QT_TRANSLATE_NOOP("RevertWords", "Channel type description"),
    "displayOrder": QT_TRANSLATE_NOOP("RevertWords", "Display order"),
    "iconUrl": QT_TRANSLATE_NOOP("RevertWords", "Icon"),
}

#: A skipped line, in a few words (the plan's column).
SKIPS = {
    jobs.RevertSkip.CHANGED_SINCE: QT_TRANSLATE_NOOP("RevertWords", "Changed since"),
    jobs.Skip.NO_CHANGE: QT_TRANSLATE_NOOP("RevertWords", "Already back"),
    jobs.Skip.NOT_ALLOWED: QT_TRANSLATE_NOOP("RevertWords", "Not allowed"),
    jobs.RevertSkip.NOT_REVERSIBLE: QT_TRANSLATE_NOOP("RevertWords", "Not reversible"),
    jobs.RevertSkip.NO_BEFORE: QT_TRANSLATE_NOOP("RevertWords", "No value before"),
    jobs.RevertSkip.NOT_APPLIED: QT_TRANSLATE_NOOP("RevertWords", "Was refused"),
    jobs.Skip.NOT_FOUND: QT_TRANSLATE_NOOP("RevertWords", "Gone"),
    jobs.RevertSkip.OTHER_ACCOUNT: QT_TRANSLATE_NOOP("RevertWords", "Another account's"),
    jobs.Skip.SELF: QT_TRANSLATE_NOOP("RevertWords", "Your own status"),
    jobs.RevertSkip.UNAUTHENTICATED: QT_TRANSLATE_NOOP("RevertWords", "Not authenticated"),
}

#: Why a kind of change cannot be set back, and what can be done instead.
_MAIL = (
    QT_TRANSLATE_NOOP("RevertWords", "A password-reset mail cannot be taken back."),
    QT_TRANSLATE_NOOP("RevertWords", "Tell the person to ignore the mail; its link expires."),
)
_PASSWORD = (
    QT_TRANSLATE_NOOP("RevertWords", "A password is never recorded, so it cannot be set back."),
    QT_TRANSLATE_NOOP("RevertWords", "Set a new password."),
)
_CHECK = (
    QT_TRANSLATE_NOOP("RevertWords", "A settings check changed nothing."),
    QT_TRANSLATE_NOOP("RevertWords", "Nothing to do."),
)
NOT_REVERSIBLE: dict[str, tuple[str, str]] = {
    "accounts.password_reset": _MAIL,
    "auth.password_forgot": _MAIL,
    "auth.password_reset": _PASSWORD,
    "auth.password_change": _PASSWORD,
    "auth.password_init": _PASSWORD,
    "security.backup_codes_generate": (
        QT_TRANSLATE_NOOP("RevertWords", "New backup codes replaced the earlier ones."),
        QT_TRANSLATE_NOOP("RevertWords", "Keep the new codes, or generate another set."),
    ),
    "security.otp_revoke": (
        QT_TRANSLATE_NOOP("RevertWords", "A revoked authenticator cannot be restored."),
        QT_TRANSLATE_NOOP("RevertWords", "Enrol the authenticator again."),
    ),
    "roles.delete": (
        QT_TRANSLATE_NOOP("RevertWords", "A deleted role cannot be restored."),
        QT_TRANSLATE_NOOP("RevertWords", "Create the role again with its permissions and members."),
    ),
    "portals.create": (
        QT_TRANSLATE_NOOP("RevertWords", "This program cannot remove a portal."),
        QT_TRANSLATE_NOOP("RevertWords", "Ask the server's operator to remove it."),
    ),
    "invitations.create": (
        QT_TRANSLATE_NOOP("RevertWords", "A sent invitation cannot be unsent."),
        QT_TRANSLATE_NOOP("RevertWords", "Cancel it in the Invitations panel."),
    ),
    "invitations.cancel": (
        QT_TRANSLATE_NOOP("RevertWords", "A cancelled invitation cannot be reopened."),
        QT_TRANSLATE_NOOP("RevertWords", "Invite the person again."),
    ),
    "notifications.channels_create": (
        QT_TRANSLATE_NOOP("RevertWords", "A revert does not delete what was created."),
        QT_TRANSLATE_NOOP("RevertWords", "Delete it in the Notifications panel."),
    ),
    "notifications.channel_types_create": (
        QT_TRANSLATE_NOOP("RevertWords", "A revert does not delete what was created."),
        QT_TRANSLATE_NOOP("RevertWords", "Delete it in the Notifications panel."),
    ),
    "notifications.channels_delete": (
        QT_TRANSLATE_NOOP("RevertWords", "What was deleted cannot be restored."),
        QT_TRANSLATE_NOOP("RevertWords", "Create it again."),
    ),
    "notifications.channel_types_delete": (
        QT_TRANSLATE_NOOP("RevertWords", "What was deleted cannot be restored."),
        QT_TRANSLATE_NOOP("RevertWords", "Create it again."),
    ),
    "notifications.validate_imap": _CHECK,
    "notifications.validate_smtp": _CHECK,
}

#: Why the journal does not verify (``journal.Problem.reason``).
JOURNAL_REASONS = {
    "torn": QT_TRANSLATE_NOOP("RevertWords", "a cut-off record"),
    "not-json": QT_TRANSLATE_NOOP("RevertWords", "a line that is not a record"),
    "hash": QT_TRANSLATE_NOOP("RevertWords", "a record edited after it was written"),
    "chain": QT_TRANSLATE_NOOP("RevertWords", "a record removed or moved"),
    "order": QT_TRANSLATE_NOOP("RevertWords", "records out of order"),
}


def key_word(record: dict[str, Any]) -> str:
    """The value a line sets back, in words (the operation for a change that names none)."""
    key = str(record.get("key") or "")
    if key in KEYS:
        return translated(KEYS[key])
    return key or str(record.get("operation") or "")


def skip_word(code: str | None) -> str:
    """A skip in a few words ("" for a planned line; the code itself when unknown)."""
    if not code:
        return ""
    return translated(SKIPS[code]) if code in SKIPS else code


#: What a line's value is a value of, for its label: (field, kind of row) by the line's key.
_VALUE_OF = {
    "status": ("status", None),
    "channelStatus": ("status", "channel"),
    "typeStatus": ("status", "channel type"),
}


def shown_value(value: Any, key: str = "") -> str:
    """A value as the plan shows it, as the person reads it ("Suspended", not SUSPENDED; "–"
    for none)."""
    text = norm(value)
    if not text:
        return "\u2013"
    field, kind = _VALUE_OF.get(key, (snake(key), None))
    return value_label(field, text, row_kind=kind) if key else text


def explain(item: Item) -> str:
    """Why a line is skipped and what can be done instead ("" for a planned line)."""
    record: dict[str, Any] = item.record
    code = item.skip
    key = str(record.get("key") or "")
    before, after, now = (shown_value(record.get(k), key) for k in ("before", "after", "now"))
    if not code:
        return fill(
            QCoreApplication.translate("RevertWords", "Set back from %1 to %2."), now, before
        )
    if code == jobs.RevertSkip.CHANGED_SINCE:
        return fill(
            QCoreApplication.translate(
                "RevertWords",
                "Changed since the record: before %1, after %2, now %3. Check who changed it; "
                "set it by hand if it should still go back.",
            ),
            before,
            after,
            now,
        )
    if code == jobs.Skip.NO_CHANGE:
        return fill(
            QCoreApplication.translate(
                "RevertWords", "Already back: the value now is the value before (%1)."
            ),
            before,
        )
    if code == jobs.Skip.NOT_ALLOWED:
        allowed = ", ".join(
            shown_value(v, key)
            for v in ACCOUNT_TRANSITIONS.get(norm(record.get("now")), {}).values()
        )
        return fill(
            QCoreApplication.translate(
                "RevertWords",
                "%1 cannot become %2 directly (from %1: %3). Change it to one of those first.",
            ),
            now,
            before,
            allowed or "\u2013",
        )
    if code == jobs.RevertSkip.NOT_REVERSIBLE:
        why, instead = NOT_REVERSIBLE.get(
            str(record.get("operation") or ""),
            (QT_TRANSLATE_NOOP("RevertWords", "This change cannot be set back."), ""),
        )
        return f"{translated(why)} {translated(instead)}".strip()
    if code == jobs.RevertSkip.NO_BEFORE:
        return fill(
            QCoreApplication.translate(
                "RevertWords",
                "The record has no usable value before the change. Set it by hand (after: %1).",
            ),
            after,
        )
    if code == jobs.RevertSkip.NOT_APPLIED:
        return QCoreApplication.translate(
            "RevertWords", "The change was refused: nothing to set back."
        )
    if code == jobs.Skip.NOT_FOUND:
        return QCoreApplication.translate("RevertWords", "It no longer exists.")
    if code == jobs.RevertSkip.OTHER_ACCOUNT:
        return QCoreApplication.translate(
            "RevertWords", "Another account's IP whitelist: sign in as that account to revert it."
        )
    if code == jobs.Skip.SELF:
        return QCoreApplication.translate(
            "RevertWords", "The signed-in account's own status: sign in as another administrator."
        )
    if code == jobs.RevertSkip.UNAUTHENTICATED:
        return QCoreApplication.translate(
            "RevertWords",
            "The journal record is not authenticated: no checkpoint of this installation vouches "
            "for it, this program did not write it, and the job file does not confirm it. Anyone "
            "who can write the journal could have added it, so it is left alone.",
        )
    return str(record.get("why") or code)


def _journal_problem(verification: Verification | None) -> str:
    """The first problem of a journal that does not verify, in words."""
    if verification is None:
        return ""
    if verification.problems:
        first = verification.problems[0]
        reason = JOURNAL_REASONS.get(first.reason)
        return fill(
            QCoreApplication.translate("RevertWords", "at line %1 (record %2): %3"),
            first.line,
            first.seq if first.seq is not None else "?",
            translated(reason) if reason else first.reason,
        )
    if verification.anchor:
        return fill(
            QCoreApplication.translate(
                "RevertWords", "it does not match its signed checkpoints (%1)"
            ),
            verification.anchor[0],
        )
    return ""


_OTHER = re.compile(r"record (\d+) was made on (.*) \(profile (.*)\), not on")
_DOUBTFUL = re.compile(r"record\(s\) ([\d, .]+?) are not authenticated")
_BREAK = re.compile(r"break at line (\d+) \(seq (\d+): (.*?)\) after record (\d+)")


def refusal(
    exc: Exception, *, verification: Verification | None = None, signed_in: str = ""
) -> str:
    """Why a revert cannot be planned (``jobs.RevertError`` or the kiosk's ReadOnlyError), in
    words; each ends by saying nothing was sent. ``verification``: the journal's, to name its
    break; ``signed_in``: the server and profile signed in to, as the person knows them."""
    nothing = QCoreApplication.translate("RevertWords", "Nothing was sent.")
    code = getattr(exc, "code", "")
    message = str(exc)
    if not isinstance(exc, jobs.RevertError):
        text = QCoreApplication.translate(
            "RevertWords", "This session is read-only: it cannot revert."
        )
        return f"{text} {nothing}"
    if code == "JOURNAL_BROKEN":
        text = fill(
            QCoreApplication.translate(
                "RevertWords", "The journal does not verify, so nothing in it is reverted: %1."
            ),
            _journal_problem(verification) or message,
        )
    elif code == "ACROSS_BREAK" and (match := _BREAK.search(message)):
        line, seq, reason, first = match.groups()
        word = JOURNAL_REASONS.get(reason)
        text = fill(
            QCoreApplication.translate(
                "RevertWords",
                "The journal has a break at line %1 (record %2: %3) after record %4: records "
                "may be missing there, so nothing is reverted across it.",
            ),
            line,
            seq,
            translated(word) if word else reason,
            first,
        )
    elif code == "OTHER_SERVER" and (match := _OTHER.search(message)):
        seq, server, profile = match.groups()
        text = fill(
            QCoreApplication.translate(
                "RevertWords",
                "Record %1 was made on %2 (profile %3), not on the server signed in to (%4): "
                "sign in there to revert it.",
            ),
            seq,
            server,
            profile,
            signed_in,
        )
    elif code == "NO_SUCH_JOB":
        text = QCoreApplication.translate(
            "RevertWords", "The journal records no change of this job: nothing to revert."
        )
    elif code == "NO_SUCH_RECORD":
        text = fill(
            QCoreApplication.translate("RevertWords", "The journal has no such change: %1."),
            message,
        )
    elif code == "NOTHING":
        text = QCoreApplication.translate("RevertWords", "Select the records to revert.")
    elif code == "UNAUTHENTICATED" and (match := _DOUBTFUL.search(message)):
        text = fill(
            QCoreApplication.translate(
                "RevertWords",
                "Records %1 are not authenticated: no checkpoint of this installation vouches "
                "for them, this program did not write them, and no job file here confirms them. "
                "Anyone who can write the journal could have added them, so they are not "
                "reverted here.",
            ),
            match.group(1),
        )
    elif code == "UNDER_WAY":
        text = QCoreApplication.translate(
            "RevertWords",
            "A revert of the same job or record is being planned or run in another window or "
            "program. Wait for it to end.",
        )
    else:
        text = message
    return f"{text} {nothing}"
