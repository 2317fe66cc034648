""" "Test connection": the doctor dialog against the in-process sandbox (every step ok), with a
fault injected, a port nothing listens on, a profile that cannot be tested, stopping a run, and
the copied and saved report free of secrets."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest
import qasync
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from portal_admin.client import sandbox_transport
from portal_admin.connection.doctor import STEP_TITLES, Status, Step
from portal_admin.sandbox import SandboxConfig, create_app
from portal_admin.sandbox.faults import FaultConfig
from portal_admin.ui.doctor.dialog import DoctorDialog
from portal_admin.ui.doctor.service import DoctorRequest, profile_proxy
from portal_admin.ui.doctor.words import WORDS, describe, step_name
from portal_admin.ui.profiles.editor import ProfileEditor
from portal_admin.ui.profiles.store import Profile, sandbox_profile

T = TypeVar("T")
NETWORK = ("dns", "tcp", "proxy", "tls")
ACCESS_CODE = "PAC-SECRET-123"


def sandbox(**faults: Any) -> Callable[[], Any]:
    """A transport factory: a fresh in-memory sandbox with these fault settings."""

    def make() -> Any:
        options: dict[str, Any] = {"db": ":memory:", "seed_accounts": 0, "test_clock": True}
        options["portal_access_code"] = ACCESS_CODE
        if faults:
            options["faults"] = FaultConfig(**faults).specs()
        return sandbox_transport(create_app(SandboxConfig(**options)))

    return make


@pytest.fixture
def unused_port() -> int:
    """A loopback port nothing listens on (bound, then closed)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def run(loop: qasync.QEventLoop) -> Callable[[Coroutine[Any, Any, T]], T]:
    def runner(coro: Coroutine[Any, Any, T]) -> T:
        return loop.run_until_complete(asyncio.wait_for(coro, 60))

    return runner


async def completed(dialog: DoctorDialog) -> DoctorDialog:
    dialog.open()
    await dialog.service.wait()
    return dialog


def test_every_step_shown_and_ok_against_the_sandbox(qtbot: QtBot, run: Any) -> None:
    profile = sandbox_profile().replace(portal_access_code=ACCESS_CODE)
    dialog = DoctorDialog(profile, sandbox=sandbox())
    qtbot.addWidget(dialog)
    run(completed(dialog))
    assert [r.step.name for r in dialog.rows] == list(STEP_TITLES)
    by_name = {r.step.name: r for r in dialog.rows}
    for name in NETWORK:
        assert by_name[name].step.status is Status.SKIPPED
        assert by_name[name].icon.icon_name() == "state.skipped"
    for name in ("envelope", "clock", "public_key", "session", "headers", "languages"):
        row = by_name[name]
        assert row.step.status is Status.OK, (name, row.step.summary)
        assert row.icon.icon_name() == "state.ok"
        assert row.name.text() == step_name(name)
        assert row.summary.text()
        assert row.time.text().endswith(" s")
    assert dialog.report is not None and dialog.report.status is Status.OK
    assert dialog.verdict_icon.icon_name() == "state.ok"
    assert "Everything works" in dialog.verdict.text()
    assert dialog.copy_button.isEnabled() and dialog.save_button.isEnabled()
    assert dialog.again_button.isVisibleTo(dialog) and not dialog.stop_button.isVisibleTo(dialog)


def test_a_fault_is_shown_with_its_advice(qtbot: QtBot, run: Any) -> None:
    dialog = DoctorDialog(sandbox_profile(), sandbox=sandbox(clock_skew_s=600))
    qtbot.addWidget(dialog)
    dialog.request = DoctorRequest(
        "http://sandbox.test", ACCESS_CODE, transport=sandbox(clock_skew_s=600)
    )
    run(completed(dialog))
    clock = next(r for r in dialog.rows if r.step.name == "clock")
    assert clock.step.code == "clock.skew" and clock.step.status is Status.WARNING
    assert clock.icon.icon_name() == "state.warning"
    assert "ahead of this computer" in clock.summary.text() and "10 min" in clock.summary.text()
    assert clock.advice.isVisibleTo(dialog) and "NTP" in clock.advice.text()
    faults = next(r for r in dialog.rows if r.step.name == "sandbox")
    assert "clock_skew_s" in faults.summary.text() and "+600 s" in faults.summary.text()
    assert "look at the warnings" in dialog.verdict.text()


