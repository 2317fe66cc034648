"""Log out and sign in again in the same program: the new session must work without errors."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
import qasync
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from portal_admin.sandbox import SandboxConfig, create_app
from portal_admin.ui.operations import Op
from portal_admin.ui.panels.registry import PanelRegistry, wait_idle
from support.program import build_program, sign_in_otp


@pytest.mark.qt_no_exception_capture
def test_operations_after_logout_and_sign_in_again_raise_nothing(
    qapp: QApplication,
    loop: qasync.QEventLoop,
    qtbot: QtBot,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    raised: list[str] = []
    monkeypatch.setattr(sys, "excepthook", lambda kind, exc, tb: raised.append(str(exc)))
    sandbox = create_app(SandboxConfig(seed_accounts=2, test_clock=True))
    app = build_program(qapp, tmp_path, sandbox, PanelRegistry())

    async def scenario() -> None:
        await sign_in_otp(app)
        await app.logout()
        await asyncio.sleep(0.05)  # deleteLater of the first main window
        window = app.sign_in_window
        assert window is not None and app.service is not None
        window.fill_demo_admin()
        assert await window.submit_credentials()
        tools = app.service.sandbox_tools()
        assert tools is not None
        assert await window.send_code()
        window.mfa.code.setText((await tools.mailbox("admin@sandbox.test"))[0].code or "")
        assert await window.submit_code()
        client = app.service.client
        await app.runner.run(Op(client.auth.profile, progress=True))
        await wait_idle(app.runner)

    try:
        loop.run_until_complete(asyncio.wait_for(scenario(), 60))
    finally:
        loop.run_until_complete(app.close())
    assert not raised, raised
