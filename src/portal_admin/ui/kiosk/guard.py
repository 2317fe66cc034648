"""Hiding every mutating control in kiosk mode.

A control (a widget or a ``QAction``) says which operation it starts with the dynamic property
``operationId`` (``Permissions.bind`` sets it). In kiosk mode a :class:`KioskGuard`, installed
on the application, hides every such control whose operation is mutating, whenever it would be
shown, so a panel that shows its buttons again later cannot bring one back. Controls of panels
that do not tag themselves yet are tagged from :data:`KNOWN_CONTROLS` by object name.

Hiding is the second line only: the kiosk client is read-only and refuses every mutating
operation before it is sent, whatever the UI does.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QWidget

from portal_admin.protocol.operations import OPERATIONS

from ..permissions import OPERATION_PROPERTY, tag_operation

log = logging.getLogger(__name__)

#: The dynamic property of a control that exports (hidden when the policy forbids CSV export).
EXPORT_PROPERTY = "csvExport"
#: Set on a control the guard hid (tests and the walker look for it).
CONCEALED_PROPERTY = "kioskConcealed"
_WATCHED_PROPERTY = "kioskWatched"

#: Controls of panels that do not tag themselves (yet), by object name, and what they start.
KNOWN_CONTROLS: dict[str, str] = {
    # sign-in window: password recovery and first-time setup change the password
    "forgotPasswordLink": "auth.password_forgot",
    "haveResetTokenLink": "auth.password_reset",
    "firstTimeSetupLink": "auth.password_init",
    "sendResetButton": "auth.password_forgot",
    "enterResetTokenButton": "auth.password_reset",
    "resetSubmitButton": "auth.password_reset",
    "initSubmitButton": "auth.password_init",
    # accounts
    "action-activate": "accounts.status",
    "action-suspend": "accounts.status",
    "action-deactivate": "accounts.status",
    "action-edit": "accounts.update",
    "action-reset": "accounts.password_reset",
    "editSave": "accounts.update",
    "statusConfirm": "accounts.status",
    "roleDelete": "roles.delete",
    "portalCreate": "portals.create",
    # security
    "enableWhitelist": "security.ip_whitelist_enable",
    "disableWhitelist": "security.ip_whitelist_disable",
    "newEntry": "security.ip_whitelist_set",
    "addEntry": "security.ip_whitelist_set",
    "newEntryReason": "security.ip_whitelist_set",
    "removeEntry": "security.ip_whitelist_set",
    "validity": "security.ip_whitelist_set",
    "revertWhitelist": "security.ip_whitelist_set",
    "saveWhitelist": "security.ip_whitelist_set",
    "revokeOtp": "security.otp_revoke",
    "generateCodes": "security.backup_codes_generate",
    # notifications
    "newChannelButton": "notifications.channels_create",
    "editChannelButton": "notifications.channels_update",
    "toggleChannelButton": "notifications.channels_activate",
    "deleteChannelButton": "notifications.channels_delete",
    "newTypeButton": "notifications.channel_types_create",
    "editTypeButton": "notifications.channel_types_update",
    "toggleTypeButton": "notifications.channel_types_enable",
    "deleteTypeButton": "notifications.channel_types_delete",
}

#: Panels that only change things (nothing to read): left out of the kiosk navigation.
WRITE_ONLY_PANELS = frozenset({"portals"})


tag = tag_operation


def operation_of(control: QObject) -> str | None:
    """The operation ``control`` is tagged with (from :data:`KNOWN_CONTROLS` if untagged)."""
    value = control.property(OPERATION_PROPERTY)
    if isinstance(value, str) and value:
        return value
    known = KNOWN_CONTROLS.get(control.objectName())
    if known is not None:
        control.setProperty(OPERATION_PROPERTY, known)
    return known


def is_mutating(operation_id: str) -> bool:
    """True for a mutating operation; an unknown id counts as mutating (fail closed)."""
    op = OPERATIONS.get(operation_id)
    return op is None or op.mutating


class KioskGuard(QObject):
    """Keeps mutating controls (and, if the policy says, export controls) hidden."""

    def __init__(self, *, csv_export: bool = True, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.csv_export = csv_export
        self._installed = False

    # -- installing ----------------------------------------------------------------------------

    def install(self) -> None:
        """Watch every widget of the application as it is shown."""
        app = QApplication.instance()
        if app is not None and not self._installed:
            app.installEventFilter(self)
            self._installed = True

    def remove(self) -> None:
        """Stop watching."""
        app = QApplication.instance()
        if app is not None and self._installed:
            app.removeEventFilter(self)
            self._installed = False

    # -- deciding ------------------------------------------------------------------------------

    def forbidden(self, control: QObject) -> bool:
        """True when ``control`` must not be seen in this kiosk session."""
        operation = operation_of(control)
        if operation is not None and is_mutating(operation):
            return True
        return not self.csv_export and bool(control.property(EXPORT_PROPERTY))

    def conceal(self, control: QObject) -> bool:
        """Hide ``control`` if forbidden (an action stays hidden); True when hidden."""
        if not self.forbidden(control):
            return False
        control.setProperty(CONCEALED_PROPERTY, True)
        if isinstance(control, QAction):
            self._conceal_action(control)
        elif isinstance(control, QWidget):
            control.setEnabled(False)
            control.hide()
        return True

    def _conceal_action(self, action: QAction) -> None:
        action.setVisible(False)
        action.setEnabled(False)
        if not action.property(_WATCHED_PROPERTY):  # a panel enabling it again: hide it again
            action.setProperty(_WATCHED_PROPERTY, True)
            action.changed.connect(lambda a=action: self._keep_hidden(a))

    @staticmethod
    def _keep_hidden(action: QAction) -> None:
        if action.isVisible() or action.isEnabled():
            action.setVisible(False)
            action.setEnabled(False)

    def walk(self, root: QWidget) -> list[QObject]:
        """Hide every forbidden control under ``root`` (widgets and actions); returns them."""
        mark_exports(root)
        hidden: list[QObject] = []
        controls: Iterable[QObject] = [root, *root.findChildren(QWidget)]
        for control in controls:
            if self.conceal(control):
                hidden.append(control)
        actions: list[QAction] = list(root.findChildren(QAction))
        for widget in [root, *root.findChildren(QWidget)]:
            actions += widget.actions()
        seen: set[int] = set()
        for action in actions:
            if id(action) not in seen:
                seen.add(id(action))
                if self.conceal(action):
                    hidden.append(action)
        return hidden

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Show and isinstance(watched, QWidget):
            if watched.isWindow():
                self.walk(watched)
            elif self.forbidden(watched):
                self.conceal(watched)
        return False


def mark_exports(root: QWidget) -> None:
    """Tag the export buttons of every list under ``root`` with :data:`EXPORT_PROPERTY`."""
    from portal_admin.ui.lists.paged_list import PagedList

    views = root.findChildren(PagedList)
    if isinstance(root, PagedList):
        views.append(root)
    for view in views:
        view.export_button.setProperty(EXPORT_PROPERTY, True)


class CloseRefusal(QObject):
    """Refuses every close of the windows it watches until :meth:`release` (kiosk sign-in)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._watched: list[QWidget] = []

    def watch(self, window: QWidget) -> None:
        """Refuse closes of ``window`` from now on."""
        window.installEventFilter(self)
        self._watched.append(window)

    def release(self, window: QWidget) -> None:
        """Let ``window`` close again (the program closes it itself)."""
        if window in self._watched:
            window.removeEventFilter(self)
            self._watched.remove(window)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Close:
            log.info("kiosk mode: closing %s refused", watched.objectName() or "a window")
            event.ignore()
            return True
        return False
