"""Connection profiles edited from the sign-in window: New… and Edit… open the editor, a saved
profile is written to the profile file and chosen at once, a managed profile stays as it is,
and the kiosk and the idle lock offer no editor."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from portal_admin.ui.profiles.actions import ProfileEditing
from portal_admin.ui.profiles.editor import ProfileEditor
from portal_admin.ui.profiles.store import EnvironmentType, Profile, ProfileStore
from portal_admin.ui.signin.window import SignInWindow


def editing(window: SignInWindow, store: ProfileStore, profile: Profile | None) -> ProfileEditing:
    chosen: list[Profile] = []
    work = ProfileEditing(store, window, profile, chosen.append)
    work.open()
    assert work.editor.isVisible()
    return work


def test_new_then_edit_a_profile(qtbot: QtBot, window: SignInWindow, tmp_path: Path) -> None:
    store = ProfileStore(tmp_path / "profiles.json")
    asked: list[object] = []
    window.profileEditRequested.connect(asked.append)
    window.credentials.new_profile_button.click()
    assert asked == [None]

    work = editing(window, store, None)
    editor = work.editor
    editor.name.setText("Staging")
    editor.base_url.setText("https://staging.example.com")
    editor.environment.setCurrentIndex(editor.environment.findData("staging"))
    editor.save()
    stored = json.loads((tmp_path / "profiles.json").read_text(encoding="utf-8"))
    assert [p["name"] for p in stored["profiles"]] == ["Staging"]
    assert window.credentials.profile_combo.currentText() == "Staging"
    assert window.flow.profile.base_url == "https://staging.example.com"
    assert window.flow.profile.environment is EnvironmentType.STAGING

    window.credentials.edit_profile_button.click()
    assert asked[-1] == window.flow.profile  # the chosen profile is the one edited
    work = editing(window, store, window.flow.profile)
    work.editor.base_url.setText("https://staging2.example.com")
    work.editor.save()
    names = [p.name for p in store.load()]
    assert names.count("Staging") == 1  # replaced, not added
    assert window.flow.profile.base_url == "https://staging2.example.com"
    assert window.credentials.profile_combo.count() == len(names)


def test_a_managed_profile_is_shown_not_changed(
    qtbot: QtBot, window: SignInWindow, tmp_path: Path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    policy = tmp_path / "policy"
    policy.mkdir()
    (policy / "profiles.json").write_text(
        json.dumps(
            {
                "format": "portal-admin-profiles",
                "version": 1,
                "profiles": [
                    {
                        "name": "Corporate",
                        "base_url": "https://portal.corp.example",
                        "environment": "production",
                    }
                ],
            }
        ),
        encoding="utf-8",
    )
    monkeypatch.setenv("PORTAL_ADMIN_POLICY_DIR", str(policy))
    store = ProfileStore(tmp_path / "profiles.json")
    managed = next(p for p in store.load() if p.name == "Corporate")
    assert managed.managed
    work = editing(window, store, managed)
    assert work.editor.read_only
    work.save(managed.replace(base_url="https://elsewhere.example"))  # what a save would ask
    again = next(p for p in store.load() if p.name == "Corporate")
    assert again.base_url == "https://portal.corp.example"
    assert window.flow.profile.name == "Corporate"


def test_a_name_taken_by_a_managed_profile_is_refused(
    qtbot: QtBot, window: SignInWindow, tmp_path: Path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    policy = tmp_path / "policy"
    policy.mkdir()
    (policy / "profiles.json").write_text(
        json.dumps(
            {
                "format": "portal-admin-profiles",
                "version": 1,
                "profiles": [{"name": "Corporate", "base_url": "https://portal.corp.example"}],
            }
        ),
        encoding="utf-8",
    )
    monkeypatch.setenv("PORTAL_ADMIN_POLICY_DIR", str(policy))
    store = ProfileStore(tmp_path / "profiles.json")
    work = editing(window, store, None)
    work.save(Profile(name="corporate", base_url="https://mine.example"))
    assert work.box is not None and work.box.isVisible()
    assert "your organisation manages it" in work.box.text()
    assert not (tmp_path / "profiles.json").exists()  # nothing written
    work.box.close()


def test_no_editor_while_unlocking(qtbot: QtBot, window: SignInWindow) -> None:
    window.pin_email("admin@sandbox.test")
    assert not window.credentials.edit_profile_button.isVisible()
    assert not window.credentials.new_profile_button.isVisible()
    assert not window.findChildren(ProfileEditor)
    assert not window.findChildren(QMessageBox)


def test_the_builtin_sandbox_is_shown_to_test_not_to_change(
    qtbot: QtBot, window: SignInWindow, tmp_path: Path
) -> None:
    store = ProfileStore(tmp_path / "profiles.json")
    sandbox = store.load()[0]
    assert sandbox.builtin
    work = editing(window, store, sandbox)
    editor = work.editor
    assert editor.read_only and editor.managed_box.isVisible()
    assert "sandbox" in editor.managed_line.text()
    assert editor.test_button.isEnabled()
    save = editor.buttons.button(editor.buttons.StandardButton.Save)
    assert not save.isVisible()
    editor.reject()
