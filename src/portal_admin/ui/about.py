"""Help > About: the program's version and the Qt and Python it runs on."""

from __future__ import annotations

import platform

import PySide6
from PySide6.QtCore import QCoreApplication, QEvent, Qt, qVersion
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from portal_admin import __version__

from .text import fill


def versions() -> dict[str, str]:
    """The versions the About dialog shows (and ``--self-check`` prints)."""
    return {
        "portal-admin": __version__,
        "Qt": qVersion(),
        "PySide6": PySide6.__version__,
        "Python": platform.python_version(),
    }


class AboutDialog(QDialog):
    """A small non-modal dialog; open it with ``open()``."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("aboutDialog")
        self.title = QLabel(self)
        self.title.setStyleSheet("font-size: 15pt; font-weight: bold;")
        self.version = QLabel(self)
        self.version.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.runtime = QLabel(self)
        self.runtime.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.blurb = QLabel(self)
        self.blurb.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        for widget in (self.title, self.version, self.blurb, self.runtime):
            layout.addWidget(widget)
        layout.addSpacing(8)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(420)
        self.retranslateUi()

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        v = versions()
        self.setWindowTitle(QCoreApplication.translate("AboutDialog", "About System Portal Admin"))
        self.title.setText(QCoreApplication.translate("AboutDialog", "System Portal Admin"))
        self.version.setText(
            fill(QCoreApplication.translate("AboutDialog", "Version %1"), v["portal-admin"])
        )
        self.blurb.setText(
            QCoreApplication.translate(
                "AboutDialog",
                "Desktop administration for the System Portal, with a built-in sandbox server.",
            )
        )
        self.runtime.setText(
            fill(
                QCoreApplication.translate("AboutDialog", "Qt %1 (PySide6 %2), Python %3"),
                v["Qt"],
                v["PySide6"],
                v["Python"],
            )
        )
        self.version.setAccessibleName(QCoreApplication.translate("AboutDialog", "Version"))
        self.runtime.setAccessibleName(
            QCoreApplication.translate("AboutDialog", "Qt and Python versions")
        )

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)
