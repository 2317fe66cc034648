"""The sign-in wizard's pages: thin widgets, texts set in ``retranslateUi``."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from portal_admin.protocol.labels import item_label
from portal_admin.ui.i18n.text import fill
from portal_admin.ui.profiles.store import Profile, environment_label
from portal_admin.ui.theme.tones import set_tone
from portal_admin.ui.widgets.plain import PlainLabel, plain_tooltip, rich_text, set_rich_text

from .flow import MfaMethod
from .forms import button, heading, line_edit, paragraph
from .validation import password_rule


def clock_text(seconds: int) -> str:
    """``seconds`` as m:ss."""
    return f"{seconds // 60}:{seconds % 60:02d}"


class Page(QWidget):
    """A wizard page: a heading, a form and a row of buttons; retranslates itself."""

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.title = heading(self, f"{name}Heading")
        self.intro = paragraph(self, f"{name}Intro")
        self.form = QFormLayout()
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        #: Wrapped hints below the form (a QFormLayout sizes wrapped labels badly).
        self.extra = QVBoxLayout()
        self.buttons = QHBoxLayout()
        self.body = QVBoxLayout(self)
        self.body.setContentsMargins(0, 0, 0, 0)
        self.body.addWidget(self.title)
        self.body.addWidget(self.intro)
        self.body.addSpacing(6)
        self.body.addLayout(self.form)
        self.body.addLayout(self.extra)
        self.body.addSpacing(6)
        self.body.addLayout(self.buttons)
        #: The window's notice, error panel and busy bar are moved here when the page shows.
        self.messages = QVBoxLayout()
        self.body.addLayout(self.messages)

    def submit_buttons(self) -> list[QPushButton]:
        """Buttons that send a request (disabled while one is on its way)."""
        return []

    def add_row(self, label: QLabel, field: QWidget) -> None:
        """A form row whose label names (and focuses) the field."""
        label.setBuddy(field)
        self.form.addRow(label, field)

    def retranslateUi(self) -> None:
        """Set every text in the current language."""

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslateUi()
        super().changeEvent(event)


def _name(widget: QWidget, name: str, description: str = "") -> None:
    widget.setAccessibleName(name)
    if description:
        widget.setAccessibleDescription(description)


class DemoAccountsBox(QGroupBox):
    """The sandbox's demo accounts; its table and button are built when it is first shown
    (a profile other than the sandbox never shows it)."""

    #: "Fill in the administrator" was clicked.
    useAdminClicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("demoAccountsBox")
        self._text: QLabel | None = None
        self._button: QPushButton | None = None

    @property
    def built(self) -> bool:
        """True once the contents exist."""
        return self._text is not None

    @property
    def text(self) -> QLabel:
        """The table of demo accounts (built on first use)."""
        if self._text is None:
            self._build()
        assert self._text is not None
        return self._text

    @property
    def use_admin_button(self) -> QPushButton:
        """Fills in the demo administrator (built on first use)."""
        if self._button is None:
            self._build()
        assert self._button is not None
        return self._button

    def _build(self) -> None:
        self._text = paragraph(self, "demoAccountsText")
        self._button = button(self, "useDemoAdminButton")
        self._button.clicked.connect(self.useAdminClicked)
        demo_buttons = QHBoxLayout()
        demo_buttons.addWidget(self._button)
        demo_buttons.addStretch(1)
        demo_layout = QVBoxLayout(self)
        demo_layout.addWidget(self._text)
        demo_layout.addLayout(demo_buttons)
        self.retranslateUi()

    def setVisible(self, visible: bool) -> None:
        if visible and self._text is None:
            self._build()
        super().setVisible(visible)

    def retranslateUi(self) -> None:
        """Set every text in the current language."""
        self.setTitle(QCoreApplication.translate("SignInPages", "Demo accounts (built-in sandbox)"))
        if self._text is None or self._button is None:
            return
        rows = [
            (
                "admin@sandbox.test",
                "Sandbox-Admin-2026!",
                QCoreApplication.translate("SignInPages", "administrator"),
            ),
            (
                "auditor@sandbox.test",
                "Sandbox-Audit-2026!",
                QCoreApplication.translate("SignInPages", "read-only auditor"),
            ),
            (
                "approval@sandbox.test",
                "Sandbox-Approval-2026!",
                QCoreApplication.translate("SignInPages", "awaits approval"),
            ),
            (
                "newuser@sandbox.test",
                QCoreApplication.translate("SignInPages", "(none yet)"),
                QCoreApplication.translate("SignInPages", "first-time setup"),
            ),
        ]
        cells = [
            rich_text("<tr><td><tt>%1</tt></td><td><tt>%2</tt></td><td>%3</td></tr>", *row)
            for row in rows
        ]
        set_rich_text(
            self._text,
            rich_text(
                "<table cellspacing='0' cellpadding='2'>%1%2%3%4</table><p>%5</p>",
                *cells,
                QCoreApplication.translate(
                    "SignInPages", "Codes, reset tokens and setup ids arrive in the demo mailbox."
                ),
            ),
        )
        self._button.setText(QCoreApplication.translate("SignInPages", "Fill in the administrator"))
        _name(self._text, QCoreApplication.translate("SignInPages", "Demo accounts"))
        _name(
            self._button,
            QCoreApplication.translate(
                "SignInPages", "Fill in the demo administrator's email and password"
            ),
        )


class CredentialsPage(Page):
    """Step 1: profile, email and password; links to the password pages; demo hint."""

    profileSelected = Signal(int)
    #: "Edit…" (the chosen profile) or "New…" (None) was clicked.
    editProfileRequested = Signal(object)
    #: The demo box's "Fill in the administrator" was clicked.
    demoAdminRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("credentialsPage", parent)
        self.profile_label = PlainLabel(self)
        self.profile_combo = QComboBox(self)
        self.profile_combo.setObjectName("profileCombo")
        self.environment = PlainLabel(self)
        self.environment.setObjectName("environmentChip")
        #: Edit the chosen profile (a built-in or managed one opens read-only, to test it).
        self.edit_profile_button = button(self, "editProfileButton")
        self.new_profile_button = button(self, "newProfileButton")
        self.edit_profile_button.clicked.connect(
            lambda: self.editProfileRequested.emit(self.chosen_profile())
        )
        self.new_profile_button.clicked.connect(lambda: self.editProfileRequested.emit(None))
        row = QHBoxLayout()
        row.addWidget(self.profile_combo, 1)
        row.addWidget(self.environment)
        row.addWidget(self.edit_profile_button)
        row.addWidget(self.new_profile_button)
        profile_box = QWidget(self)
        profile_box.setLayout(row)
        row.setContentsMargins(0, 0, 0, 0)
        self.profile_label.setBuddy(self.profile_combo)
        self.form.addRow(self.profile_label, profile_box)
        self.email_label = PlainLabel(self)
        self.email = line_edit(self, "emailEdit")
        self.add_row(self.email_label, self.email)
        self.password_label = PlainLabel(self)
        self.password = line_edit(self, "passwordEdit", password=True)
        self.add_row(self.password_label, self.password)
        self.sign_in_button = button(self, "signInButton", default=True)
        self.buttons.addStretch(1)
        self.buttons.addWidget(self.sign_in_button)
        links = QHBoxLayout()
        self.forgot_button = button(self, "forgotPasswordLink", link=True)
        self.reset_button = button(self, "haveResetTokenLink", link=True)
        self.init_button = button(self, "firstTimeSetupLink", link=True)
        for link in (self.forgot_button, self.reset_button, self.init_button):
            links.addWidget(link)
        links.addStretch(1)
        self.body.addLayout(links)
        self.demo_box = DemoAccountsBox(self)
        self.demo_box.setVisible(False)  # shown by show_profile for the sandbox
        self.demo_box.useAdminClicked.connect(self.demoAdminRequested)
        self.body.addWidget(self.demo_box)
        self._chip_colour = ""
        self.body.addStretch(1)
        self._profiles: list[Profile] = []
        #: True in the idle lock's sign-in window (see :meth:`set_unlocking`).
        self.unlocking = False
        self.profile_combo.currentIndexChanged.connect(self.profileSelected)
        self.retranslateUi()

    def submit_buttons(self) -> list[QPushButton]:
        return [self.sign_in_button]

    @property
    def demo_text(self) -> QLabel:
        """The demo accounts' table (the demo box is built on first use)."""
        return self.demo_box.text

    @property
    def use_admin_button(self) -> QPushButton:
        """The demo box's "Fill in the administrator" button (built on first use)."""
        return self.demo_box.use_admin_button

    def set_profiles(self, profiles: list[Profile], current: Profile) -> None:
        """Offer ``profiles`` and select ``current``."""
        self._profiles = list(profiles)
        self.profile_combo.blockSignals(True)
        self.profile_combo.clear()
        for profile in profiles:
            self.profile_combo.addItem(profile.name)
        names = [p.name for p in profiles]
        self.profile_combo.setCurrentIndex(
            names.index(current.name) if current.name in names else 0
        )
        self.profile_combo.blockSignals(False)
        self.show_profile(current)

    def chosen_profile(self) -> Profile | None:
        """The profile chosen in the list, if any."""
        index = self.profile_combo.currentIndex()
        return self._profiles[index] if 0 <= index < len(self._profiles) else None

    def show_profile(self, profile: Profile) -> None:
        """Show ``profile``'s environment, and the demo hint only for the sandbox."""
        env = profile.environment
        self.environment.setText(environment_label(env))
        if env.colour != self._chip_colour:  # a style sheet is parsed again on every set
            self._chip_colour = env.colour
            self.environment.setStyleSheet(
                f"QLabel#environmentChip {{ background: {env.colour}; color: white;"
                " font-weight: bold; border-radius: 3px; padding: 2px 8px; }"
            )
        self.environment.setToolTip(plain_tooltip(profile.base_url))
        self.demo_box.setVisible(profile.is_sandbox)  # its contents are built when shown

    def set_unlocking(self) -> None:
        """The idle lock's variant: the same account signs in again to unlock."""
        self.unlocking = True
        self.reset_button.hide()
        self.init_button.hide()
        self.demo_box.hide()
        self.retranslateUi()

    def retranslateUi(self) -> None:
        if self.unlocking:
            self.title.setText(QCoreApplication.translate("SignInPages", "Sign in to unlock"))
            self.intro.setText(
                QCoreApplication.translate(
                    "SignInPages",
                    "The window was locked. Sign in again with your password and a second "
                    "factor to continue where you left off.",
                )
            )
        else:
            self.title.setText(
                QCoreApplication.translate("SignInPages", "Sign in to the System Portal")
            )
            self.intro.setText(
                QCoreApplication.translate(
                    "SignInPages",
                    "Choose the server, then enter your email address and password.",
                )
            )
        self.profile_label.setText(QCoreApplication.translate("SignInPages", "&Connection:"))
        self.email_label.setText(QCoreApplication.translate("SignInPages", "&Email:"))
        self.password_label.setText(QCoreApplication.translate("SignInPages", "&Password:"))
        self.email.setPlaceholderText(QCoreApplication.translate("SignInPages", "name@example.com"))
        self.sign_in_button.setText(QCoreApplication.translate("SignInPages", "Sign in"))
        self.forgot_button.setText(
            QCoreApplication.translate("SignInPages", "Forgot your password?")
        )
        self.reset_button.setText(QCoreApplication.translate("SignInPages", "I have a reset token"))
        self.init_button.setText(
            QCoreApplication.translate("SignInPages", "First-time password setup")
        )
        self.demo_box.retranslateUi()
        _name(self.profile_combo, QCoreApplication.translate("SignInPages", "Connection profile"))
        self.edit_profile_button.setText(QCoreApplication.translate("SignInPages", "E&dit…"))
        _name(
            self.edit_profile_button,
            QCoreApplication.translate("SignInPages", "Edit or test the connection profile"),
        )
        self.new_profile_button.setText(QCoreApplication.translate("SignInPages", "Ne&w…"))
        _name(
            self.new_profile_button,
            QCoreApplication.translate("SignInPages", "New connection profile"),
        )
        _name(
            self.environment,
            QCoreApplication.translate("SignInPages", "Environment of the selected profile"),
        )
        _name(self.email, QCoreApplication.translate("SignInPages", "Email address"))
        _name(self.password, QCoreApplication.translate("SignInPages", "Password"))
        _name(self.sign_in_button, QCoreApplication.translate("SignInPages", "Sign in"))
        _name(
            self.forgot_button, QCoreApplication.translate("SignInPages", "Forgot your password?")
        )
        _name(
            self.reset_button,
            QCoreApplication.translate("SignInPages", "Enter a password reset token"),
        )
        _name(
            self.init_button, QCoreApplication.translate("SignInPages", "First-time password setup")
        )


