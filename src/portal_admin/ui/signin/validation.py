"""Client-side checks before anything is sent; each returns a translated problem or None.

The server states no password strength rules; the program asks for at least
``MIN_PASSWORD_LENGTH`` characters and says so.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from portal_admin.ui.i18n.text import fill

MIN_PASSWORD_LENGTH = 8


def check_email(email: str) -> str | None:
    """An email address is present and looks like one."""
    email = email.strip()
    if not email:
        return QCoreApplication.translate("SignInValidation", "Enter your email address.")
    local, _, domain = email.partition("@")
    if not local or not domain or " " in email:
        return QCoreApplication.translate(
            "SignInValidation",
            "The email address is not valid: it needs a name, an @ and a domain.",
        )
    return None


def check_sign_in(email: str, password: str) -> str | None:
    """Email and password are both filled in."""
    problem = check_email(email)
    if problem:
        return problem
    if not password:
        return QCoreApplication.translate("SignInValidation", "Enter your password.")
    return None


def check_code(code: str) -> str | None:
    """A verification code was typed."""
    if not code.strip():
        return QCoreApplication.translate("SignInValidation", "Enter the verification code.")
    return None


def check_required(value: str, message: str) -> str | None:
    """``message`` when ``value`` is empty."""
    return message if not value.strip() else None


def check_new_password(new: str, repeat: str) -> str | None:
    """A new password of at least the minimum length, typed twice the same."""
    if not new:
        return QCoreApplication.translate("SignInValidation", "Enter a new password.")
    if len(new) < MIN_PASSWORD_LENGTH:
        return fill(
            QCoreApplication.translate(
                "SignInValidation", "The new password must have at least %1 characters."
            ),
            MIN_PASSWORD_LENGTH,
        )
    if not repeat:
        return QCoreApplication.translate(
            "SignInValidation", "Type the new password a second time to confirm it."
        )
    if new != repeat:
        return QCoreApplication.translate("SignInValidation", "The two new passwords do not match.")
    return None


def password_rule() -> str:
    """The rule shown beside new-password fields."""
    return fill(
        QCoreApplication.translate("SignInValidation", "At least %1 characters."),
        MIN_PASSWORD_LENGTH,
    )
