"""Editors of a channel's settings by category: EMAIL (SMTP, optional IMAP), SMS, WEBHOOK,
and JSON for any other category. Secrets go through :class:`SecretField` (never shown)."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from portal_admin.ui.widgets.plain import PlainLabel

from . import validation as check
from .secrets import MASK, SecretField, is_secret, without_secrets

_C = "ChannelSettings"

#: The usual port of each security mode, for SMTP and for IMAP.
DEFAULT_PORTS = {
    True: {"TLS": 465, "STARTTLS": 587, "NONE": 25},
    False: {"TLS": 993, "STARTTLS": 143, "NONE": 143},
}


class SettingsEditor(QWidget):
    """A settings editor: ``load`` what the server answered, ``config`` what to send."""

    changed = Signal()

    def load(self, config: dict[str, Any] | None) -> None:
        """Show ``config`` (secrets arrive masked; they stay out of every field)."""

    def config(self) -> dict[str, Any]:
        """The settings to send (a kept secret is sent back masked)."""
        return {}

    def problems(self) -> list[str]:
        """What is wrong with the input (translated)."""
        return []

    def retranslateUi(self) -> None:
        """Texts in the current language."""

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)


def _labelled(form: QFormLayout, parent: QWidget, field: QWidget) -> QLabel:
    label = PlainLabel(parent)
    label.setBuddy(field)
    form.addRow(label, field)
    return label


class MailServerForm(SettingsEditor):
    """Host, port 1-65535, security TLS/STARTTLS/NONE, username, password; for SMTP also the
    sender address and name."""

    def __init__(self, *, sender: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.outgoing = sender
        prefix = "smtp" if sender else "imap"
        self.host_edit = QLineEdit(self)
        self.port_spin = QSpinBox(self)
        self.port_spin.setRange(1, 65535)
        self.port_spin.setValue(DEFAULT_PORTS[sender]["STARTTLS" if sender else "TLS"])
        self.security_combo = QComboBox(self)
        for mode in check.SECURITY_MODES:
            self.security_combo.addItem(mode, mode)
        self.security_combo.setCurrentIndex(1 if sender else 0)
        self.username_edit = QLineEdit(self)
        self.password_edit = SecretField(self)
        self.from_edit = QLineEdit(self)
        self.from_name_edit = QLineEdit(self)
        for name, widget in (
            ("HostEdit", self.host_edit),
            ("PortSpin", self.port_spin),
            ("SecurityCombo", self.security_combo),
            ("UsernameEdit", self.username_edit),
            ("PasswordEdit", self.password_edit),
            ("FromAddressEdit", self.from_edit),
            ("FromNameEdit", self.from_name_edit),
        ):
            widget.setObjectName(prefix + name)
        self.form = QFormLayout(self)
        self.form.setContentsMargins(0, 0, 0, 0)
        self._labels = [
            _labelled(self.form, self, w)
            for w in (
                self.host_edit,
                self.port_spin,
                self.security_combo,
                self.username_edit,
                self.password_edit,
            )
        ]
        if sender:
            self._labels += [
                _labelled(self.form, self, self.from_edit),
                _labelled(self.form, self, self.from_name_edit),
            ]
        else:
            self.from_edit.hide()
            self.from_name_edit.hide()
        self._extra: dict[str, Any] = {}
        self._security = str(self.security_combo.currentData())
        for edit in (
            self.host_edit,
            self.username_edit,
            self.password_edit,
            self.from_edit,
            self.from_name_edit,
        ):
            edit.textChanged.connect(self.changed)
        self.port_spin.valueChanged.connect(self.changed)
        self.security_combo.currentIndexChanged.connect(self._security_changed)
        self.retranslateUi()

    def _security_changed(self) -> None:
        new = str(self.security_combo.currentData())
        ports = DEFAULT_PORTS[self.outgoing]
        if self.port_spin.value() == ports.get(self._security):
            self.port_spin.setValue(ports[new])  # still the usual port: follow the mode
        self._security = new
        self.changed.emit()

    def load(self, config: dict[str, Any] | None) -> None:
        config = dict(config or {})
        self.host_edit.setText(str(config.pop("host", "") or ""))
        port = config.pop("port", None)
        if isinstance(port, int) and 1 <= port <= 65535:
            self.port_spin.setValue(port)
        security = str(config.pop("security", "") or "").upper()
        index = self.security_combo.findData(security)
        if index >= 0:
            self._security = security
            self.security_combo.setCurrentIndex(index)
        self.username_edit.setText(str(config.pop("username", "") or ""))
        self.password_edit.set_stored(config.pop("password", None) not in (None, ""))
        if self.outgoing:
            self.from_edit.setText(str(config.pop("fromAddress", "") or ""))
            self.from_name_edit.setText(str(config.pop("fromName", "") or ""))
        config.pop("imap", None)
        self._extra = config  # settings this form does not edit are kept as they are

    def config(self) -> dict[str, Any]:
        result: dict[str, Any] = {
            **self._extra,
            "host": self.host_edit.text().strip(),
            "port": self.port_spin.value(),
            "security": self.security_combo.currentData(),
        }
        if self.username_edit.text().strip():
            result["username"] = self.username_edit.text().strip()
        password = self.password_edit.wire_value()
        if password is not None:
            result["password"] = password
        if self.outgoing:
            result["fromAddress"] = self.from_edit.text().strip()
            if self.from_name_edit.text().strip():
                result["fromName"] = self.from_name_edit.text().strip()
        return result

    def check_arguments(self) -> dict[str, Any]:
        """The keyword arguments of ``validate_smtp``/``validate_imap`` for this form."""
        settings = self.config()
        for key in list(settings):
            if key not in {"host", "port", "security", "username", "password", "fromAddress"}:
                del settings[key]
        if "fromAddress" in settings:
            settings["from_address"] = settings.pop("fromAddress")
        return settings

    def problems(self) -> list[str]:
        found = check.host(
            QCoreApplication.translate("ChannelSettings", "Host"), self.host_edit.text()
        )
        found += check.optional(
            QCoreApplication.translate("ChannelSettings", "Username"),
            self.username_edit.text(),
            254,
        )
        if len(self.password_edit.text()) > 256:
            found += check.optional(
                QCoreApplication.translate("ChannelSettings", "Password"),
                self.password_edit.text(),
                256,
            )
        if self.outgoing:
            found += check.email(
                QCoreApplication.translate("ChannelSettings", "From address"),
                self.from_edit.text(),
                needed=True,
            )
            found += check.optional(
                QCoreApplication.translate("ChannelSettings", "From name"),
                self.from_name_edit.text(),
                100,
            )
        return found

    def retranslateUi(self) -> None:
        texts = [
            (
                QCoreApplication.translate("ChannelSettings", "&Host:"),
                QCoreApplication.translate("ChannelSettings", "Host"),
            ),
            (
                QCoreApplication.translate("ChannelSettings", "&Port:"),
                QCoreApplication.translate("ChannelSettings", "Port"),
            ),
            (
                QCoreApplication.translate("ChannelSettings", "&Security:"),
                QCoreApplication.translate("ChannelSettings", "Security"),
            ),
            (
                QCoreApplication.translate("ChannelSettings", "&Username:"),
                QCoreApplication.translate("ChannelSettings", "Username"),
            ),
            (
                QCoreApplication.translate("ChannelSettings", "Pass&word:"),
                QCoreApplication.translate("ChannelSettings", "Password"),
            ),
            (
                QCoreApplication.translate("ChannelSettings", "&From address:"),
                QCoreApplication.translate("ChannelSettings", "From address"),
            ),
            (
                QCoreApplication.translate("ChannelSettings", "From &name:"),
                QCoreApplication.translate("ChannelSettings", "From name"),
            ),
        ]
        kind = (
            QCoreApplication.translate("ChannelSettings", "SMTP")
            if self.outgoing
            else QCoreApplication.translate("ChannelSettings", "IMAP")
        )
        for label, (text, name) in zip(self._labels, texts, strict=False):
            label.setText(text)
            buddy = label.buddy()
            if buddy is not None:
                buddy.setAccessibleName(f"{kind} {name}")
        self.host_edit.setPlaceholderText(
            "smtp.example.com" if self.outgoing else "imap.example.com"
        )
        names = {
            "TLS": QCoreApplication.translate("ChannelSettings", "TLS (encrypted from the start)"),
            "STARTTLS": QCoreApplication.translate(
                "ChannelSettings", "STARTTLS (upgrade to encryption)"
            ),
            "NONE": QCoreApplication.translate("ChannelSettings", "None (unencrypted)"),
        }
        for i in range(self.security_combo.count()):
            self.security_combo.setItemText(i, names[str(self.security_combo.itemData(i))])
        self.from_edit.setPlaceholderText("no-reply@example.com")
        self.password_edit.retranslateUi()


class EmailSettings(SettingsEditor):
    """SMTP for sending, and optionally IMAP for reading replies."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.smtp = MailServerForm(sender=True, parent=self)
        self.imap = MailServerForm(sender=False, parent=self)
        self.smtp_group = QGroupBox(self)
        self.smtp_group.setObjectName("smtpGroup")
        QVBoxLayout(self.smtp_group).addWidget(self.smtp)
        self.imap_group = QGroupBox(self)
        self.imap_group.setObjectName("imapGroup")
        self.imap_group.setCheckable(True)
        self.imap_group.setChecked(False)
        QVBoxLayout(self.imap_group).addWidget(self.imap)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.smtp_group)
        layout.addWidget(self.imap_group)
        layout.addStretch(1)
        self.smtp.changed.connect(self.changed)
        self.imap.changed.connect(self.changed)
        self.imap_group.toggled.connect(self.changed)
        self.retranslateUi()

    @property
    def uses_imap(self) -> bool:
        """True when IMAP settings are part of the channel."""
        return self.imap_group.isChecked()

    def load(self, config: dict[str, Any] | None) -> None:
        config = config or {}
        self.smtp.load(config)
        imap = config.get("imap")
        self.imap_group.setChecked(isinstance(imap, dict))
        self.imap.load(imap if isinstance(imap, dict) else None)

    def config(self) -> dict[str, Any]:
        result = self.smtp.config()
        if self.uses_imap:
            result["imap"] = self.imap.config()
        return result

    def problems(self) -> list[str]:
        found = self.smtp.problems()
        if self.uses_imap:
            found += [f"IMAP: {p}" for p in self.imap.problems()]
        return found

    def retranslateUi(self) -> None:
        self.smtp_group.setTitle(
            QCoreApplication.translate("ChannelSettings", "Outgoing mail (SMTP)")
        )
        self.imap_group.setTitle(
            QCoreApplication.translate("ChannelSettings", "Incoming mail (IMAP)")
        )
        self.imap_group.setAccessibleName(
            QCoreApplication.translate("ChannelSettings", "Use incoming mail (IMAP)")
        )