class MfaPage(Page):
    """Step 2: the second factors offered, sending the email code, entering the code."""

    methodSelected = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("mfaPage", parent)
        self._email = ""
        self._methods: list[MfaMethod] = []
        self._cooldown = 0
        self._sent = False
        self._remaining = 0
        self.method_label = PlainLabel(self)
        self.method_box = QWidget(self)
        self.method_box.setObjectName("mfaMethods")
        self.method_layout = QVBoxLayout(self.method_box)
        self.method_layout.setContentsMargins(0, 0, 0, 0)
        self.method_group = QButtonGroup(self)
        self.method_group.buttonToggled.connect(self._toggled)
        self.form.addRow(self.method_label, self.method_box)
        self.method_hint = paragraph(self, "methodHint")
        self.extra.addWidget(self.method_hint)
        self.send_button = button(self, "sendCodeButton")
        self.cooldown_label = paragraph(self, "cooldownLabel")
        send_row = QHBoxLayout()
        send_row.addWidget(self.send_button)
        send_row.addWidget(self.cooldown_label, 1)
        self.send_row = QWidget(self)
        self.send_row.setLayout(send_row)
        send_row.setContentsMargins(0, 0, 0, 0)
        self.extra.addWidget(self.send_row)
        self.code_label = PlainLabel(self)
        self.code = line_edit(self, "codeEdit")
        self.code.setMaxLength(12)
        code_form = QFormLayout()
        code_form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.code_label.setBuddy(self.code)
        code_form.addRow(self.code_label, self.code)
        self.extra.addSpacing(6)
        self.extra.addLayout(code_form)
        self.remaining_label = paragraph(self, "sessionRemainingLabel")
        self.extra.addWidget(self.remaining_label)
        self.back_button = button(self, "mfaBackButton")
        self.totp_button = button(self, "demoTotpButton")
        self.verify_button = button(self, "verifyButton", default=True)
        self.buttons.addWidget(self.back_button)
        self.buttons.addStretch(1)
        self.buttons.addWidget(self.totp_button)
        self.buttons.addWidget(self.verify_button)
        self.totp_button.setVisible(False)
        self.body.addStretch(1)
        self.retranslateUi()

    def submit_buttons(self) -> list[QPushButton]:
        return [self.send_button, self.verify_button, self.totp_button]

    @property
    def method(self) -> str:
        """The code of the selected method ("" when none)."""
        checked = self.method_group.checkedButton()
        return str(checked.property("methodCode")) if checked is not None else ""

    def set_methods(self, email: str, methods: list[MfaMethod]) -> None:
        """Offer ``methods`` (the first is selected) for ``email``'s login session."""
        self._email = email
        self._methods = list(methods)
        for old in self.method_group.buttons():
            self.method_group.removeButton(old)
            old.deleteLater()
        for index, method in enumerate(methods):
            radio = QRadioButton(self.method_box)
            radio.setObjectName(f"method{method.code.title()}Radio")
            radio.setProperty("methodCode", method.code)
            self.method_group.addButton(radio, index)
            self.method_layout.addWidget(radio)
        self._sent = False
        self._cooldown = 0
        self.code.clear()
        self.retranslateUi()
        if self.method_group.buttons():
            self.method_group.buttons()[0].setChecked(True)
        self._update_method()

    def select_method(self, code: str) -> None:
        """Select the method ``code``."""
        for radio in self.method_group.buttons():
            if radio.property("methodCode") == code:
                radio.setChecked(True)

    def set_cooldown(self, seconds: int, sent: bool) -> None:
        """Show the resend countdown (``sent``: a code was sent in this session)."""
        self._cooldown = seconds
        self._sent = sent
        self._update_send()

    def set_remaining(self, seconds: int) -> None:
        """Show the login session's remaining time."""
        self._remaining = seconds
        self._update_remaining()

    def _toggled(self, _button: QRadioButton, checked: bool) -> None:
        if checked:
            self._update_method()
            self.methodSelected.emit(self.method)

    def _update_method(self) -> None:
        email_method = self.method == "EMAIL"
        self.send_row.setVisible(email_method)
        self.method_hint.setText(
            fill(
                QCoreApplication.translate("SignInPages", "Send a code to %1, then type it below."),
                self._email,
            )
            if email_method
            else QCoreApplication.translate(
                "SignInPages",
                "Open your authenticator app and type the code it shows for this account.",
            )
        )
        self._update_send()

    def _update_send(self) -> None:
        if not self._sent:
            self.send_button.setText(QCoreApplication.translate("SignInPages", "Send code"))
            self.cooldown_label.setText("")
        elif self._cooldown > 0:
            self.send_button.setText(QCoreApplication.translate("SignInPages", "Resend code"))
            self.cooldown_label.setText(
                fill(
                    QCoreApplication.translate(
                        "SignInPages", "You can ask for a new code in %1 seconds."
                    ),
                    self._cooldown,
                )
            )
        else:
            self.send_button.setText(QCoreApplication.translate("SignInPages", "Resend code"))
            self.cooldown_label.setText(
                QCoreApplication.translate(
                    "SignInPages", "No code arrived? You can send a new one now."
                )
            )
        self.send_button.setProperty("cooldown", self._cooldown)
        _name(self.send_button, self.send_button.text())
        _name(
            self.cooldown_label,
            QCoreApplication.translate("SignInPages", "Resend countdown"),
            self.cooldown_label.text(),
        )

    def _update_remaining(self) -> None:
        seconds = self._remaining
        self.remaining_label.setText(
            fill(
                QCoreApplication.translate("SignInPages", "Time left to finish signing in: %1"),
                clock_text(seconds),
            )
            if seconds
            else ""
        )
        urgent = 0 < seconds <= 60
        set_tone(self.remaining_label, "error" if urgent else None)
        self.remaining_label.setStyleSheet("font-weight: 600;" if urgent else "")
        _name(
            self.remaining_label,
            QCoreApplication.translate("SignInPages", "Time left to finish signing in"),
            self.remaining_label.text(),
        )

    def retranslateUi(self) -> None:
        self.title.setText(QCoreApplication.translate("SignInPages", "Confirm it is you"))
        self.intro.setText(
            fill(
                QCoreApplication.translate(
                    "SignInPages", "The password for %1 is right. Now confirm with a second factor."
                ),
                self._email,
            )
        )
        self.method_label.setText(QCoreApplication.translate("SignInPages", "Method:"))
        names = {
            "EMAIL": QCoreApplication.translate("SignInPages", "Code by email"),
            "OTP": QCoreApplication.translate("SignInPages", "Code from an authenticator app"),
        }
        for radio in self.method_group.buttons():
            code = str(radio.property("methodCode"))
            label = next((item_label(m) for m in self._methods if m.code == code), code)
            radio.setText(names.get(code, label))
            _name(radio, radio.text())
        self.code_label.setText(QCoreApplication.translate("SignInPages", "&Code:"))
        self.code.setPlaceholderText(QCoreApplication.translate("SignInPages", "6 digits"))
        self.back_button.setText(QCoreApplication.translate("SignInPages", "Back"))
        self.verify_button.setText(QCoreApplication.translate("SignInPages", "Verify and sign in"))
        self.totp_button.setText(QCoreApplication.translate("SignInPages", "Fill in the demo code"))
        _name(self.method_box, QCoreApplication.translate("SignInPages", "Second factor methods"))
        _name(self.code, QCoreApplication.translate("SignInPages", "Verification code"))
        _name(
            self.back_button,
            QCoreApplication.translate("SignInPages", "Back to email and password"),
        )
        _name(
            self.verify_button,
            QCoreApplication.translate("SignInPages", "Verify the code and sign in"),
        )
        _name(
            self.totp_button,
            QCoreApplication.translate(
                "SignInPages", "Fill in the sandbox's current authenticator code"
            ),
        )
        self._update_method()
        self._update_remaining()


