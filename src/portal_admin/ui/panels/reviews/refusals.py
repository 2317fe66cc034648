"""What the campaign engine refused, in the reader's language: each ``CampaignError`` code
has a sentence of its own (``%1``: the file's or the item's name), so a refusal names its
real cause; a code this program does not know yet is shown with the engine's own words,
never as "damaged"."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from portal_admin.reviews import CampaignError
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
}


def _tr(text: str) -> str:
    return QCoreApplication.translate("Campaigns", text)


def cause(exc: CampaignError, name: str = "", words: dict[str, str] = STEP) -> str:
    """Why the engine refused, in words (``name``: the file or item it is about; ``words``:
    the sentences of what was refused, ``STEP`` or ``DECISION``; a file's refusals in any)."""
    template = words.get(exc.code) or NOT_OPENED.get(exc.code)
    if template is None:
        return str(exc)  # a cause this program has no sentence for: the engine's own words
    if exc.code == "BAD_INPUT":
        return fill(_tr(template), str(exc))
    return fill(_tr(template), name)


def refusal(
    summary: str, exc: CampaignError, name: str = "", words: dict[str, str] = STEP
) -> ErrorInfo:
    """``summary`` (what did not happen), the cause and the engine's code, for the message
    bar."""
    return ErrorInfo(summary, cause(exc, name, words), code=exc.code)
