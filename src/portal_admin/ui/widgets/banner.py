"""The environment banner: a coloured strip naming the kind of server (red PRODUCTION)."""

from __future__ import annotations

from urllib.parse import urlsplit

from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from portal_admin.ui.profiles.store import EnvironmentType, Profile, environment_label
from portal_admin.ui.widgets.plain import plain_tooltip


class EnvironmentBanner(QLabel):
    """Shows the environment type, the profile name and host, and read-only mode."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._profile: Profile | None = None
        self._read_only = False
        self.setObjectName("environmentBanner")
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setMinimumHeight(28)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setVisible(False)

    def set_profile(self, profile: Profile | None, *, read_only: bool = False) -> None:
        """Show ``profile``'s environment (hidden when None)."""
        self._profile = profile
        self._read_only = read_only
        self.retranslateUi()

    @property
    def environment(self) -> EnvironmentType | None:
        """The environment shown, if any."""
        return self._profile.environment if self._profile else None

    def retranslateUi(self) -> None:
        """Rebuild the text in the current language."""
        profile = self._profile
        self.setVisible(profile is not None)
        if profile is None:
            return
        env = profile.environment
        host = (
            QCoreApplication.translate("EnvironmentBanner", "built-in")
            if profile.is_sandbox
            else urlsplit(profile.base_url).netloc
        )
        parts = [environment_label(env), profile.name, host]
        if self._read_only:
            parts.append(QCoreApplication.translate("EnvironmentBanner", "READ-ONLY"))
        text = "  \u2022  ".join(p for p in parts if p)
        self.setText(text)
        self.setStyleSheet(
            f"QLabel#environmentBanner {{ background: {env.colour}; color: white;"
            " font-weight: bold; padding: 4px 12px; }"
        )
        self.setAccessibleName(QCoreApplication.translate("EnvironmentBanner", "Environment"))
        self.setAccessibleDescription(text)
        self.setToolTip(plain_tooltip(profile.base_url))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)
