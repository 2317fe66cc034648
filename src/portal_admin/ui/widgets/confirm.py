"""Confirmation before changes; every change on a production profile is confirmed."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QWidget

from portal_admin.ui.i18n.text import fill
from portal_admin.ui.profiles.store import Profile, environment_label
from portal_admin.ui.widgets.plain import PlainMessageBox

from .dialogs import ask


def build_confirm_box(
    parent: QWidget | None,
    *,
    title: str,
    text: str,
    confirm_text: str,
    profile: Profile | None = None,
    destructive: bool = False,
) -> tuple[QMessageBox, QWidget]:
    """The dialog and its confirm button (Cancel is the default and Escape button)."""
    box = PlainMessageBox(parent)
    box.setWindowTitle(title)
    box.setText(text)
    production = profile is not None and profile.environment.needs_confirmation
    if production and profile is not None:
        box.setInformativeText(
            fill(
                QCoreApplication.translate("Confirm", "This changes the %1 server \u201c%2\u201d."),
                environment_label(profile.environment),
                profile.name,
            )
        )
    box.setIcon(
        QMessageBox.Icon.Warning if production or destructive else QMessageBox.Icon.Question
    )
    confirm = box.addButton(confirm_text, QMessageBox.ButtonRole.AcceptRole)
    cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(cancel)
    box.setEscapeButton(cancel)
    confirm.setAccessibleName(confirm_text)
    cancel.setAccessibleName(QCoreApplication.translate("Confirm", "Cancel"))
    return box, confirm


async def confirm(
    parent: QWidget | None,
    *,
    title: str,
    text: str,
    confirm_text: str,
    profile: Profile | None = None,
    destructive: bool = False,
) -> bool:
    """Ask before a change; True when the person confirmed. No nested event loop."""
    box, confirm_button = build_confirm_box(
        parent,
        title=title,
        text=text,
        confirm_text=confirm_text,
        profile=profile,
        destructive=destructive,
    )
    try:
        await ask(box)
        return box.clickedButton() is confirm_button
    finally:
        box.deleteLater()


async def confirm_production_change(
    parent: QWidget | None, profile: Profile | None, action: str
) -> bool:
    """True at once off production; on production, asks about ``action`` first."""
    if profile is None or not profile.environment.needs_confirmation:
        return True
    return await confirm(
        parent,
        title=QCoreApplication.translate("Confirm", "Confirm change on production"),
        text=action,
        confirm_text=QCoreApplication.translate("Confirm", "Apply change"),
        profile=profile,
    )