class PendingPage(Page):
    """The account waits for an administrator's approval: the program is not entered."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("pendingApprovalPage", parent)
        self.detail = paragraph(self, "pendingApprovalDetail")
        self.extra.addWidget(self.detail)
        self.back_button = button(self, "pendingBackButton", default=True)
        self.buttons.addStretch(1)
        self.buttons.addWidget(self.back_button)
        self.body.addStretch(1)
        self._email = ""
        self.retranslateUi()

    def set_email(self, email: str) -> None:
        """Name the account that waits."""
        self._email = email
        self.retranslateUi()

    def retranslateUi(self) -> None:
        self.title.setText(
            QCoreApplication.translate("SignInPages", "Your account is waiting for approval")
        )
        self.intro.setText(
            fill(
                QCoreApplication.translate(
                    "SignInPages",
                    "The email, password and code for %1 were right, but an administrator has "
                    "not yet approved this account.",
                ),
                self._email,
            )
        )
        self.detail.setText(
            QCoreApplication.translate(
                "SignInPages",
                "You cannot use the program until the account is approved. Ask your "
                "administrator to approve it, then sign in again. Nothing was changed.",
            )
        )
        self.back_button.setText(QCoreApplication.translate("SignInPages", "Back to sign-in"))
        _name(self.intro, QCoreApplication.translate("SignInPages", "Why you cannot enter"))
        _name(self.detail, QCoreApplication.translate("SignInPages", "What to do"))
        _name(self.back_button, QCoreApplication.translate("SignInPages", "Back to sign-in"))


class ForgotPage(Page):
    """Forgotten password: email and challenge token; a reset email follows."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("forgotPasswordPage", parent)
        self.email_label = PlainLabel(self)
        self.email = line_edit(self, "forgotEmailEdit")
        self.add_row(self.email_label, self.email)
        self.challenge_label = PlainLabel(self)
        self.challenge = line_edit(self, "challengeTokenEdit")
        self.add_row(self.challenge_label, self.challenge)
        self.challenge_hint = paragraph(self, "challengeTokenHint")
        self.extra.addWidget(self.challenge_hint)
        self.back_button = button(self, "forgotBackButton")
        self.submit_button = button(self, "sendResetButton", default=True)
        self.buttons.addWidget(self.back_button)
        self.buttons.addStretch(1)
        self.buttons.addWidget(self.submit_button)
        self.body.addStretch(1)
        self.sandbox_hint = ""
        self.retranslateUi()

    def submit_buttons(self) -> list[QPushButton]:
        return [self.submit_button]

    def retranslateUi(self) -> None:
        self.title.setText(QCoreApplication.translate("SignInPages", "Forgot your password?"))
        self.intro.setText(
            QCoreApplication.translate(
                "SignInPages",
                "Enter your email address. If an account exists for it, the server emails a "
                "reset token you can use to choose a new password.",
            )
        )
        self.email_label.setText(QCoreApplication.translate("SignInPages", "&Email:"))
        self.challenge_label.setText(QCoreApplication.translate("SignInPages", "C&hallenge token:"))
        hint = QCoreApplication.translate(
            "SignInPages",
            "The bot-challenge token your organisation gives you for password recovery.",
        )
        self.challenge_hint.setText(f"{hint} {self.sandbox_hint}".strip())
        self.back_button.setText(QCoreApplication.translate("SignInPages", "Back"))
        self.submit_button.setText(QCoreApplication.translate("SignInPages", "Send reset email"))
        _name(self.email, QCoreApplication.translate("SignInPages", "Email address"))
        _name(self.challenge, QCoreApplication.translate("SignInPages", "Challenge token"), hint)
        _name(self.back_button, QCoreApplication.translate("SignInPages", "Back to sign-in"))
        _name(
            self.submit_button,
            QCoreApplication.translate("SignInPages", "Send the password reset email"),
        )


