"""The "profile" panel: the signed-in account's live profile and its own invitations."""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP, fill
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.panels.task_panel import TaskPanel
from portal_admin.ui.widgets.error_line import ErrorLine
from portal_admin.ui.widgets.plain import PlainLabel

from ...error_info import describe_error
from ...permissions import tag_operation
from ..invitations.own import OwnInvitationsWidget

log = logging.getLogger(__name__)
_F = "ProfileFields"

#: The fields shown, in order: (key in the record or its extras, label source text).
FIELDS: tuple[tuple[str, str], ...] = (
    ("accountEmail", QT_TRANSLATE_NOOP("ProfileFields", "Email")),
    ("accountName", QT_TRANSLATE_NOOP("ProfileFields", "Name")),
    ("accountPortal", QT_TRANSLATE_NOOP("ProfileFields", "Portal")),
    ("accountStatus", QT_TRANSLATE_NOOP("ProfileFields", "Status")),
    ("bizId", QT_TRANSLATE_NOOP("ProfileFields", "Account id")),
    ("accountPhone", QT_TRANSLATE_NOOP("ProfileFields", "Phone")),
    ("institutionBizId", QT_TRANSLATE_NOOP("ProfileFields", "Institution id")),
    ("defaultLanguage", QT_TRANSLATE_NOOP("ProfileFields", "Language")),
    ("defaultTimezone", QT_TRANSLATE_NOOP("ProfileFields", "Time zone")),
    ("defaultCountry", QT_TRANSLATE_NOOP("ProfileFields", "Country")),
    ("workspaces", QT_TRANSLATE_NOOP("ProfileFields", "Workspaces")),
    ("roles", QT_TRANSLATE_NOOP("ProfileFields", "Roles")),
    ("mfaMethods", QT_TRANSLATE_NOOP("ProfileFields", "MFA methods")),
    ("permissionCodes", QT_TRANSLATE_NOOP("ProfileFields", "Permission codes")),
)
#: Extras never shown as such (covered by another field, or internal).
HIDDEN = {"workspaceBizId", "pendingApproval"}


def profile_values(profile: Any) -> dict[str, Any]:
    """The record's fields and extras by their wire (camelCase) names."""
    values: dict[str, Any] = dict(profile.model_dump(by_alias=True, exclude_none=True))
    values.update(profile.model_extra or {})
    return values


def field_text(key: str, value: Any, workspaces: dict[str, str] | None = None) -> str:
    """How one profile field reads (``workspaces``: names by id, for the roles)."""
    if value is None:
        return ""
    if key == "workspaces" and isinstance(value, list):
        return "\n".join(_workspace(w) for w in value)
    if key == "roles" and isinstance(value, list):
        return "\n".join(_role(r, workspaces) for r in value)
    if key == "permissionCodes" and isinstance(value, list):
        return "\n".join(str(c) for c in value)
    if isinstance(value, dict):
        return str(value.get("label") or value.get("name") or value.get("code") or value)
    if isinstance(value, list):
        return ", ".join(field_text(key, v) for v in value)
    if isinstance(value, bool):
        return (
            QCoreApplication.translate("ProfilePanel", "Yes")
            if value
            else QCoreApplication.translate("ProfilePanel", "No")
        )
    return str(value)


def _workspace(w: Any) -> str:
    if not isinstance(w, dict):
        return str(w)
    name = str(w.get("name") or w.get("bizId") or "")
    return (
        fill(QCoreApplication.translate("ProfilePanel", "%1 (primary)"), name)
        if w.get("isPrimary")
        else name
    )


def _role(r: Any, workspaces: dict[str, str] | None) -> str:
    if not isinstance(r, dict):
        return str(r)
    name = str(r.get("roleName") or r.get("bizId") or "")
    workspace = (workspaces or {}).get(str(r.get("workspaceBizId")))
    return (
        fill(QCoreApplication.translate("ProfilePanel", "%1 in %2"), name, workspace)
        if workspace
        else name
    )


def workspace_names(values: dict[str, Any]) -> dict[str, str]:
    """Workspace names by id, from the profile's ``workspaces`` extra."""
    found = values.get("workspaces")
    if not isinstance(found, list):
        return {}
    return {
        str(w["bizId"]): str(w.get("name") or w["bizId"])
        for w in found
        if isinstance(w, dict) and w.get("bizId")
    }