def test_a_server_error_fault_fails_the_envelope(qtbot: QtBot, run: Any) -> None:
    dialog = DoctorDialog(sandbox_profile())
    qtbot.addWidget(dialog)
    dialog.request = DoctorRequest(
        "http://sandbox.test", ACCESS_CODE, transport=sandbox(error_5xx_rate=1.0)
    )
    run(completed(dialog))
    envelope = dialog.rows[4].step
    assert envelope.name == "envelope" and envelope.status is Status.FAILED
    assert envelope.code == "http.server_error"
    assert "HTTP 5" in dialog.rows[4].summary.text()
    assert dialog.verdict_icon.icon_name() == "state.failed"
    assert "does not work" in dialog.verdict.text()


def test_a_port_nothing_listens_on_fails_at_tcp(qtbot: QtBot, run: Any, unused_port: int) -> None:
    dialog = DoctorDialog(Profile("Local", f"http://127.0.0.1:{unused_port}"))
    qtbot.addWidget(dialog)
    run(completed(dialog))
    tcp = next(r for r in dialog.rows if r.step.name == "tcp")
    assert tcp.step.code == "tcp.refused" and tcp.icon.icon_name() == "state.failed"
    assert "refused" in tcp.summary.text() and tcp.advice.text()
    assert len(dialog.rows) == len(STEP_TITLES)


def test_a_profile_that_cannot_be_tested_says_why(qtbot: QtBot, run: Any, tmp_path: Path) -> None:
    profile = Profile("Bad", "https://portal.example.com", ca_bundle=str(tmp_path / "missing.pem"))
    dialog = DoctorDialog(profile)
    qtbot.addWidget(dialog)
    run(completed(dialog))
    assert dialog.rows == [] and dialog.report is None
    assert "cannot be tested" in dialog.verdict.text() and "missing.pem" in dialog.verdict.text()
    assert not dialog.copy_button.isEnabled()


def test_why_a_profile_cannot_be_tested_is_in_the_interface_language(
    qtbot: QtBot, run: Any, tmp_path: Path
) -> None:
    from portal_admin.ui.i18n.translators import LanguageManager

    languages = LanguageManager()
    languages.set_language("ja")
    try:
        profile = Profile("Bad", "https://p.example.com", ca_bundle=str(tmp_path / "missing.pem"))
        dialog = DoctorDialog(profile)
        qtbot.addWidget(dialog)
        run(completed(dialog))
        verdict = dialog.verdict.text()
        assert "CA バンドル" in verdict  # the setting named in Japanese
        assert "missing.pem" in verdict  # the English detail after it
    finally:
        languages.set_language("en")


def test_stop_cancels_the_run_and_run_again_starts_afresh(qtbot: QtBot, run: Any) -> None:
    dialog = DoctorDialog(sandbox_profile())
    qtbot.addWidget(dialog)
    dialog.request = DoctorRequest(
        "http://sandbox.test", ACCESS_CODE, transport=sandbox(latency_ms=400)
    )

    async def stop_then_again() -> None:
        dialog.open()
        assert dialog.stop_button.isVisibleTo(dialog) and not dialog.again_button.isVisibleTo(
            dialog
        )
        await asyncio.sleep(0.3)
        dialog.stop_button.click()
        await dialog.service.wait()
        assert "stopped" in dialog.verdict.text() and dialog.report is None
        assert not dialog.copy_button.isEnabled()
        dialog.request = DoctorRequest("http://sandbox.test", ACCESS_CODE, transport=sandbox())
        dialog.again_button.click()
        await dialog.service.wait()

    run(stop_then_again())
    assert len(dialog.rows) == len(STEP_TITLES)
    assert dialog.report is not None and dialog.report.status is Status.OK


def test_closing_stops_the_run(qtbot: QtBot, run: Any) -> None:
    dialog = DoctorDialog(sandbox_profile())
    qtbot.addWidget(dialog)
    dialog.request = DoctorRequest(
        "http://sandbox.test", ACCESS_CODE, transport=sandbox(latency_ms=400)
    )

    async def close_early() -> None:
        dialog.open()
        await asyncio.sleep(0.2)
        dialog.reject()
        await dialog.service.wait()

    run(close_early())
    assert not dialog.service.running and dialog.report is None


