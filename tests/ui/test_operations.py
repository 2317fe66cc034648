"""The operation runner, error descriptions and the error window; confirmation."""

from __future__ import annotations

import asyncio
from pathlib import Path

import shiboken6
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QMessageBox

from portal_admin.ui.error_info import ErrorInfo, describe_error
from portal_admin.ui.operations import Op, OperationRunner
from portal_admin.ui.profiles.store import EnvironmentType, Profile
from portal_admin.ui.widgets.confirm import confirm, confirm_production_change
from portal_admin.ui.widgets.error_dialog import ErrorDialog, show_error

from .fakes import FakePortalError

PROD = Profile("Prod", "https://p.example", environment=EnvironmentType.PRODUCTION)


class Recorder:
    def __init__(self) -> None:
        self.shown: list[tuple[ErrorInfo, str]] = []

    def __call__(self, info: ErrorInfo, title: str, parent: object) -> None:
        self.shown.append((info, title))


def test_success_publishes_changes(loop) -> None:
    rec = Recorder()
    runner = OperationRunner(rec)
    changed: list[frozenset[str]] = []
    busy: list[bool] = []
    results: list[int] = []
    runner.changed.connect(changed.append)
    runner.busyChanged.connect(busy.append)

    async def work() -> int:
        assert runner.busy
        return 42

    async def scenario() -> int | None:
        op = Op(work, on_success=results.append, changes=frozenset({"accounts"}))
        return await runner.run(op)

    assert loop.run_until_complete(scenario()) == 42
    assert results == [42] and changed == [frozenset({"accounts"})] and busy == [True, False]
    assert rec.shown == [] and not runner.tasks


def test_portal_error_shown_with_code_and_request_id(loop) -> None:
    rec = Recorder()
    runner = OperationRunner(rec)
    ids: list[str] = []
    runner.requestIdChanged.connect(ids.append)

    async def fail() -> None:
        raise FakePortalError("AUTH.INVALID_CREDENTIALS", 401, "Wrong email or password", "rid-1")

    result = loop.run_until_complete(runner.execute(Op(fail, title="Could not sign in")))
    assert result is None
    info, title = rec.shown[0]
    assert title == "Could not sign in"
    assert info.code == "AUTH.INVALID_CREDENTIALS" and info.request_id == "rid-1"
    assert info.http_status == 401 and info.message == "Wrong email or password"
    assert "signed in" in info.summary and not info.unexpected
    assert ids == ["rid-1"] and runner.last_request_id == "rid-1"


def test_failure_handler_can_take_over(loop) -> None:
    rec = Recorder()
    runner = OperationRunner(rec)
    handled: list[BaseException] = []

    async def fail() -> None:
        raise FakePortalError("X", 409, "conflict", "r")

    loop.run_until_complete(
        runner.execute(Op(fail, on_failure=lambda e: handled.append(e) or True))
    )
    assert len(handled) == 1 and rec.shown == []


def test_unexpected_errors_never_crash(loop, caplog) -> None:
    rec = Recorder()
    runner = OperationRunner(rec)

    async def bug() -> None:
        raise KeyError("oops")

    def bad_success(_: object) -> None:
        raise ZeroDivisionError

    async def ok() -> int:
        return 1

    loop.run_until_complete(runner.execute(Op(bug)))
    loop.run_until_complete(runner.execute(Op(ok, on_success=bad_success)))
    assert [i.unexpected for i, _ in rec.shown] == [True, True]
    assert "KeyError" in rec.shown[0][0].message and "Traceback" in rec.shown[0][0].details
    assert "failed unexpectedly" in caplog.text
    assert not runner.busy


def test_cancel_all(loop) -> None:
    runner = OperationRunner(Recorder())

    async def forever() -> None:
        await asyncio.Event().wait()

    async def scenario() -> None:
        task = runner.run(Op(forever))
        await asyncio.sleep(0.01)
        assert runner.busy
        await runner.cancel_all()
        assert task.cancelled() and not runner.busy

    loop.run_until_complete(scenario())


def test_describe_network_errors() -> None:
    assert "reached" in describe_error(ConnectionRefusedError("x")).summary
    assert "in time" in describe_error(TimeoutError()).summary


def test_error_dialog(qtbot, shots: Path) -> None:
    info = describe_error(FakePortalError("ACCOUNT.NOT_FOUND", 404, "Account not found", "0f1e-77"))
    dialog = show_error(info, "Could not load the account")
    qtbot.addWidget(dialog)
    assert isinstance(dialog, ErrorDialog) and not dialog.isModal()
    assert dialog.request_field.text() == "0f1e-77" and dialog.request_field.isReadOnly()
    dialog.copy_button.click()
    assert "0f1e-77" in QGuiApplication.clipboard().text()
    assert "ACCOUNT.NOT_FOUND" in QGuiApplication.clipboard().text()
    dialog.grab().save(str(shots / "error-dialog.png"))
    dialog.close()


def _box() -> QMessageBox:
    boxes = [
        w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()
    ]
    assert len(boxes) == 1
    return boxes[0]


def test_confirm_production_change(loop, qtbot, shots: Path) -> None:
    async def scenario(click_confirm: bool) -> bool:
        task = asyncio.ensure_future(
            confirm_production_change(None, PROD, "Suspend the account ann@example.com?")
        )
        await asyncio.sleep(0.01)
        box = _box()
        assert "PRODUCTION" in box.informativeText()
        if click_confirm:
            box.grab().save(str(shots / "confirm-production.png"))
            next(b for b in box.buttons() if b.text() == "Apply change").click()
        else:
            box.reject()
        return await task

    assert loop.run_until_complete(scenario(True)) is True
    assert loop.run_until_complete(scenario(False)) is False
    staging = PROD.replace(environment=EnvironmentType.STAGING)
    assert loop.run_until_complete(confirm_production_change(None, staging, "x")) is True


def test_confirm_cancelled_task_closes_dialog(loop, qtbot) -> None:
    async def scenario() -> None:
        task = asyncio.ensure_future(confirm(None, title="t", text="x", confirm_text="Do"))
        await asyncio.sleep(0.01)
        box = _box()
        task.cancel()
        await asyncio.sleep(0.01)
        assert not shiboken6.isValid(box) or not box.isVisible()

    loop.run_until_complete(scenario())


def test_error_summary_comes_from_the_exception_class() -> None:
    """A refused refresh (AuthenticationError with a 404 code) reads as signed out."""
    from portal_admin.client import AuthenticationError

    exc = AuthenticationError(
        "session ended", code="AUTH.SESSION_NOT_FOUND", http_status=404, request_id="r-1"
    )
    info = describe_error(exc)
    assert "signed in" in info.summary
    assert info.code == "AUTH.SESSION_NOT_FOUND" and info.request_id == "r-1"