class SmsSettings(SettingsEditor):
    """SMS provider, API key (a secret) and sender id."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.provider_edit = QLineEdit(self)
        self.provider_edit.setObjectName("smsProviderEdit")
        self.key_edit = SecretField(self)
        self.key_edit.setObjectName("smsApiKeyEdit")
        self.outgoing_edit = QLineEdit(self)
        self.outgoing_edit.setObjectName("smsSenderIdEdit")
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        self._labels = [
            _labelled(form, self, w)
            for w in (self.provider_edit, self.key_edit, self.outgoing_edit)
        ]
        self._extra: dict[str, Any] = {}
        for edit in (self.provider_edit, self.key_edit, self.outgoing_edit):
            edit.textChanged.connect(self.changed)
        self.retranslateUi()

    def load(self, config: dict[str, Any] | None) -> None:
        config = dict(config or {})
        self.provider_edit.setText(str(config.pop("provider", "") or ""))
        self.key_edit.set_stored(config.pop("apiKey", None) not in (None, ""))
        self.outgoing_edit.setText(str(config.pop("senderId", "") or ""))
        self._extra = config

    def config(self) -> dict[str, Any]:
        result = {**self._extra, "provider": self.provider_edit.text().strip()}
        key = self.key_edit.wire_value()
        if key is not None:
            result["apiKey"] = key
        if self.outgoing_edit.text().strip():
            result["senderId"] = self.outgoing_edit.text().strip()
        return result

    def problems(self) -> list[str]:
        found = check.required(
            QCoreApplication.translate("ChannelSettings", "Provider"), self.provider_edit.text(), 64
        )
        if self.key_edit.wire_value() is None:
            found += check.required(
                QCoreApplication.translate("ChannelSettings", "API key"), "", 256
            )
        found += check.optional(
            QCoreApplication.translate("ChannelSettings", "Sender id"),
            self.outgoing_edit.text(),
            32,
        )
        return found

    def retranslateUi(self) -> None:
        for label, text, name in zip(
            self._labels,
            (
                QCoreApplication.translate("ChannelSettings", "&Provider:"),
                QCoreApplication.translate("ChannelSettings", "API &key:"),
                QCoreApplication.translate("ChannelSettings", "Sender &id:"),
            ),
            (
                QCoreApplication.translate("ChannelSettings", "Provider"),
                QCoreApplication.translate("ChannelSettings", "API key"),
                QCoreApplication.translate("ChannelSettings", "Sender id"),
            ),
            strict=True,
        ):
            label.setText(text)
            buddy = label.buddy()
            if buddy is not None:
                buddy.setAccessibleName(name)
        self.key_edit.retranslateUi()


class WebhookSettings(SettingsEditor):
    """Endpoint URL and an optional signing secret."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.url_edit = QLineEdit(self)
        self.url_edit.setObjectName("webhookUrlEdit")
        self.secret_edit = SecretField(self)
        self.secret_edit.setObjectName("webhookSecretEdit")
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        self._labels = [_labelled(form, self, w) for w in (self.url_edit, self.secret_edit)]
        self._extra: dict[str, Any] = {}
        self.url_edit.textChanged.connect(self.changed)
        self.secret_edit.textChanged.connect(self.changed)
        self.retranslateUi()

    def load(self, config: dict[str, Any] | None) -> None:
        config = dict(config or {})
        self.url_edit.setText(str(config.pop("url", "") or ""))
        self.secret_edit.set_stored(config.pop("secret", None) not in (None, ""))
        self._extra = config

    def config(self) -> dict[str, Any]:
        result = {**self._extra, "url": self.url_edit.text().strip()}
        secret = self.secret_edit.wire_value()
        if secret is not None:
            result["secret"] = secret
        return result

    def problems(self) -> list[str]:
        return check.url(
            QCoreApplication.translate("ChannelSettings", "URL"),
            self.url_edit.text(),
            needed=True,
            limit=2000,
        )

    def retranslateUi(self) -> None:
        for label, text, name in zip(
            self._labels,
            (
                QCoreApplication.translate("ChannelSettings", "&URL:"),
                QCoreApplication.translate("ChannelSettings", "Signing &secret:"),
            ),
            (
                QCoreApplication.translate("ChannelSettings", "URL"),
                QCoreApplication.translate("ChannelSettings", "Signing secret"),
            ),
            strict=True,
        ):
            label.setText(text)
            buddy = label.buddy()
            if buddy is not None:
                buddy.setAccessibleName(name)
        self.url_edit.setPlaceholderText("https://")
        self.secret_edit.retranslateUi()


