"""Texts about accounts: how an account is named, the status actions' words."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication

from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP, fill

CTX = "AccountsPanel"

#: Status actions in display order, with the button text and the confirm button text.
STATUS_ACTIONS: dict[str, tuple[str, str, str]] = {
    "ACTIVATE": (
        QT_TRANSLATE_NOOP("AccountsPanel", "Activate"),
        QT_TRANSLATE_NOOP("AccountsPanel", "Activate account"),
        QT_TRANSLATE_NOOP(
            "AccountsPanel", "Activate the account %1? It can sign in again afterwards."
        ),
    ),
    "SUSPEND": (
        QT_TRANSLATE_NOOP("AccountsPanel", "Suspend"),
        QT_TRANSLATE_NOOP("AccountsPanel", "Suspend account"),
        QT_TRANSLATE_NOOP(
            "AccountsPanel",
            "Suspend the account %1? It is signed out and cannot sign in until it is "
            "activated again.",
        ),
    ),
    "DEACTIVATE": (
        QT_TRANSLATE_NOOP("AccountsPanel", "Deactivate"),
        QT_TRANSLATE_NOOP("AccountsPanel", "Deactivate account"),
        QT_TRANSLATE_NOOP(
            "AccountsPanel",
            "Deactivate the account %1? It is signed out and cannot sign in until it is "
            "activated again.",
        ),
    ),
}


#: What a status action did, said as a sentence naming the account.
ACTION_DONE: dict[str, str] = {
    "ACTIVATE": QT_TRANSLATE_NOOP("AccountsPanel", "The account %1 was activated."),
    "SUSPEND": QT_TRANSLATE_NOOP("AccountsPanel", "The account %1 was suspended."),
    "DEACTIVATE": QT_TRANSLATE_NOOP("AccountsPanel", "The account %1 was deactivated."),
}


def action_done(action: str, account: Any) -> str:
    """The success line of a status action: "The account “Ann” <ann@…> was activated."."""
    template = ACTION_DONE.get(action)
    if template is None:
        return fill(
            QCoreApplication.translate(
                "AccountsPanel", "The status of the account %1 was changed."
            ),
            account_name(account),
        )
    return fill(tr(template), account_name(account))


def tr(text: str) -> str:
    """Translate in the AccountsPanel context."""
    return QCoreApplication.translate(CTX, text)


def account_name(account: Any) -> str:
    """How confirmations name an account: “Name” <email>."""
    name = getattr(account, "account_name", None) or ""
    email = getattr(account, "account_email", None) or ""
    if name and email:
        return fill(QCoreApplication.translate("AccountsPanel", "\u201c%1\u201d <%2>"), name, email)
    return name or email or str(getattr(account, "biz_id", ""))


def action_text(action: str) -> str:
    """The button text of a status action."""
    return tr(STATUS_ACTIONS[action][0])


def action_confirm(action: str) -> str:
    """The confirm button text of a status action."""
    return tr(STATUS_ACTIONS[action][1])


def action_question(action: str, account: Any) -> str:
    """The confirmation question of a status action, naming the account."""
    return fill(tr(STATUS_ACTIONS[action][2]), account_name(account))