class ProfilePanel(TaskPanel):
    """The live profile (every field the server sends), own invitations, password change."""

    #: The person asked to change the password (also calls ``extras["change_password"]``).
    changePasswordRequested = Signal()

    def __init__(self, context: PanelContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.setObjectName("profilePanel")
        self.values: dict[str, Any] = {}
        self.details = QGroupBox(self)
        self.details.setObjectName("profileDetails")
        self.form = QFormLayout(self.details)
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.error = ErrorLine(self)
        self.error.setObjectName("profileError")
        self.refresh_button = QPushButton(self)
        self.refresh_button.setObjectName("profileRefresh")
        self.change_password_button = QPushButton(self)
        self.change_password_button.setObjectName("changePassword")
        self.change_password_button.setVisible(callable(context.extras.get("change_password")))
        tag_operation(self.change_password_button, "auth.password_change")  # kiosk: hidden
        buttons = QHBoxLayout()
        buttons.addWidget(self.refresh_button)
        buttons.addWidget(self.change_password_button)
        buttons.addStretch(1)
        top = QWidget(self)
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(6, 6, 6, 0)
        top_layout.addLayout(buttons)
        top_layout.addWidget(self.error)
        top_layout.addWidget(self.details, 1)
        self.invitations_box = QGroupBox(self)
        self.invitations_box.setObjectName("profileInvitations")
        self.invitations = OwnInvitationsWidget(context, self.invitations_box)
        box_layout = QVBoxLayout(self.invitations_box)
        box_layout.setContentsMargins(2, 2, 2, 2)
        box_layout.addWidget(self.invitations)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.addWidget(top)
        splitter.addWidget(self.invitations_box)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)
        splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)
        self.field_labels: dict[str, QLabel] = {}
        self.refresh_button.clicked.connect(self._refresh_clicked)
        self.change_password_button.clicked.connect(self.request_password_change)
        self.constants.cleared.connect(self._language_switched)
        self.retranslateUi()

    # -- loading -------------------------------------------------------------------------------

    async def reload(self) -> None:
        """Fetch the live profile, then the own invitations."""
        await asyncio.gather(self.load_profile(), self.invitations.reload())
        self.loaded = True

    async def load_profile(self) -> bool:
        """The live profile into the form; a failure is shown in the panel. True on success."""
        try:
            profile = await self.client.auth.profile()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            info = describe_error(exc)
            log.warning("profile not loaded: code=%s request_id=%s", info.code, info.request_id)
            failed = QCoreApplication.translate(
                "ProfilePanel", "The profile could not be loaded.\n%1"
            )
            self.error.show_error(replace(info, summary=fill(failed, info.summary)))
            return False
        self.error.clear_error()
        self.profile_record = profile
        self.values = profile_values(profile)
        self._fill()
        return True

    def refresh(self) -> None:
        """Fetch the profile and the own invitations again (F5, the Refresh button)."""
        self.start_reload()

    def _refresh_clicked(self) -> None:
        self.refresh()

    def _language_switched(self, _language: str) -> None:
        if self.loaded:
            self.spawn(self.load_profile())

    def _fill(self) -> None:
        while self.form.rowCount():
            self.form.removeRow(0)
        self.field_labels = {}
        known = {key for key, _ in FIELDS}
        rows: list[tuple[str, str]] = [(k, t) for k, t in FIELDS if k in self.values]
        rows += [(k, k) for k in self.values if k not in known and k not in HIDDEN]
        names = workspace_names(self.values)
        for key, title in rows:
            value = PlainLabel(field_text(key, self.values[key], names), self.details)
            value.setObjectName(f"field_{key}")
            value.setTextFormat(Qt.TextFormat.PlainText)
            value.setWordWrap(True)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            caption = PlainLabel(self.details)
            caption.setProperty("fieldKey", key)
            caption.setProperty("fieldTitle", title)
            caption.setBuddy(value)
            self.form.addRow(caption, value)
            self.field_labels[key] = value
        self._caption_texts()

    def field(self, key: str) -> str:
        """The text shown for ``key`` ("" when absent)."""
        label = self.field_labels.get(key)
        return label.text() if label is not None else ""

    def shown_keys(self) -> Iterable[str]:
        """The profile fields shown, in order."""
        return list(self.field_labels)

    # -- password ------------------------------------------------------------------------------

    def request_password_change(self) -> None:
        """Emit the signal and call the sign-in area's hook (it opens its dialog)."""
        self.changePasswordRequested.emit()
        hook = self.context.extras.get("change_password")
        if callable(hook):
            result = hook()
            if inspect.isawaitable(result):
                self.spawn(_awaited(result))

    # -- language ------------------------------------------------------------------------------

    def _caption_texts(self) -> None:
        for i in range(self.form.rowCount()):
            item = self.form.itemAt(i, QFormLayout.ItemRole.LabelRole)
            caption = item.widget() if item is not None else None
            if isinstance(caption, QLabel):
                title = str(caption.property("fieldTitle"))
                caption.setText(
                    fill(
                        QCoreApplication.translate("ProfilePanel", "%1:"),
                        QCoreApplication.translate(_F, title),
                    )
                )

    def retranslateUi(self) -> None:
        self.details.setTitle(QCoreApplication.translate("ProfilePanel", "Signed-in account"))
        self.invitations_box.setTitle(QCoreApplication.translate("ProfilePanel", "My invitations"))
        self.refresh_button.setText(QCoreApplication.translate("ProfilePanel", "Refresh"))
        self.refresh_button.setAccessibleName(
            QCoreApplication.translate("ProfilePanel", "Reload the profile")
        )
        self.change_password_button.setText(
            QCoreApplication.translate("ProfilePanel", "Change password\u2026")
        )
        self.change_password_button.setAccessibleName(
            QCoreApplication.translate("ProfilePanel", "Change password")
        )
        self.error.setAccessibleName(QCoreApplication.translate("ProfilePanel", "Error"))
        self.details.setAccessibleName(
            QCoreApplication.translate("ProfilePanel", "Profile details")
        )
        self.setAccessibleName(QCoreApplication.translate("ProfilePanel", "Profile"))
        self._caption_texts()
        if self.values:
            self._fill()


async def _awaited(result: Any) -> None:
    await result