class JsonSettings(SettingsEditor):
    """Settings of any other category as a JSON object; stored secrets stay masked."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.edit = QPlainTextEdit(self)
        self.edit.setObjectName("settingsJsonEdit")
        self.edit.setTabChangesFocus(True)
        self.edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.hint = PlainLabel(self)
        self.hint.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.edit)
        layout.addWidget(self.hint)
        self.edit.textChanged.connect(self.changed)
        self.retranslateUi()

    def load(self, config: dict[str, Any] | None) -> None:
        masked = without_secrets(config or {})
        self.edit.setPlainText(json.dumps(masked, indent=2, ensure_ascii=False) if masked else "")

    def config(self) -> dict[str, Any]:
        value, _ = check.json_object("", self.edit.toPlainText())
        return value or {}

    def problems(self) -> list[str]:
        return check.json_object(
            QCoreApplication.translate("ChannelSettings", "Settings"), self.edit.toPlainText()
        )[1]

    def retranslateUi(self) -> None:
        self.edit.setAccessibleName(
            QCoreApplication.translate("ChannelSettings", "Settings (JSON)")
        )
        self.edit.setPlaceholderText("{}")
        self.hint.setText(
            QCoreApplication.translate(
                "ChannelSettings", "Stored secrets show as %1; leave them so to keep them."
            ).replace("%1", MASK)
        )


def editor_for(category: str | None, parent: QWidget | None = None) -> SettingsEditor:
    """The settings editor of a channel category (a type code)."""
    if category == "EMAIL":
        return EmailSettings(parent)
    if category == "SMS":
        return SmsSettings(parent)
    if category == "WEBHOOK":
        return WebhookSettings(parent)
    return JsonSettings(parent)


__all__ = ["MASK", "EmailSettings", "MailServerForm", "SettingsEditor", "editor_for", "is_secret"]