def test_copied_and_saved_reports_hold_no_secret(qtbot: QtBot, run: Any, tmp_path: Path) -> None:
    profile = sandbox_profile().replace(portal_access_code=ACCESS_CODE)
    dialog = DoctorDialog(profile, sandbox=sandbox())
    qtbot.addWidget(dialog)
    run(completed(dialog))
    dialog.copy_button.click()
    copied = QGuiApplication.clipboard().text()
    assert copied.startswith("Connection doctor:") and "Secure Channel session" in copied
    assert run(dialog.save_report(str(tmp_path / "report.json")))
    assert run(dialog.save_report(str(tmp_path / "report.txt")))
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert [s["name"] for s in data["steps"]] == list(STEP_TITLES)
    text = (tmp_path / "report.txt").read_text(encoding="utf-8")
    assert text == copied
    for content in (copied, text, json.dumps(data)):
        assert ACCESS_CODE not in content
        assert "sessionId" not in content
    assert "report.txt" in dialog.note.text()


def test_saving_into_a_folder_that_cannot_be_written_says_so(
    qtbot: QtBot, run: Any, tmp_path: Path
) -> None:
    dialog = DoctorDialog(sandbox_profile(), sandbox=sandbox())
    qtbot.addWidget(dialog)
    run(completed(dialog))
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert not run(dialog.save_report(str(blocker / "r.txt")))
    assert "could not be saved" in dialog.note.text()


def test_the_profile_editor_tests_the_values_as_typed(qtbot: QtBot, run: Any) -> None:
    editor = ProfileEditor(sandbox_profile())
    qtbot.addWidget(editor)
    editor.sandbox_transport = sandbox()
    editor.access_code.setText(ACCESS_CODE)

    async def test() -> DoctorDialog:
        editor.test_button.click()
        dialog = editor.doctor
        assert isinstance(dialog, DoctorDialog)
        await dialog.service.wait()
        return dialog

    dialog = run(test())
    assert dialog.request.access_code == ACCESS_CODE  # unsaved text
    assert dialog.report is not None and dialog.report.status is Status.OK
    headers = next(r for r in dialog.rows if r.step.name == "headers")
    assert headers.step.details["accessCodeGiven"] is True


def test_every_code_has_words_and_unknown_codes_fall_back_to_english() -> None:
    step = Step("tcp", Status.FAILED, 0.1, "Something new happened.", "tcp.brand_new", "Do X.")
    assert describe(step) == ("Something new happened.", "Do X.")
    bad = Step("dns", Status.OK, 0.1, "example resolves.", "dns.ok", details={})
    assert describe(bad) == ("example resolves.", "")  # details that do not fit: English
    for code in ("tcp.refused", "tls.untrusted", "sc.session_lost", "http.html_page"):
        assert code in WORDS
    assert step_name("unknown_step") == "unknown_step"


def test_japanese_words(qtbot: QtBot, run: Any) -> None:
    from portal_admin.ui.i18n.translators import LanguageManager

    languages = LanguageManager()
    languages.set_language("ja")
    try:
        assert step_name("clock") != "Server clock"
        step = Step(
            "tcp", Status.FAILED, 0.1, "x", "tcp.refused", "y", {"tried": {"10.0.0.1": "refused"}}
        )
        summary, advice = describe(step)
        assert "10.0.0.1" in summary and summary != "x" and advice != "y"
    finally:
        languages.set_language("en")


def test_proxy_of_a_profile() -> None:
    assert profile_proxy(Profile("P", "https://x")) is None


@pytest.mark.parametrize("language", ["en", "ja"])
def test_pictures_of_the_dialog(qtbot: QtBot, run: Any, shots: Path, language: str) -> None:
    from portal_admin.ui.i18n.translators import LanguageManager

    languages = LanguageManager()
    languages.set_language(language)
    try:
        dialog = DoctorDialog(sandbox_profile(), sandbox=sandbox())
        qtbot.addWidget(dialog)
        dialog.request = DoctorRequest(
            "http://sandbox.test", ACCESS_CODE, transport=sandbox(clock_skew_s=600)
        )
        dialog.show()
        run(completed(dialog))
        picture = dialog.grab()
        assert picture.width() >= 600 and picture.height() >= 500
        assert picture.save(str(shots / f"doctor-{language}.png"))
        clock = next(r for r in dialog.rows if r.step.name == "clock")
        if language == "ja":
            assert clock.name.text() == "サーバーの時計" and "進んでいます" in clock.summary.text()
            assert dialog.again_button.text() == "再実行(&R)"
    finally:
        languages.set_language("en")
