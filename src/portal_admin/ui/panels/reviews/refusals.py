"""What the campaign engine refused, in the reader's language: each ``CampaignError`` code
(``reviews/errors.py``) has a sentence of its own (``%1``: the file's or the item's name, or
the code's parameters), and each reason of a BAD_INPUT one, so a refusal names its real cause
from the engine's codes, never from its English; a code this program does not know yet is
shown with the engine's own words, never as "damaged"."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from portal_admin.reviews import CampaignError, Decision
from portal_admin.ui.error_info import ErrorInfo
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP, fill

#: A file that cannot be opened as a campaign (``%1``: the file's name).
NOT_OPENED = {
    "NOT_FOUND": QT_TRANSLATE_NOOP("Campaigns", "The file %1 does not exist."),
    "NOT_A_CAMPAIGN": QT_TRANSLATE_NOOP(
        "Campaigns", "%1 is not a campaign file, or it is damaged."
    ),
    "NEWER_SCHEMA": QT_TRANSLATE_NOOP(
        "Campaigns", "%1 was made by a newer version of the program."
    ),
    "FOREIGN_SQL": QT_TRANSLATE_NOOP(
        "Campaigns",
        "%1 carries triggers, views, tables or indexes this program never puts in a campaign."
        " It was refused: they could change decisions behind your back. Ask for the file"
        " again from its owner.",
    ),
    "SCHEMA": QT_TRANSLATE_NOOP(
        "Campaigns",
        "%1 is not laid out as this program's campaign files are: a table or an index is"
        " missing or defined otherwise. It was refused. Ask for the file again from its owner.",
    ),
    "DAMAGED": QT_TRANSLATE_NOOP(
        "Campaigns",
        "%1 is damaged: the database's own check or its settings fail. Ask for the file again"
        " from its owner.",
    ),
    "TOO_SLOW": QT_TRANSLATE_NOOP(
        "Campaigns",
        "Reading %1 took too long: it was given up. A campaign file opens in moments; this one"
        " may be built to hold the program.",
    ),
}
#: A decision refused (``%1``: the item's name).
DECISION = {
    "SELF": QT_TRANSLATE_NOOP(
        "Campaigns", "%1 is your own account: another reviewer decides it. Nothing was recorded."
    ),
    "FROZEN": QT_TRANSLATE_NOOP(
        "Campaigns", "%1 is signed off: its decision is frozen. Nothing was recorded."
    ),
    "CLOSED": QT_TRANSLATE_NOOP(
        "Campaigns", "The campaign is closed: decisions are final. Nothing was recorded."
    ),
    "UNKNOWN_ITEM": QT_TRANSLATE_NOOP("Campaigns", "%1 is not in this campaign."),
}
#: A step of the campaign (sign off, remediate, close) refused.
STEP = {
    "CLOSED": QT_TRANSLATE_NOOP("Campaigns", "The campaign is closed: decisions are final."),
    "FROZEN": QT_TRANSLATE_NOOP(
        "Campaigns", "The campaign is already signed off with another key."
    ),
    "NOT_SIGNED": QT_TRANSLATE_NOOP("Campaigns", "Nothing in this campaign is signed off yet."),
    "CHANGED": QT_TRANSLATE_NOOP("Campaigns", "The campaign changed since it was signed off."),
    "BAD_INPUT": QT_TRANSLATE_NOOP("Campaigns", "The campaign refused it: %1"),
    "UNTRUSTED": QT_TRANSLATE_NOOP(
        "Campaigns",
        "A sign-off is by a key this installation does not trust. Compare its fingerprint with"
        " the reviewer's by another channel, then trust the key (Remediate… lists the signers).",
    ),
    "OLD_SIGNOFF": QT_TRANSLATE_NOOP(
        "Campaigns",
        "A sign-off was made by an earlier version of the program and does not cover the"
        " revocation action: the reviewer signs off again with this version.",
    ),
    "UNDECIDED": QT_TRANSLATE_NOOP(
        "Campaigns",
        "More items are undecided than when you were asked: nothing was signed. Sign off again"
        " to be asked anew.",
    ),
    # %1: the server the scope was signed on (empty: none named), %2: the one signed in to
    "OTHER_SERVER": QT_TRANSLATE_NOOP(
        "Campaigns",
        "This campaign's scope was taken on another server (%1) than the one you are signed in"
        " to (%2): nothing was read or planned. Sign in to the campaign's server to remediate"
        " it.",
    ),
    "SELF": QT_TRANSLATE_NOOP(
        "Campaigns",
        "An item was decided by the reviewer's own account: another reviewer decides it."
        " Nothing was signed.",
    ),
    "UNKNOWN_ITEM": QT_TRANSLATE_NOOP("Campaigns", "An item named is not in this campaign."),
    "OTHER_CAMPAIGN": QT_TRANSLATE_NOOP(
        "Campaigns", "The file is part of another campaign: nothing of it was used."
    ),
    "CONFLICT": QT_TRANSLATE_NOOP(
        "Campaigns",
        "An item is decided differently in the two files: nothing of the file was merged.",
    ),
    "UNREMEDIATED": QT_TRANSLATE_NOOP(
        "Campaigns",
        "Signed-off Revokes are not carried out yet: closing would leave them for good.",
    ),
}
#: Why an input was refused (BAD_INPUT), by the engine's reason (``%1``: its parameter).
REASONS = {
    "NO_NAME": QT_TRANSLATE_NOOP("Campaigns", "A campaign needs a name."),
    "BAD_DUE": QT_TRANSLATE_NOOP("Campaigns", "%1 is not a date (YYYY-MM-DD)."),
    "BAD_REVOCATION": QT_TRANSLATE_NOOP(
        "Campaigns", "A revocation suspends or deactivates the account."
    ),
    "BAD_STALE_DAYS": QT_TRANSLATE_NOOP(
        "Campaigns", "The days after which an account counts as not updated must be at least 1."
    ),
    "SCOPE_UNREADABLE": QT_TRANSLATE_NOOP(
        "Campaigns", "The snapshot %1 cannot be read: take a new one."
    ),
    "EXISTS": QT_TRANSLATE_NOOP(
        "Campaigns", "%1 exists already: a campaign file is never overwritten. Choose another."
    ),
    "BASELINE_UNREADABLE": QT_TRANSLATE_NOOP(
        "Campaigns", "The earlier file %1 is neither a snapshot nor a campaign that can be read."
    ),
    "NOT_A_DECISION": QT_TRANSLATE_NOOP(
        "Campaigns", "%1 is not a decision: Keep, Revoke or Don't know."
    ),
    "JUSTIFICATION_TOO_LONG": QT_TRANSLATE_NOOP(
        "Campaigns", "A justification has at most %1 characters."
    ),
    "BAD_REVIEWER": QT_TRANSLATE_NOOP(
        "Campaigns", "A reviewer's name is one line of text (an e-mail address, say)."
    ),
    "BAD_IDENTITY": QT_TRANSLATE_NOOP(
        "Campaigns", "The server gave an account id or e-mail address that is not one line."
    ),
    "NO_ITEMS": QT_TRANSLATE_NOOP("Campaigns", "The campaign has no items to sign off."),
    "CLOSING_UNREADABLE": QT_TRANSLATE_NOOP("Campaigns", "The closing snapshot %1 cannot be read."),
}


def _tr(text: str) -> str:
    return QCoreApplication.translate("Campaigns", text)


def needs_words(decision: Decision, flagged: bool) -> str:
    """Why a justification is required, in words (empty: it is not)."""
    if decision is Decision.REVOKE:
        return QCoreApplication.translate("Campaigns", "A justification is required to revoke.")
    if decision is Decision.DONT_KNOW:
        return QCoreApplication.translate(
            "Campaigns", "A justification is required for Don't know."
        )
    return (
        QCoreApplication.translate(
            "Campaigns", "A justification is required to keep a flagged item."
        )
        if flagged
        else ""
    )


def reason_words(exc: CampaignError) -> str | None:
    """Why an input was refused, from the engine's reason (None: it gave none)."""
    if exc.reason == "JUSTIFICATION_REQUIRED":
        decision = Decision(exc.params[0]) if exc.params else Decision.KEEP
        return needs_words(decision, flagged=True)  # a Keep refused for this is a flagged one
    template = REASONS.get(exc.reason)
    return fill(_tr(template), *exc.params) if template is not None else None


def cause(exc: CampaignError, name: str = "", words: dict[str, str] = STEP) -> str:
    """Why the engine refused, in words (``name``: the file or item it is about; ``words``:
    the sentences of what was refused, ``STEP`` or ``DECISION``; a file's refusals and the
    steps' in any)."""
    if exc.code == "BAD_INPUT":
        said = reason_words(exc)
        if said is not None:
            return said
        # the command line's own inputs (a CSV, a split) have no reason: the engine's words
        return fill(_tr(STEP["BAD_INPUT"]), str(exc))
    template = words.get(exc.code) or NOT_OPENED.get(exc.code) or STEP.get(exc.code)
    if template is None:
        return str(exc)  # a cause this program has no sentence for: the engine's own words
    return fill(_tr(template), *((p or "—" for p in exc.params) if exc.params else (name,)))


def refusal(
    summary: str, exc: CampaignError, name: str = "", words: dict[str, str] = STEP
) -> ErrorInfo:
    """``summary`` (what did not happen), the cause and the engine's code, for the message
    bar."""
    return ErrorInfo(summary, cause(exc, name, words), code=exc.code)
