"""Secrets in channel settings: recognised by key, never shown, sent back masked to keep them.

The server answers every stored secret as ``********``; an update that sends the mask back
keeps the stored value. The program never puts a secret into a visible text or a log.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QLineEdit, QWidget

MASK = "********"
_SECRET_KEYS = frozenset(
    {"password", "secret", "apikey", "token", "accesstoken", "privatekey", "clientsecret"}
)


def is_secret(key: str) -> bool:
    """True for settings keys that hold secrets (password, apiKey, secret, token...)."""
    return key.replace("_", "").replace("-", "").lower() in _SECRET_KEYS


def without_secrets(value: Any) -> Any:
    """A copy of settings with every secret value replaced by the mask (or None if empty)."""
    if isinstance(value, dict):
        return {
            k: ((MASK if v not in (None, "") else None) if is_secret(k) else without_secrets(v))
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [without_secrets(v) for v in value]
    return value


class SecretField(QLineEdit):
    """A password entry; on update an empty field means "leave the stored secret unchanged"."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setEchoMode(QLineEdit.EchoMode.Password)
        self._stored = False
        self.retranslateUi()

    @property
    def stored(self) -> bool:
        """True when the server holds a secret for this field."""
        return self._stored

    def set_stored(self, stored: bool) -> None:
        """Whether the server holds a secret (it answered the mask); the field stays empty."""
        self._stored = stored
        self.clear()
        self.retranslateUi()

    def wire_value(self) -> str | None:
        """What to send: the typed secret, the mask to keep a stored one, or None."""
        if self.text():
            return self.text()
        return MASK if self._stored else None

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.setPlaceholderText(
            QCoreApplication.translate("SecretField", "Unchanged (type to replace)")
            if self._stored
            else ""
        )
