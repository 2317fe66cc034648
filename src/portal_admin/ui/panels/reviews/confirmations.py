"""The Campaigns panel's questions before a step that cannot be undone: signing off (naming
the items still undecided and what becomes of them) and closing (naming the signed-off
Revokes not carried out, which closing leaves for good). Each says what will happen in the
reader's language, shows the file's text as written (plain text), and has Cancel as its
default (Enter or Escape never confirms by accident). No nested event loop."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QWidget

from portal_admin.ui.i18n.text import fill
from portal_admin.ui.widgets.confirm import build_confirm_box
from portal_admin.ui.widgets.dialogs import ask

from .plain import plain


def sign_off_box(parent: QWidget, campaign: str, undecided: int) -> tuple[QMessageBox, QWidget]:
    """The question before signing off ``campaign`` (its title) with ``undecided`` items not
    decided yet, and its confirm button."""
    if undecided:
        text = QCoreApplication.translate(
            "CampaignConfirm", "Items still undecided: %n. Sign off anyway?", None, undecided
        )
        more = QCoreApplication.translate(
            "CampaignConfirm",
            "Signing off freezes the file: the undecided items stay undecided for good, shown"
            " as not reviewed in the evidence pack, and no one can decide them in this file."
            " Every decision made is frozen as it is.",
        )
        button = QCoreApplication.translate(
            "CampaignConfirm", "Sign off with %n undecided", None, undecided
        )
    else:
        text = QCoreApplication.translate("CampaignConfirm", "Every item is decided. Sign off?")
        more = QCoreApplication.translate(
            "CampaignConfirm",
            "Signing off freezes every decision of the file as it is: no one can change them"
            " in this file afterwards.",
        )
        button = QCoreApplication.translate("CampaignConfirm", "Sign off")
    box, confirm = build_confirm_box(
        parent,
        title=fill(QCoreApplication.translate("CampaignConfirm", "Sign off “%1”"), campaign),
        text=text,
        confirm_text=button,
        destructive=bool(undecided),
    )
    box.setObjectName("campaignSignOffConfirm")
    box.setInformativeText(more)
    plain(box)
    return box, confirm


def close_box(parent: QWidget, campaign: str, not_done: int) -> tuple[QMessageBox, QWidget]:
    """The question before closing ``campaign`` (its title) with ``not_done`` signed-off
    Revokes not carried out, and its confirm button."""
    if not_done:
        text = QCoreApplication.translate(
            "CampaignConfirm",
            "Signed-off Revokes not carried out: %n. Close the campaign anyway?",
            None,
            not_done,
        )
        button = QCoreApplication.translate(
            "CampaignConfirm", "Close with %n not carried out", None, not_done
        )
    else:
        text = QCoreApplication.translate("CampaignConfirm", "Close the campaign?")
        button = QCoreApplication.translate("CampaignConfirm", "Close the campaign")
    more = QCoreApplication.translate(
        "CampaignConfirm",
        "Closing takes a snapshot of the server, checks every decision against it and makes"
        " every decision final. Remediation is no longer possible from this campaign: a"
        " Revoke not carried out by then stays not done, and the closing check says so.",
    )
    box, confirm = build_confirm_box(
        parent,
        title=fill(QCoreApplication.translate("CampaignConfirm", "Close “%1”"), campaign),
        text=text,
        confirm_text=button,
        destructive=True,
    )
    box.setObjectName("campaignCloseConfirm")
    box.setInformativeText(more)
    plain(box)
    return box, confirm


async def answer(box: QMessageBox, confirm: QWidget) -> bool:
    """Show ``box`` (window-modal); True when the person clicked ``confirm``."""
    try:
        await ask(box)
        return box.clickedButton() is confirm
    finally:
        box.deleteLater()
