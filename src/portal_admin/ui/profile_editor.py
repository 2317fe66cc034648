"""The connection profile editor (non-modal: ``open()``, results through signals)."""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from .doctor_service import TransportFactory, builtin_sandbox_transport
from .i18n import LANGUAGES
from .icons import icon
from .profiles import EnvironmentType, Profile, environment_label, validate
from .theme import set_tone


class ProfileEditor(QDialog):
    """Edits one profile; emits ``profileSaved`` with the result when it is valid."""

    profileSaved = Signal(object)

    def __init__(
        self,
        profile: Profile | None = None,
        others: list[Profile] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("profileEditor")
        self._original = profile
        self._others = [p for p in others or [] if profile is None or p.name != profile.name]
        p = profile or Profile(name="", base_url="https://")

        self.name = QLineEdit(p.name, self)
        self.base_url = QLineEdit(p.base_url, self)
        self.access_code = QLineEdit(p.portal_access_code, self)
        self.access_code.setEchoMode(QLineEdit.EchoMode.PasswordEchoOnEdit)
        self.workspace = QLineEdit(p.workspace_id, self)
        self.language = QComboBox(self)
        self.language.addItem("", None)
        for lang in LANGUAGES.values():
            self.language.addItem(lang.native_name, lang.code)
        self.language.setCurrentIndex(max(0, self.language.findData(p.language)))
        self.environment = QComboBox(self)
        for env in EnvironmentType:
            self.environment.addItem("", env.value)
        self.environment.setCurrentIndex(self.environment.findData(p.environment.value))
        self.ca_bundle = QLineEdit(p.ca_bundle or "", self)
        self.ca_browse = QPushButton(self)
        self.ca_browse.clicked.connect(self._browse_ca)
        self.plain_http = QCheckBox(self)
        self.plain_http.setChecked(p.allow_plain_http)
        self.legacy_padding = QCheckBox(self)
        self.legacy_padding.setChecked(p.allow_legacy_padding)
        self.idle_minutes = QSpinBox(self)
        self.idle_minutes.setRange(0, 24 * 60)
        self.idle_minutes.setValue(p.idle_lock_minutes)
        self.kiosk = QCheckBox(self)
        self.kiosk.setChecked(p.kiosk)
        self.problems = QLabel(self)
        self.problems.setObjectName("problems")
        self.problems.setWordWrap(True)
        self.problems.setTextFormat(Qt.TextFormat.PlainText)
        set_tone(self.problems, "error")
        self.problems.hide()

        ca_row = QHBoxLayout()
        ca_row.addWidget(self.ca_bundle, 1)
        ca_row.addWidget(self.ca_browse)
        self.form = QFormLayout()
        self._labels: dict[str, QLabel] = {}
        for key, field in (
            ("name", self.name),
            ("base_url", self.base_url),
            ("access_code", self.access_code),
            ("workspace", self.workspace),
            ("language", self.language),
            ("environment", self.environment),
            ("ca_bundle", ca_row),
            ("plain_http", self.plain_http),
            ("legacy_padding", self.legacy_padding),
            ("idle", self.idle_minutes),
            ("kiosk", self.kiosk),
        ):
            label = QLabel(self)
            self._labels[key] = label
            self.form.addRow(label, field)
            if isinstance(field, QWidget):
                label.setBuddy(field)
        self._labels["ca_bundle"].setBuddy(self.ca_bundle)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        self.test_button = QPushButton(icon("action.test-connection"), "", self)
        self.test_button.setObjectName("testConnection")
        self.test_button.setAutoDefault(False)
        self.buttons.addButton(self.test_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.test_button.clicked.connect(self.test_connection)
        #: Makes the in-process transport the built-in sandbox is tested over.
        self.sandbox_transport: TransportFactory = builtin_sandbox_transport
        self.doctor: QDialog | None = None
        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addWidget(self.problems)
        layout.addWidget(self.buttons)
        self._file_dialog: QFileDialog | None = None
        self.setMinimumWidth(520)
        if p.builtin:
            for w in (self.name, self.base_url, self.environment):
                w.setEnabled(False)
        self.retranslateUi()

    def profile(self) -> Profile:
        """The profile as edited (not validated)."""
        ca = self.ca_bundle.text().strip()
        return Profile(
            name=self.name.text().strip(),
            base_url=self.base_url.text().strip(),
            portal_access_code=self.access_code.text().strip(),
            language=self.language.currentData(),
            workspace_id=self.workspace.text().strip(),
            ca_bundle=ca or None,
            allow_plain_http=self.plain_http.isChecked(),
            allow_legacy_padding=self.legacy_padding.isChecked(),
            environment=EnvironmentType(self.environment.currentData()),
            idle_lock_minutes=self.idle_minutes.value(),
            kiosk=self.kiosk.isChecked(),
            builtin=bool(self._original and self._original.builtin),
        )

    def save(self) -> None:
        """Validate; emit ``profileSaved`` and close, or show what is wrong."""
        profile = self.profile()
        problems = validate(profile, self._others)
        if problems:
            self.problems.setText("\n".join(problems))
            self.problems.show()
            return
        self.problems.hide()
        self.profileSaved.emit(profile)
        self.accept()

    def test_connection(self) -> QDialog:
        """Open "Test connection" for the profile as typed (nothing is saved or signed in)."""
        from .doctor_dialog import DoctorDialog

        if self.doctor is not None and shiboken6.isValid(self.doctor):
            self.doctor.close()
        dialog = DoctorDialog(self.profile(), self, sandbox=self.sandbox_transport)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.doctor = dialog
        dialog.open()
        return dialog

    def _browse_ca(self) -> None:
        dialog = QFileDialog(
            self, QCoreApplication.translate("ProfileEditor", "CA bundle"), self.ca_bundle.text()
        )
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.setNameFilter(
            QCoreApplication.translate(
                "ProfileEditor", "Certificates (*.pem *.crt *.cer);;All files (*)"
            )
        )
        dialog.fileSelected.connect(self.ca_bundle.setText)
        self._file_dialog = dialog
        dialog.open()

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.setWindowTitle(QCoreApplication.translate("ProfileEditor", "Connection profile"))
        texts = {
            "name": (
                QCoreApplication.translate("ProfileEditor", "&Name:"),
                QCoreApplication.translate("ProfileEditor", "Profile name"),
            ),
            "base_url": (
                QCoreApplication.translate("ProfileEditor", "&Base URL:"),
                QCoreApplication.translate("ProfileEditor", "Base URL"),
            ),
            "access_code": (
                QCoreApplication.translate("ProfileEditor", "Portal &access code:"),
                QCoreApplication.translate("ProfileEditor", "Portal access code"),
            ),
            "workspace": (
                QCoreApplication.translate("ProfileEditor", "&Workspace id:"),
                QCoreApplication.translate("ProfileEditor", "Workspace id"),
            ),
            "language": (
                QCoreApplication.translate("ProfileEditor", "&Language:"),
                QCoreApplication.translate("ProfileEditor", "Language"),
            ),
            "environment": (
                QCoreApplication.translate("ProfileEditor", "&Environment:"),
                QCoreApplication.translate("ProfileEditor", "Environment"),
            ),
            "ca_bundle": (
                QCoreApplication.translate("ProfileEditor", "&CA bundle:"),
                QCoreApplication.translate("ProfileEditor", "CA bundle file"),
            ),
            "plain_http": (
                QCoreApplication.translate("ProfileEditor", "Plain http:"),
                QCoreApplication.translate("ProfileEditor", "Allow plain http to other hosts"),
            ),
            "legacy_padding": (
                QCoreApplication.translate("ProfileEditor", "Secure Channel:"),
                QCoreApplication.translate("ProfileEditor", "Allow legacy padding"),
            ),
            "idle": (
                QCoreApplication.translate("ProfileEditor", "&Idle lock:"),
                QCoreApplication.translate("ProfileEditor", "Idle lock minutes"),
            ),
            "kiosk": (
                QCoreApplication.translate("ProfileEditor", "Kiosk:"),
                QCoreApplication.translate("ProfileEditor", "Read-only kiosk mode"),
            ),
        }
        widgets = {
            "name": self.name,
            "base_url": self.base_url,
            "access_code": self.access_code,
            "workspace": self.workspace,
            "language": self.language,
            "environment": self.environment,
            "ca_bundle": self.ca_bundle,
            "plain_http": self.plain_http,
            "legacy_padding": self.legacy_padding,
            "idle": self.idle_minutes,
            "kiosk": self.kiosk,
        }
        for key, (label, accessible) in texts.items():
            self._labels[key].setText(label)
            widgets[key].setAccessibleName(accessible)
        self.plain_http.setText(
            QCoreApplication.translate(
                "ProfileEditor", "Allow plain http to hosts other than this computer"
            )
        )
        self.legacy_padding.setText(
            QCoreApplication.translate("ProfileEditor", "Allow legacy padding")
        )
        self.kiosk.setText(QCoreApplication.translate("ProfileEditor", "Read-only kiosk mode"))
        self.ca_browse.setText(QCoreApplication.translate("ProfileEditor", "Browse\u2026"))
        self.test_button.setText(QCoreApplication.translate("ProfileEditor", "&Test connection"))
        self.test_button.setToolTip(
            QCoreApplication.translate(
                "ProfileEditor",
                "Check the server as typed here, step by step, without signing in",
            )
        )
        self.ca_browse.setAccessibleName(
            QCoreApplication.translate("ProfileEditor", "Choose a CA bundle file")
        )
        self.ca_bundle.setPlaceholderText(
            QCoreApplication.translate("ProfileEditor", "System certificates")
        )
        self.base_url.setPlaceholderText("https://portal.example.com")
        self.idle_minutes.setSuffix(QCoreApplication.translate("ProfileEditor", " min"))
        self.idle_minutes.setSpecialValueText(QCoreApplication.translate("ProfileEditor", "Never"))
        self.language.setItemText(
            0, QCoreApplication.translate("ProfileEditor", "Follow the system")
        )
        for i in range(self.environment.count()):
            env = EnvironmentType(self.environment.itemData(i))
            self.environment.setItemText(i, environment_label(env).capitalize())
        self.problems.setAccessibleName(QCoreApplication.translate("ProfileEditor", "Problems"))
        self.problems.setAlignment(Qt.AlignmentFlag.AlignLeft)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)
