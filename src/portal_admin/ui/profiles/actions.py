"""Editing connection profiles from the sign-in window: the editor, then the profile file.

A saved profile replaces the one edited (or is added), an accepted import replaces the list;
either is written with :class:`ProfileStore` and offered in the sign-in window at once, the
saved profile chosen. The store refuses to change a managed profile or to take a managed or
built-in name: the person reads why, and nothing is written.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QObject, Qt
from PySide6.QtWidgets import QMessageBox

from portal_admin.connection.profiles import ManagedProfileError
from portal_admin.ui.profiles.editor import ProfileEditor
from portal_admin.ui.profiles.store import Profile, ProfileStore
from portal_admin.ui.signin.window import SignInWindow
from portal_admin.ui.widgets.plain import PlainMessageBox

log = logging.getLogger(__name__)


class ProfileEditing(QObject):
    """One editing of a profile (``profile`` None: a new one) over ``window``."""

    def __init__(
        self,
        store: ProfileStore,
        window: SignInWindow,
        profile: Profile | None,
        chosen: Callable[[Profile], None],
    ) -> None:
        super().__init__(window)
        self.store = store
        self.window = window
        self.original = profile
        self._chosen = chosen
        self.editor = ProfileEditor(profile, others=store.load(), parent=window)
        self.editor.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.editor.profileSaved.connect(self.save)
        self.editor.profilesImported.connect(self.replace_all)
        self.editor.destroyed.connect(self.deleteLater)
        self.box: QMessageBox | None = None

    def open(self) -> None:
        """Show the editor (window-modal, no nested event loop)."""
        self.editor.open()

    def save(self, saved: Profile) -> None:
        """Write ``saved`` in place of the profile edited, or as a new one."""
        profiles = self.store.load()
        replaced = self.original.name.casefold() if self.original is not None else None
        kept = [p for p in profiles if replaced is None or p.name.casefold() != replaced]
        if self.original is not None and (self.original.builtin or self.original.managed):
            kept = profiles  # shown read-only: nothing of theirs changes
            saved = self.original
        else:
            kept.append(saved)
        if self._write(kept):
            self._offer(saved)

    def replace_all(self, profiles: list[Profile]) -> None:
        """Write the list an accepted import made."""
        if self._write(profiles):
            current = self.window.flow.profile
            names = {p.name.casefold(): p for p in self.store.load()}
            self._offer(names.get(current.name.casefold(), current))

    def _write(self, profiles: list[Profile]) -> bool:
        try:
            self.store.save(profiles)
        except ManagedProfileError as exc:
            self._tell(
                QCoreApplication.translate(
                    "ProfileEditing",
                    "The profile was not saved: your organisation manages it, or one of the "
                    "same name.",
                ),
                str(exc),
            )
            return False
        except OSError as exc:
            log.warning("the profile file could not be written: %s", exc)
            self._tell(
                QCoreApplication.translate(
                    "ProfileEditing", "The profiles could not be saved: the file is not writable."
                ),
                str(exc),
            )
            return False
        return True

    def _offer(self, current: Profile) -> None:
        profiles = self.store.load()
        for profile in profiles:  # as stored (managed ones marked)
            if profile.name.casefold() == current.name.casefold():
                current = profile
        self.window.set_profiles(profiles, current)
        self._chosen(current)

    def _tell(self, text: str, detail: str) -> None:
        box = PlainMessageBox(QMessageBox.Icon.Warning, self.window.windowTitle(), text)
        box.setInformativeText(detail)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.setParent(self.window, box.windowFlags())
        self.box = box
        box.open()
