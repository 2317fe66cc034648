"""What the program offers by now, of the work this issue waits for: a walk expects each
behaviour once the program has it (and notes its absence as a finding before)."""

from __future__ import annotations

import importlib.util


def code_sent_on_open() -> bool:
    """The e-mail code is sent as the code page opens with "Code by email" chosen."""
    from portal_admin.ui.signin.window import SignInWindow

    return hasattr(SignInWindow, "send_code_on_open")


def journal_follows() -> bool:
    """The Journal panel follows its file (and has a Refresh button)."""
    return importlib.util.find_spec("portal_admin.ui.widgets.file_watch") is not None


def campaign_questions() -> bool:
    """The Campaigns panel asks before a sign-off with undecided items and before closing."""
    return importlib.util.find_spec("portal_admin.ui.panels.reviews.confirmations") is not None


def key_notice() -> bool:
    """The main window says once where the key is kept when no keyring works."""
    return importlib.util.find_spec("portal_admin.ui.mainwindow.key_notice") is not None