class ForgotSentPage(Page):
    """The reset email is on its way."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("forgotSentPage", parent)
        self.back_button = button(self, "forgotSentBackButton")
        self.have_token_button = button(self, "enterResetTokenButton", default=True)
        self.buttons.addWidget(self.back_button)
        self.buttons.addStretch(1)
        self.buttons.addWidget(self.have_token_button)
        self.body.addStretch(1)
        self.retranslateUi()

    def retranslateUi(self) -> None:
        self.title.setText(QCoreApplication.translate("SignInPages", "Check your mail"))
        self.intro.setText(
            QCoreApplication.translate(
                "SignInPages",
                "Open the email, copy the reset token it contains, then choose "
                "\u201cEnter the reset token\u201d. The token works once and expires.",
            )
        )
        self.back_button.setText(QCoreApplication.translate("SignInPages", "Back to sign-in"))
        self.have_token_button.setText(
            QCoreApplication.translate("SignInPages", "Enter the reset token")
        )
        _name(self.back_button, QCoreApplication.translate("SignInPages", "Back to sign-in"))
        _name(
            self.have_token_button,
            QCoreApplication.translate("SignInPages", "Enter the reset token"),
        )


class NewPasswordPage(Page):
    """A secret from an email (reset token or setup id) and a new password twice."""

    def __init__(self, name: str, secret_name: str, parent: QWidget | None = None) -> None:
        super().__init__(name, parent)
        self.secret_label = PlainLabel(self)
        self.secret = line_edit(self, secret_name)
        self.add_row(self.secret_label, self.secret)
        self.new_label = PlainLabel(self)
        self.new = line_edit(self, f"{name}NewPasswordEdit", password=True)
        self.add_row(self.new_label, self.new)
        self.repeat_label = PlainLabel(self)
        self.repeat = line_edit(self, f"{name}RepeatPasswordEdit", password=True)
        self.add_row(self.repeat_label, self.repeat)
        self.rule = paragraph(self, f"{name}Rule")
        self.extra.addWidget(self.rule)
        self.back_button = button(self, f"{name}BackButton")
        self.submit_button = button(self, f"{name}SubmitButton", default=True)
        self.buttons.addWidget(self.back_button)
        self.buttons.addStretch(1)
        self.buttons.addWidget(self.submit_button)
        self.body.addStretch(1)

    def submit_buttons(self) -> list[QPushButton]:
        return [self.submit_button]

    def retranslate_common(self) -> None:
        """Texts both password pages share."""
        self.new_label.setText(QCoreApplication.translate("SignInPages", "&New password:"))
        self.repeat_label.setText(QCoreApplication.translate("SignInPages", "&Repeat it:"))
        self.rule.setText(password_rule())
        self.back_button.setText(QCoreApplication.translate("SignInPages", "Back"))
        _name(self.new, QCoreApplication.translate("SignInPages", "New password"), password_rule())
        _name(self.repeat, QCoreApplication.translate("SignInPages", "Repeat the new password"))
        _name(self.back_button, QCoreApplication.translate("SignInPages", "Back to sign-in"))


class ResetPage(NewPasswordPage):
    """Reset from the emailed token."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("resetPasswordPage", "resetTokenEdit", parent)
        self.retranslateUi()

    def retranslateUi(self) -> None:
        self.title.setText(QCoreApplication.translate("SignInPages", "Choose a new password"))
        self.intro.setText(
            QCoreApplication.translate(
                "SignInPages", "Paste the reset token from the email and choose a new password."
            )
        )
        self.secret_label.setText(QCoreApplication.translate("SignInPages", "Reset &token:"))
        self.submit_button.setText(QCoreApplication.translate("SignInPages", "Set new password"))
        _name(self.secret, QCoreApplication.translate("SignInPages", "Reset token"))
        _name(self.submit_button, QCoreApplication.translate("SignInPages", "Set the new password"))
        self.retranslate_common()


