"""The connection profile editor (non-modal: ``open()``, results through signals).

Besides the profile's fields: the proxy (system, none, or a manual URL), certificate pins (with
"Read from server"), "Test connection" (the connection doctor on the values as typed), and
Export…/Import… of profiles. A managed profile (from the machine's policy folder) is shown
read-only, with a line saying so.
"""

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

from portal_admin.connection.doctor import Report
from portal_admin.ui.doctor.service import TransportFactory, builtin_sandbox_transport
from portal_admin.ui.i18n.text import fill
from portal_admin.ui.i18n.translators import LANGUAGES
from portal_admin.ui.profiles.store import (
    EnvironmentType,
    Profile,
    ProxyMode,
    environment_label,
    validate,
)
from portal_admin.ui.profiles.transfer import ProfileTransfer
from portal_admin.ui.theme.icons import IconLabel, icon
from portal_admin.ui.theme.tones import set_tone
from portal_admin.ui.widgets.plain import PlainLabel


class ProfileEditor(QDialog):
    """Edits one profile; emits ``profileSaved`` with the result when it is valid."""

    profileSaved = Signal(object)
    #: An import was accepted: the whole new list of profiles (for ``ProfileStore.save``).
    profilesImported = Signal(object)

    def __init__(
        self,
        profile: Profile | None = None,
        others: list[Profile] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("profileEditor")
        self._original = profile
        self._all = list(others or [])
        if profile is not None and not any(o.name == profile.name for o in self._all):
            self._all.insert(0, profile)
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
        self.proxy_mode = QComboBox(self)
        self.proxy_mode.setObjectName("proxyMode")
        for mode in ProxyMode:
            self.proxy_mode.addItem("", mode.value)
        self.proxy_mode.setCurrentIndex(self.proxy_mode.findData(p.proxy_mode.value))
        self.proxy_url = QLineEdit(p.proxy_url, self)
        self.proxy_url.setObjectName("proxyUrl")
        self.proxy_mode.currentIndexChanged.connect(self._proxy_mode_changed)
        self.pins = QLineEdit(", ".join(p.pinned_certificates), self)
        self.pins.setObjectName("certificatePins")
        self.read_pin = QPushButton(self)
        self.read_pin.setObjectName("readPin")
        self.read_pin.setAutoDefault(False)
        self.read_pin.clicked.connect(self.read_pin_from_server)
        self.pin_note = PlainLabel(self)
        self.pin_note.setObjectName("pinNote")
        self.pin_note.setWordWrap(True)
        set_tone(self.pin_note, "muted")
        self.pin_note.hide()
        self.managed_icon = IconLabel(self, 20)
        self.managed_icon.set_icon("state.managed")
        self.managed_line = PlainLabel(self)
        self.managed_line.setObjectName("managedLine")
        self.managed_line.setWordWrap(True)
        self.notice = PlainLabel(self)
        self.notice.setObjectName("transferNotice")
        self.notice.setWordWrap(True)
        self.notice.setTextFormat(Qt.TextFormat.PlainText)
        self.notice.hide()
        self.problems = PlainLabel(self)
        self.problems.setObjectName("problems")
        self.problems.setWordWrap(True)
        self.problems.setTextFormat(Qt.TextFormat.PlainText)
        set_tone(self.problems, "error")
        self.problems.hide()

        ca_row = QHBoxLayout()
        ca_row.addWidget(self.ca_bundle, 1)
        ca_row.addWidget(self.ca_browse)
        proxy_row = QHBoxLayout()
        proxy_row.addWidget(self.proxy_mode)
        proxy_row.addWidget(self.proxy_url, 1)
        pin_row = QHBoxLayout()
        pin_row.addWidget(self.pins, 1)
        pin_row.addWidget(self.read_pin)
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
            ("proxy", proxy_row),
            ("pins", pin_row),
            ("plain_http", self.plain_http),
            ("legacy_padding", self.legacy_padding),
            ("idle", self.idle_minutes),
            ("kiosk", self.kiosk),
        ):
            label = PlainLabel(self)
            self._labels[key] = label
            self.form.addRow(label, field)
            if isinstance(field, QWidget):
                label.setBuddy(field)
        self._labels["ca_bundle"].setBuddy(self.ca_bundle)
        self._labels["proxy"].setBuddy(self.proxy_mode)
        self._labels["pins"].setBuddy(self.pins)
        self.form.insertRow(list(self._labels).index("pins") + 1, self.pin_note)
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
        self.transfer = ProfileTransfer(lambda: list(self._all), self)
        self.transfer.exported.connect(self._exported)
        self.transfer.imported.connect(self._imported)
        self.transfer.problem.connect(lambda text: self._notify(text, "error"))
        self.export_button = QPushButton(icon("action.export"), "", self)
        self.export_button.setObjectName("exportProfiles")
        self.export_button.clicked.connect(self.transfer.export)
        self.import_button = QPushButton(icon("action.import"), "", self)
        self.import_button.setObjectName("importProfiles")
        self.import_button.clicked.connect(self.transfer.import_)
        for button in (self.export_button, self.import_button):
            button.setAutoDefault(False)
        managed_row = QHBoxLayout()
        managed_row.addWidget(self.managed_icon)
        managed_row.addWidget(self.managed_line, 1)
        self.managed_box = QWidget(self)
        self.managed_box.setObjectName("managedBadge")
        self.managed_box.setLayout(managed_row)
        managed_row.setContentsMargins(0, 0, 0, 4)
        self.managed_box.setVisible(p.managed or p.builtin)
        transfer_row = QHBoxLayout()
        transfer_row.addWidget(self.export_button)
        transfer_row.addWidget(self.import_button)
        transfer_row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.managed_box)
        layout.addLayout(self.form)
        layout.addWidget(self.problems)
        layout.addWidget(self.notice)
        layout.addLayout(transfer_row)
        layout.addWidget(self.buttons)
        self._file_dialog: QFileDialog | None = None
        self.setMinimumWidth(560)
        if p.managed or p.builtin:  # the built-in sandbox is never stored: nothing to save
            self._make_read_only()
        self._proxy_mode_changed()
        self.retranslateUi()

    @property
    def read_only(self) -> bool:
        """True for a managed profile and the built-in sandbox: shown, tested and exported,
        never changed."""
        return bool(self._original and (self._original.managed or self._original.builtin))

    def _make_read_only(self) -> None:
        for w in self.findChildren(QWidget):
            if isinstance(w, QLineEdit):
                w.setReadOnly(True)
            elif isinstance(w, QComboBox | QCheckBox | QSpinBox) or w in (
                self.ca_browse,
                self.read_pin,
            ):
                w.setEnabled(False)
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setEnabled(False)
        self.buttons.button(QDialogButtonBox.StandardButton.Save).hide()

    def _proxy_mode_changed(self) -> None:
        manual = self.proxy_mode.currentData() == ProxyMode.MANUAL.value
        self.proxy_url.setEnabled(manual and not (self._original and self._original.builtin))

    def profile(self) -> Profile:
        """The profile as edited (not validated)."""
        ca = self.ca_bundle.text().strip()
        pins = tuple(
            pin.strip() for pin in self.pins.text().replace(";", ",").split(",") if pin.strip()
        )
        mode = ProxyMode(self.proxy_mode.currentData())
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
            proxy_mode=mode,
            proxy_url=self.proxy_url.text().strip() if mode is ProxyMode.MANUAL else "",
            pinned_certificates=pins,
            builtin=bool(self._original and self._original.builtin),
            managed=self.read_only,
        )

    def save(self) -> None:
        """Validate; emit ``profileSaved`` and close, or show what is wrong."""
        if self.read_only:
            return
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
        from portal_admin.ui.doctor.dialog import DoctorDialog

        if self.doctor is not None and shiboken6.isValid(self.doctor):
            self.doctor.close()
        dialog = DoctorDialog(self.profile(), self, sandbox=self.sandbox_transport)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.doctor = dialog
        dialog.open()
        return dialog

    def read_pin_from_server(self) -> QDialog:
        """Test the connection and, when the server shows a certificate, fill in its pin."""
        dialog = self.test_connection()
        service = getattr(dialog, "service", None)
        if service is not None:
            service.finished.connect(self._pin_from_report)
        return dialog

    def _pin_from_report(self, report: Report) -> None:
        tls = report.step("tls")
        certificate = tls.details.get("certificate") if tls is not None else None
        found = certificate.get("sha256") if isinstance(certificate, dict) else None
        if not isinstance(found, str) or not found:
            self._pin_note(
                QCoreApplication.translate(
                    "ProfileEditor", "The server showed no certificate to pin."
                )
            )
            return
        self.pins.setText(found)
        self._pin_note(
            QCoreApplication.translate(
                "ProfileEditor",
                "The pin was read from the server: compare it with the fingerprint your IT "
                "department gives before saving.",
            )
        )

    def _pin_note(self, text: str) -> None:
        self.pin_note.setText(text)
        self.pin_note.show()

    def _notify(self, text: str, tone: str | None = None) -> None:
        self.notice.setText(text)
        set_tone(self.notice, tone)
        self.notice.setVisible(bool(text))

    def _exported(self, path: str, count: int) -> None:
        self._notify(
            fill(
                QCoreApplication.translate(
                    "ProfileEditor", "%1 profiles were exported to %2 (without access codes)."
                ),
                count,
                path,
            )
        )

    def _imported(self, profiles: list[Profile]) -> None:
        self._all = list(profiles)
        self._notify(QCoreApplication.translate("ProfileEditor", "The profiles were imported."))
        self.profilesImported.emit(profiles)

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
            "proxy": (
                QCoreApplication.translate("ProfileEditor", "&Proxy:"),
                QCoreApplication.translate("ProfileEditor", "Proxy"),
            ),
            "pins": (
                QCoreApplication.translate("ProfileEditor", "Certi&ficate pin:"),
                QCoreApplication.translate("ProfileEditor", "Certificate pins (SHA-256)"),
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
            "proxy": self.proxy_mode,
            "pins": self.pins,
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
        proxy_names = {
            ProxyMode.SYSTEM: QCoreApplication.translate("ProfileEditor", "System settings"),
            ProxyMode.NONE: QCoreApplication.translate("ProfileEditor", "No proxy"),
            ProxyMode.MANUAL: QCoreApplication.translate("ProfileEditor", "Manual"),
        }
        for i in range(self.proxy_mode.count()):
            self.proxy_mode.setItemText(i, proxy_names[ProxyMode(self.proxy_mode.itemData(i))])
        self.proxy_url.setPlaceholderText("http://proxy.example.com:3128")
        self.proxy_url.setAccessibleName(QCoreApplication.translate("ProfileEditor", "Proxy URL"))
        self.proxy_url.setToolTip(
            QCoreApplication.translate(
                "ProfileEditor",
                "No user name or password here: a proxy that needs them is set in HTTPS_PROXY, "
                "with the system setting.",
            )
        )
        self.pins.setPlaceholderText(QCoreApplication.translate("ProfileEditor", "Not pinned"))
        self.read_pin.setText(QCoreApplication.translate("ProfileEditor", "&Read from server"))
        self.read_pin.setAccessibleName(
            QCoreApplication.translate("ProfileEditor", "Read the pin from the server")
        )
        if self._original is not None and self._original.builtin:
            self.managed_line.setText(
                QCoreApplication.translate(
                    "ProfileEditor", "The built-in sandbox: it can be tested here, not changed."
                )
            )
        else:
            self.managed_line.setText(
                QCoreApplication.translate(
                    "ProfileEditor",
                    "Managed by your organisation: this profile cannot be changed or deleted here.",
                )
            )
        self.managed_icon.setAccessibleName(QCoreApplication.translate("ProfileEditor", "Managed"))
        self.export_button.setText(QCoreApplication.translate("ProfileEditor", "E&xport\u2026"))
        self.export_button.setToolTip(
            QCoreApplication.translate(
                "ProfileEditor", "Save the profiles to a file (without access codes)"
            )
        )
        self.import_button.setText(QCoreApplication.translate("ProfileEditor", "I&mport\u2026"))
        self.import_button.setToolTip(
            QCoreApplication.translate("ProfileEditor", "Add profiles from a file")
        )
        self.problems.setAccessibleName(QCoreApplication.translate("ProfileEditor", "Problems"))
        self.problems.setAlignment(Qt.AlignmentFlag.AlignLeft)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)
