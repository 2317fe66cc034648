"""What the main window offers in its command palette: the panels, the window's commands
that are available now, the languages, the saved views and the accounts opened before; and
the account look-up as the person types."""

from __future__ import annotations

from functools import partial
from typing import Any, Protocol

from PySide6.QtCore import QCoreApplication, QLocale
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QWidget

from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP, fill
from portal_admin.ui.i18n.translators import LANGUAGES
from portal_admin.ui.mainwindow.command_palette import Entry, find_accounts
from portal_admin.ui.panels.registry import PanelContext, PanelSpec

# The window's commands the palette offers (the action's attribute, its palette title).
PALETTE_COMMANDS = (
    ("refresh_action", QT_TRANSLATE_NOOP("Palette", "Refresh the current panel")),
    ("lock_action", QT_TRANSLATE_NOOP("Palette", "Lock the window")),
    ("change_password_action", QT_TRANSLATE_NOOP("Palette", "Change my password")),
    ("logout_action", QT_TRANSLATE_NOOP("Palette", "Sign out")),
    ("about_action", QT_TRANSLATE_NOOP("Palette", "About this program")),
    ("quit_action", QT_TRANSLATE_NOOP("Palette", "Quit")),
)
# Accounts the palette remembers having opened.
RECENT_ACCOUNTS = 8


class PaletteHost(Protocol):
    """What the palette's entries use of the main window (and its actions, by name)."""

    context: PanelContext
    recent_accounts: list[Any]
    language_actions: dict[str, QAction]

    @property
    def specs(self) -> list[PanelSpec]: ...

    def show_panel(self, panel_id: str) -> QWidget | None: ...

    def show_saved_view(self, key: str, name: str) -> None: ...

    def open_account(self, account: Any) -> None: ...


def palette_entries(host: PaletteHost) -> list[Entry]:
    """What the palette offers: the panels, the window's commands that are available now,
    the languages, the saved views, and the accounts opened from it before."""
    entries = [
        Entry("panel", spec.display_title(), spec.title, partial(host.show_panel, spec.id))
        for spec in host.specs
    ]
    for name, source in PALETTE_COMMANDS:
        action: QAction = getattr(host, name)
        if action.isEnabled() and action.isVisible():
            title = QCoreApplication.translate("Palette", source)
            entries.append(Entry("command", title, source, action.trigger))
    for language in LANGUAGES.values():
        action = host.language_actions[language.code]
        english = QLocale.languageToString(language.locale.language())
        title = fill(QCoreApplication.translate("Palette", "Language: %1"), action.text())
        english_title = f"Language: {english} ({language.code})"
        entries.append(Entry("command", title, english_title, action.trigger))
    entries.extend(saved_view_entries(host))
    for account in host.recent_accounts:
        entries.append(account_entry(host, account))
    return entries


def saved_view_entries(host: PaletteHost) -> list[Entry]:
    """The saved views of every list, each opening its panel and showing the view."""
    store = host.context.extras.get("saved_views")
    if store is None:
        return []
    titles = {spec.id: spec.display_title() for spec in host.specs}
    entries = []
    for key, name in store.all_views():
        panel_id = key.split("/", 1)[0]
        if panel_id in titles:
            title = fill(QCoreApplication.translate("Palette", "View: %1"), name)
            run = partial(host.show_saved_view, key, name)
            entries.append(Entry("view", title, f"View: {name}", run, titles[panel_id]))
    return entries


def account_entry(host: PaletteHost, account: Any) -> Entry:
    """An account as the palette lists it; choosing it opens the account."""
    name = account.account_name or account.biz_id
    detail = " · ".join(t for t in (account.account_email, account.biz_id) if t)
    return Entry("account", name, name, partial(host.open_account, account), detail)


async def lookup_accounts(host: PaletteHost, text: str) -> list[Entry]:
    """The accounts the server finds for ``text`` (e-mail, name or id), as entries."""
    accounts = await find_accounts(host.context.client, text)
    return [account_entry(host, a) for a in accounts]
