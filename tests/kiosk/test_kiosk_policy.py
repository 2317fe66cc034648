"""The machine's kiosk policy cannot be overridden from the command line or from the UI."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path

import pytest
import qasync
from PySide6.QtWidgets import QApplication

from portal_admin.ui.kiosk import policy as policy_module
from portal_admin.ui.kiosk.policy import PolicyError, load_policy
from portal_admin.ui.kiosk.startup import start_options
from portal_admin.ui.profiles.editor import ProfileEditor
from portal_admin.ui.startup.options import StartOptions
from support.program import make_program

from .support import RecordingApp, run, sign_in_auditor

INLINE = {
    "name": "Audit workstation",
    "base_url": "https://portal.example.com",
    "environment": "production",
    "portal_access_code": "PORTAL-7",
}


def write_policy(folder: Path, **content: object) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / policy_module.POLICY_FILE
    path.write_text(json.dumps(content), encoding="utf-8")
    return path


def test_command_line_cannot_override_the_policy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    write_policy(
        tmp_path / "policy",
        profile=INLINE,
        idle_sign_out_minutes=3,
        csv_export=False,
        languages=["en", "ja"],
    )
    monkeypatch.setenv(policy_module.POLICY_DIR_ENV, str(tmp_path / "policy"))
    caplog.set_level(logging.WARNING)
    options = start_options(["--profile", "Staging", "--lang", "vi", "--sandbox", "--tour", "x"])
    assert options.kiosk  # without --kiosk
    assert options.profile is None and not options.sandbox and options.tour is None
    assert options.lang is None  # vi is not offered
    assert options.policy is not None and options.policy.idle_sign_out_minutes == 3
    notices = caplog.text
    for word in ("kiosk mode is forced", "--profile 'Staging' ignored", "--lang vi ignored"):
        assert word in notices
    assert start_options(["--lang", "ja"]).lang == "ja"  # an offered language stays


def test_start_up_pins_the_policy_profile_read_only(
    qapp: QApplication,
    loop: qasync.QEventLoop,
    tmp_path: Path,
    recorder: RecordingApp,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    write_policy(tmp_path / "policy", profile=INLINE, languages=["ja"])
    monkeypatch.setenv(policy_module.POLICY_DIR_ENV, str(tmp_path / "policy"))
    app = make_program(
        qapp, start_options(["--profile", "Other", "--lang", "en"]), recorder, tmp_path
    )
    try:
        window = app.start()
        assert app.profile.name == "Audit workstation" and app.profile.kiosk
        assert app.service is not None and app.service.client.read_only
        assert app.languages.language.code == "ja"  # --lang en ignored: only ja is offered
        assert [p.name for p in window.profiles] == ["Audit workstation"]
        assert app.kiosk is not None and app.kiosk.csv_export
        assert not window.close() and window.isVisible()
    finally:
        run(loop, app.close())
        app.languages.set_language("en")


def test_the_system_folder_wins_over_the_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    system = write_policy(tmp_path / "system", profile="Sandbox", csv_export=False)
    write_policy(tmp_path / "user", profile="Sandbox", csv_export=True)
    monkeypatch.setattr(policy_module, "system_policy_dir", lambda: tmp_path / "system")
    monkeypatch.setenv(policy_module.POLICY_DIR_ENV, str(tmp_path / "user"))
    found = load_policy()
    assert found is not None and found.source == system and not found.csv_export
    # a variable pointing at an empty folder cannot remove the machine's policy either
    monkeypatch.setenv(policy_module.POLICY_DIR_ENV, str(tmp_path / "nothing"))
    assert load_policy() is not None


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        json.dumps({"profile": "Sandbox", "kiosk": False}),
        json.dumps({"profile": 5}),
        json.dumps({"profile": "Sandbox", "csv_export": "no"}),
        json.dumps({"profile": "Sandbox", "languages": ["tlh"]}),
        json.dumps({"profile": "Sandbox", "exit_allowed": True}),
    ],
)
def test_a_damaged_policy_fails_closed(tmp_path: Path, content: str) -> None:
    (tmp_path / "policy.json").write_text(content, encoding="utf-8")
    with pytest.raises(PolicyError):
        load_policy([tmp_path / "policy.json"])


def test_ui_offers_no_way_out(
    qapp: QApplication,
    loop: qasync.QEventLoop,
    tmp_path: Path,
    recorder: RecordingApp,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    write_policy(
        tmp_path / "policy",
        profile="Sandbox",
        idle_sign_out_minutes=1,
        csv_export=False,
        languages=["en", "ja"],
    )
    monkeypatch.setenv(policy_module.POLICY_DIR_ENV, str(tmp_path / "policy"))
    options = start_options(["--sandbox", "--lang", "en"])
    app = make_program(qapp, options, recorder, tmp_path)
    try:
        sign_in = app.start()
        # the sign-in window offers the pinned profile only: no Edit…, no New…
        assert not sign_in.credentials.edit_profile_button.isVisibleTo(sign_in)
        assert not sign_in.credentials.new_profile_button.isVisibleTo(sign_in)
        workspace = run(loop, sign_in_auditor(app))
        main = workspace.window
        # no profile editor, no password change, no quit; close refused
        assert not any(isinstance(w, ProfileEditor) for w in QApplication.topLevelWidgets())
        assert "change_password" not in workspace.context.extras
        assert main.file_menu.actions() == [main.lock_action, main.logout_action]
        assert not main.change_password_action.isVisible()
        main.quit_action.trigger()  # even if reached somehow: disabled
        assert not app.quit_requested
        assert not main.close() and main.isVisible()
        # only the languages the policy offers; another one is ignored
        assert set(main.language_actions) == {"en", "ja"}
        app.set_language("vi")
        assert app.languages.language.code == "en"
        # CSV export switched off: the Export buttons are hidden
        panel = main.show_panel("invitations")
        assert panel is not None
        run(loop, asyncio.sleep(0.3))
        from portal_admin.ui.lists.paged_list import PagedList

        views = panel.findChildren(PagedList)
        assert views and not any(v.export_button.isVisible() for v in views)
        assert views[0].refresh_button.isVisible()
        assert run(loop, views[0].export()) is None  # refused even when called directly
        # the idle time signs out (not just locks): back to the kiosk sign-in
        assert main.idle.interval_ms == 60_000
        main.idle.set_interval_ms(50)

        async def signed_out() -> None:
            for _ in range(200):
                if app.workspace is None and app.sign_in_window is not None:
                    return
                await asyncio.sleep(0.02)

        run(loop, signed_out())
        assert app.workspace is None and app.sign_in_window is not None
        assert app.sign_in_window.isVisible()
    finally:
        run(loop, app.close())
        app.languages.set_language("en")


def test_plain_kiosk_option_without_policy(tmp_path: Path) -> None:
    options = start_options(["--kiosk", "--lang", "vi"])
    assert options == StartOptions(kiosk=True, lang="vi")