class InitPage(NewPasswordPage):
    """First-time password setup from the emailed setup session id."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("firstTimeSetupPage", "setupSessionEdit", parent)
        self.retranslateUi()

    def retranslateUi(self) -> None:
        self.title.setText(QCoreApplication.translate("SignInPages", "Set up your password"))
        self.intro.setText(
            QCoreApplication.translate(
                "SignInPages",
                "Your account was created for you. Paste the setup id from the welcome email "
                "and choose your password.",
            )
        )
        self.secret_label.setText(QCoreApplication.translate("SignInPages", "Setup &id:"))
        self.submit_button.setText(QCoreApplication.translate("SignInPages", "Set password"))
        _name(self.secret, QCoreApplication.translate("SignInPages", "Setup session id"))
        _name(self.submit_button, QCoreApplication.translate("SignInPages", "Set the password"))
        self.retranslate_common()


class DonePage(Page):
    """Signed in (shown briefly before the main window takes over)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("signedInPage", parent)
        self.body.addStretch(1)
        self.retranslateUi()

    def retranslateUi(self) -> None:
        self.title.setText(QCoreApplication.translate("SignInPages", "Signed in"))
        self.intro.setText(QCoreApplication.translate("SignInPages", "Opening the program\u2026"))


__all__ = [
    "CredentialsPage",
    "DonePage",
    "ForgotPage",
    "ForgotSentPage",
    "InitPage",
    "MfaPage",
    "Page",
    "PendingPage",
    "ResetPage",
]
