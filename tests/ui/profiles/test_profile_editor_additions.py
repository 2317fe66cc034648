"""The profile editor's proxy, certificate pins ("Read from server" too), managed profiles, and
Export…/Import… of profiles (what an import would do; a faulty file names its field)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest
import qasync
from PySide6.QtWidgets import QComboBox, QDialogButtonBox, QLineEdit
from pytestqt.qtbot import QtBot

from portal_admin.connection.doctor import Report, Status, Step
from portal_admin.ui.doctor.service import DoctorRequest, profile_proxy
from portal_admin.ui.profiles.editor import ProfileEditor
from portal_admin.ui.profiles.store import Profile, ProxyMode, sandbox_profile, validate

T = TypeVar("T")
PIN = "ab:" * 31 + "ab"
PROD = Profile("Prod", "https://portal.example.com", portal_access_code="PAC-SECRET")
CORP = Profile("Corp", "https://portal.corp.example", managed=True)


@pytest.fixture
def run(loop: qasync.QEventLoop) -> Callable[[Coroutine[Any, Any, T]], T]:
    def runner(coro: Coroutine[Any, Any, T]) -> T:
        return loop.run_until_complete(asyncio.wait_for(coro, 60))

    return runner


def editor_for(
    qtbot: QtBot, profile: Profile, others: list[Profile] | None = None
) -> ProfileEditor:
    editor = ProfileEditor(profile, others)
    qtbot.addWidget(editor)
    return editor


def test_proxy_modes_round_trip_and_reach_the_doctor(qtbot: QtBot) -> None:
    editor = editor_for(qtbot, PROD)
    assert editor.proxy_mode.currentData() == "system" and not editor.proxy_url.isEnabled()
    assert profile_proxy(editor.profile()) is None
    editor.proxy_mode.setCurrentIndex(editor.proxy_mode.findData("none"))
    assert (
        editor.profile().proxy_mode is ProxyMode.NONE and profile_proxy(editor.profile()) is False
    )
    editor.proxy_mode.setCurrentIndex(editor.proxy_mode.findData("manual"))
    assert editor.proxy_url.isEnabled()
    editor.proxy_url.setText("http://proxy.corp:3128")
    profile = editor.profile()
    assert profile.proxy_mode is ProxyMode.MANUAL and profile.proxy_url == "http://proxy.corp:3128"
    assert DoctorRequest.for_profile(profile).proxy == "http://proxy.corp:3128"
    again = editor_for(qtbot, profile)
    assert (
        again.proxy_mode.currentData() == "manual" and again.proxy_url.text() == profile.proxy_url
    )


def test_proxy_and_pin_validation_is_translated_and_named(qtbot: QtBot) -> None:
    editor = editor_for(qtbot, PROD)
    editor.proxy_mode.setCurrentIndex(editor.proxy_mode.findData("manual"))
    editor.proxy_url.setText("http://user:secret@proxy:3128")
    editor.pins.setText("not-a-pin")
    saved: list[Profile] = []
    editor.profileSaved.connect(saved.append)
    editor.save()
    assert not saved and editor.problems.isVisibleTo(editor)
    text = editor.problems.text()
    assert "proxy URL" in text and "not-a-pin" in text and "SHA-256" in text
    editor.proxy_url.setText("http://proxy:3128")
    editor.pins.setText(PIN.upper().replace(":", ""))
    editor.save()
    assert saved and saved[0].pinned_certificates == (PIN,)
    assert validate(saved[0]) == []


def test_read_pin_from_server_fills_the_fingerprint(qtbot: QtBot, run: Any) -> None:
    editor = editor_for(qtbot, PROD)
    report = Report("https://portal.example.com", "now")
    report.add(
        Step("tls", Status.OK, 0.1, "ok", "tls.ok", details={"certificate": {"sha256": PIN}})
    )
    editor._pin_from_report(report)
    assert editor.pins.text() == PIN and editor.pin_note.isVisibleTo(editor)
    editor._pin_from_report(Report("x", "now"))
    assert "no certificate" in editor.pin_note.text() and editor.pins.text() == PIN


def test_read_pin_runs_the_doctor(qtbot: QtBot, run: Any) -> None:
    editor = editor_for(qtbot, sandbox_profile())
    assert not editor.read_pin.isEnabled()  # the built-in sandbox has no TLS
    editor = editor_for(qtbot, Profile("Local", "http://127.0.0.1:9"))

    async def read() -> None:
        dialog = editor.read_pin_from_server()
        await dialog.service.wait()  # type: ignore[attr-defined]

    run(read())
    assert "no certificate" in editor.pin_note.text()


def test_a_managed_profile_is_shown_read_only(qtbot: QtBot) -> None:
    editor = editor_for(qtbot, CORP, [CORP, PROD])
    assert editor.managed_box.isVisibleTo(editor)
    assert "Managed by your organisation" in editor.managed_line.text()
    assert editor.managed_icon.icon_name() == "state.managed"
    for line in editor.findChildren(QLineEdit):
        assert line.isReadOnly() or not line.isEnabled(), line.objectName()
    for combo in editor.findChildren(QComboBox):
        assert not combo.isEnabled()
    assert not editor.buttons.button(QDialogButtonBox.StandardButton.Save).isEnabled()
    saved: list[Profile] = []
    editor.profileSaved.connect(saved.append)
    editor.save()
    assert not saved
    assert editor.profile().managed
    assert editor.test_button.isEnabled() and editor.export_button.isEnabled()
    assert not editor_for(qtbot, PROD).managed_box.isVisibleTo(editor)


def test_export_writes_a_file_without_access_codes(qtbot: QtBot, tmp_path: Path) -> None:
    editor = editor_for(qtbot, PROD, [sandbox_profile(), PROD, CORP])
    path = tmp_path / "profiles.json"
    assert editor.transfer.write(str(path))
    data = json.loads(path.read_text(encoding="utf-8"))
    assert [p["name"] for p in data["profiles"]] == ["Prod", "Corp"]
    assert "PAC-SECRET" not in path.read_text(encoding="utf-8")
    assert "2 profiles were exported" in editor.notice.text()
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    assert not editor.transfer.write(str(blocker / "x.json"))
    assert "could not be written" in editor.notice.text()


def write_file(path: Path, profiles: list[dict[str, Any]]) -> Path:
    document = {"format": "portal-admin-profiles", "version": 1, "profiles": profiles}
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_import_shows_what_it_adds_and_replaces(qtbot: QtBot, tmp_path: Path) -> None:
    editor = editor_for(qtbot, PROD, [sandbox_profile(), PROD, CORP])
    path = write_file(
        tmp_path / "in.json",
        [
            {"name": "Prod", "base_url": "https://new.example.com"},
            {"name": "Staging", "base_url": "https://staging.example.com"},
            {"name": "Corp", "base_url": "https://other.example.com"},
        ],
    )
    got: list[list[Profile]] = []
    editor.profilesImported.connect(got.append)
    preview = editor.transfer.read(str(path))
    assert preview is not None
    text = preview.summary.text()
    assert "Adds: Staging" in text and "Replaces: Prod" in text and "Corp" in text
    assert preview.replace.isVisibleTo(preview) and preview.replace.isChecked()
    preview.accept()
    assert got
    names = {p.name: p for p in got[0]}
    assert list(names) == ["Sandbox", "Prod", "Corp", "Staging"]
    assert names["Prod"].base_url == "https://new.example.com"
    assert names["Corp"].base_url == CORP.base_url and names["Corp"].managed
    assert "imported" in editor.notice.text()


def test_import_without_replacing_keeps_mine(qtbot: QtBot, tmp_path: Path) -> None:
    editor = editor_for(qtbot, PROD, [PROD])
    path = write_file(tmp_path / "in.json", [{"name": "Prod", "base_url": "https://new.example"}])
    got: list[list[Profile]] = []
    editor.profilesImported.connect(got.append)
    preview = editor.transfer.read(str(path))
    assert preview is not None
    preview.replace.setChecked(False)
    preview.accept()
    assert got[0][0].base_url == PROD.base_url


@pytest.mark.parametrize(
    ("content", "named"),
    [
        ({"name": "X", "base_url": "ftp://x"}, "profiles[0].base_url"),
        ({"name": "X", "base_url": "https://x", "password": "hunter2"}, "profiles[0].password"),
        ({"name": "X", "base_url": "https://x", "proxy_mode": "sometimes"}, "proxy_mode"),
    ],
)
def test_a_faulty_file_names_the_field_and_imports_nothing(
    qtbot: QtBot, tmp_path: Path, content: dict[str, Any], named: str
) -> None:
    editor = editor_for(qtbot, PROD, [PROD])
    path = write_file(tmp_path / "bad.json", [{"name": "Good", "base_url": "https://ok"}, content])
    got: list[Any] = []
    editor.profilesImported.connect(got.append)
    assert editor.transfer.read(str(path)) is None
    assert not got
    assert named.replace("[0]", "[1]") in editor.notice.text() or named in editor.notice.text()
    assert "Nothing was imported" in editor.notice.text()
    assert "hunter2" not in editor.notice.text()


def test_a_file_that_is_not_json_says_so(qtbot: QtBot, tmp_path: Path) -> None:
    editor = editor_for(qtbot, PROD, [PROD])
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    assert editor.transfer.read(str(path)) is None
    assert "cannot be imported" in editor.notice.text()


def test_the_profile_pins_reach_the_doctor_and_are_worded() -> None:
    from portal_admin.ui.doctor.words import describe

    profile = PROD.replace(pinned_certificates=(PIN,))
    assert DoctorRequest.for_profile(profile).pins == (PIN,)
    cert = {"subject": "portal.example.com", "sha256": "cd:" * 31 + "cd"}
    ok = Step(
        "tls",
        Status.OK,
        0.1,
        "x",
        "tls.ok",
        details={"version": "TLSv1.3", "certificate": cert, "pin": "ok"},
    )
    assert "matches the pin" in describe(ok)[0]
    bad = Step("tls", Status.FAILED, 0.1, "x", "tls.pin_mismatch", "y", {"certificate": cert})
    summary, advice = describe(bad)
    assert cert["sha256"] in summary and "do not sign in" in advice
