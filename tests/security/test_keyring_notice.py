"""No usable keyring: the refresh token stays in memory and the main window says so."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import qasync
from PySide6.QtWidgets import QApplication, QLabel, QStatusBar
from pytestqt.qtbot import QtBot

from portal_admin.client import MemoryTokenStore
from portal_admin.sandbox import SandboxConfig, create_app
from portal_admin.ui.app import Application
from portal_admin.ui.panels.registry import PanelRegistry
from support.program import build_program, sign_in_otp


@pytest.fixture
def program(
    qapp: QApplication, loop: qasync.QEventLoop, qtbot: QtBot, tmp_path: Path
) -> Iterator[Application]:
    sandbox = create_app(SandboxConfig(seed_accounts=2, test_clock=True))
    app = build_program(
        qapp,
        tmp_path,
        sandbox,
        PanelRegistry(),
        store=lambda: MemoryTokenStore(unavailable_reason="no keyring backend is usable"),
    )
    yield app
    loop.run_until_complete(app.close())


def _shown_texts(widget: Any) -> list[str]:
    texts = [w.text() for w in widget.findChildren(QLabel) if w.isVisible()]
    texts += [b.currentMessage() for b in widget.findChildren(QStatusBar)]
    return texts


def test_the_client_keeps_tokens_in_memory_and_reports_it(
    program: Application, loop: qasync.QEventLoop
) -> None:
    reasons: list[str] = []
    assert program.service is not None
    program.service.keyringUnavailable.connect(reasons.append)
    loop.run_until_complete(asyncio.wait_for(sign_in_otp(program), 60))
    assert reasons == ["no keyring backend is usable"]
    assert not program.service.client.auth.tokens_persistent


def test_the_main_window_shows_a_notice(program: Application, loop: qasync.QEventLoop) -> None:
    loop.run_until_complete(asyncio.wait_for(sign_in_otp(program), 60))
    assert program.workspace is not None
    texts = " ".join(_shown_texts(program.workspace.window)).lower()
    assert "keyring" in texts or "memory" in texts, texts
