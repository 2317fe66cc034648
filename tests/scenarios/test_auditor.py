"""The auditor's path, in Japanese, in the kiosk, through the real windows: sign in with an
e-mail code, open a campaign file, decide items from the keyboard (K, J + typing + Escape, R,
D), sign off with items undecided (answering the question, when the program asks one), write
the campaign's evidence pack and verify it, close the campaign (answering its question) and
open it again. Once with no keyring, once with gnome-keyring.

The campaign file is made beforehand with the engine (the administrator's part, not the
auditor's path).
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
import qasync
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLineEdit, QMessageBox

from portal_admin.client import MemoryTokenStore, PortalClient
from portal_admin.connection.builtin import SANDBOX_BASE_URL
from portal_admin.connection.profiles import client_options
from portal_admin.evidence.snapshot import take_snapshot
from portal_admin.reviews import Settings, create_campaign
from portal_admin.ui.app import Application
from portal_admin.ui.panels.evidence.pack_check_dialog import PackCheckDialog
from portal_admin.ui.panels.reviews.queue_model import DECISION_COLUMN
from portal_admin.ui.profiles.store import sandbox_profile
from portal_admin.ui.session.sandbox_factory import transport_for_app
from support.accounts import ADMIN_EMAIL, AUDITOR_EMAIL, AUDITOR_PASSWORD
from support.portal import sign_in

from . import landed
from .driver import (
    SHOTS_ENV,
    Steps,
    answer,
    choose_file,
    click,
    click_row,
    cut_off,
    picture,
    press,
    settle,
    shots_folder,
    shown,
    type_into,
    until,
    wait_window,
)
from .keyrings import (
    NONE,
    REAL,
    has_key_file_fallback,
    inside_real_keyring,
    no_keyring,
    run_in_real_keyring,
)
from .program import new_sandbox, open_panel, run_program, sign_in_with_email_code
from .test_administrator import check_keys, key_notice, said

__all__ = ["no_keyring"]  # fixture

CAMPAIGN = "Q4 access review"


async def make_campaign(sandbox: Any, folder: Path) -> Path:
    """Set-up: the administrator's snapshot of the sandbox and a campaign file made of it."""
    profile = sandbox_profile()
    client = PortalClient(
        SANDBOX_BASE_URL,  # as the program's client calls the built-in sandbox
        client_options(profile),
        transport=transport_for_app(sandbox),
        token_store=MemoryTokenStore(),
    )
    async with client:
        await sign_in(client, method="OTP")
        scope = folder / "scope.sqlite3"
        await take_snapshot(
            client, scope, profile=profile.name, server=str(client.base_url), account=ADMIN_EMAIL
        )
    path = folder / "q4.review"
    create_campaign(path, scope, Settings(CAMPAIGN, "2026-12-31")).close()
    return path


def decisions(path: Path) -> dict[str, str | None]:
    """Each item's decision as the file holds it (label -> decision)."""
    with closing(sqlite3.connect(path)) as conn:
        return dict(conn.execute("SELECT label, decision FROM items").fetchall())


def count(path: Path, table: str) -> int:
    """The rows of ``table`` in the campaign file."""
    with closing(sqlite3.connect(path)) as conn:
        return int(conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])


async def key_on(panel: Any, key: Qt.Key) -> None:
    """A key pressed in the queue; waits for what it started."""
    await press(panel.table, key)
    await settle(0.1)
    waiting = getattr(panel, "wait_idle", None)
    if waiting is not None:
        await waiting()


async def auditors_path(
    app: Application, campaign: Path, tmp_path: Path, lang: str = "ja"
) -> Steps:
    """The whole walk; returns its timed steps. Its pictures are named ``<lang>-auditor-*``."""
    steps = Steps(f"auditor ({lang}, kiosk)")
    main, seen = await sign_in_with_email_code(app, AUDITOR_EMAIL, AUDITOR_PASSWORD)
    steps.step(f"sign in with the e-mail code (Demo mailbox; {seen})")
    main.resize(1280, 800)
    await picture(main, f"{lang}-auditor-main-window")
    await key_notice(main, steps, f"{lang}-auditor-key-notice")

    panel = await open_panel(main, "campaigns")
    reviewer = getattr(panel, "reviewer", None)
    if isinstance(reviewer, QLineEdit) and not reviewer.isReadOnly():
        await type_into(reviewer, "監査 花子")  # the reviewer's name, typed (main's panel)
    await click(panel.open_button)
    await choose_file(campaign)
    await until(lambda: panel.campaign is not None and panel.model.rowCount() > 0, 30,
                "the campaign's queue")  # fmt: skip
    steps.step("open the campaign file (Open…, the file window)")
    total = panel.model.rowCount()
    assert total >= 5

    await click_row(panel.table, 0)
    first = decisions(campaign)
    await key_on(panel, Qt.Key.Key_J)  # to the justification field
    assert panel.justification.hasFocus()
    await type_into(panel.justification, "退職済み（人事部確認）")
    await press(panel.justification, Qt.Key.Key_Escape)  # back to the queue
    await key_on(panel, Qt.Key.Key_R)
    await key_on(panel, Qt.Key.Key_J)
    await type_into(panel.justification, "担当者に確認中")
    await press(panel.justification, Qt.Key.Key_Escape)
    await key_on(panel, Qt.Key.Key_D)
    await key_on(panel, Qt.Key.Key_J)
    await type_into(panel.justification, "業務上必要")
    await press(panel.justification, Qt.Key.Key_Escape)
    await key_on(panel, Qt.Key.Key_K)
    await until(lambda: sum(v is not None for v in decisions(campaign).values()) >= 3, 20,
                "three decisions recorded")  # fmt: skip
    after = decisions(campaign)
    decided = {k: v for k, v in after.items() if v is not None and first.get(k) is None}
    assert sorted(decided.values()) == ["DONT_KNOW", "KEEP", "REVOKE"], (
        decided,
        said(panel.message),
    )
    await picture(main, f"{lang}-auditor-decided")
    assert not cut_off(panel.table, DECISION_COLUMN), "decisions shown cut off"
    steps.step("decide three items from the keyboard (J, typing, Escape, R / D / K)")

    before = said(panel.message)
    await click(panel.sign_button)
    await until(lambda: shown(QMessageBox) is not None or said(panel.message) != before, 30,
                "the sign-off question or its outcome")  # fmt: skip
    box = shown(QMessageBox)
    if box is not None:
        await picture(box, f"{lang}-auditor-sign-off-confirmation")
        await answer(box, QMessageBox.ButtonRole.AcceptRole)
    else:
        assert not landed.campaign_questions(), "no question before signing off undecided items"
        steps.step("FINDING: signed off with undecided items without a question")
    await until(lambda: said(panel.message) != before, 30, "the sign-off's outcome")
    assert count(campaign, "signoffs") == 1, said(panel.message)
    await settle(0.3)
    await picture(main, f"{lang}-auditor-signed-off")
    steps.step("sign off with undecided items")

    pack_to = tmp_path / "q4-evidence.zip"
    before = said(panel.message)
    await click(panel.pack_button)
    await choose_file(pack_to)
    await until(lambda: said(panel.message) != before, 60, "the pack written")
    assert pack_to.exists(), said(panel.message)
    steps.step("write the campaign's evidence pack")

    await click(panel.verify_button)
    await settle(0.5)
    await picture(main, f"{lang}-auditor-signoffs-verified")
    snapshots = await open_panel(main, "snapshots")
    await click(snapshots.verify_button)
    await choose_file(pack_to)
    check = await wait_window(PackCheckDialog, timeout=60)
    await settle(0.3)
    await picture(check, f"{lang}-auditor-pack-verified")
    assert check.check is not None and check.check.status == "intact", check.text
    await click(check.buttons.buttons()[0])
    steps.step("verify the sign-offs and the pack (Verify a pack…)")

    panel = await open_panel(main, "campaigns")
    before = said(panel.message)
    await click(panel.close_button)
    await until(lambda: shown(QMessageBox) is not None or said(panel.message) != before, 60,
                "the close question or its outcome")  # fmt: skip
    box = shown(QMessageBox)
    if box is not None:
        await picture(box, f"{lang}-auditor-close-confirmation")
        await answer(box, QMessageBox.ButtonRole.AcceptRole)
    else:
        assert not landed.campaign_questions(), "no question before closing"
        steps.step("FINDING: closed without a question")
    await until(lambda: panel.closing.isVisible() or said(panel.message) != before, 60,
                "the closing check")  # fmt: skip
    await settle(0.3)
    await picture(main, f"{lang}-auditor-closed")
    assert panel.closing.isVisible(), said(panel.message)
    steps.step("close the campaign (closing snapshot and check)")

    await click(panel.open_button)
    await choose_file(campaign)
    await until(lambda: panel.campaign is not None and panel.closing.isVisible(), 30,
                "the closed campaign opened again")  # fmt: skip
    await picture(main, f"{lang}-auditor-reopened")
    main.resize(1024, 700)  # the smallest size the tour pictures, every panel seen built
    await until(lambda: main.width() == 1024, 5, "the window at 1024 pixels")
    await picture(main, f"{lang}-auditor-reopened-1024")
    assert not panel.sign_button.isEnabled() or not panel.close_button.isEnabled()
    steps.step("open the closed campaign again")
    check_keys(app, AUDITOR_EMAIL)
    return steps


def walk(
    variant: str, request: pytest.FixtureRequest, tmp_path: Path, lang: str = "ja"
) -> Steps | None:
    """The walk with ``variant``'s keyring (None: it ran in the child run)."""
    qapp: QApplication = request.getfixturevalue("qapp")
    loop: qasync.QEventLoop = request.getfixturevalue("loop")
    if variant == REAL and not inside_real_keyring():
        print(run_in_real_keyring(request.node.nodeid, tmp_path))
        return None
    if variant == NONE:
        if not has_key_file_fallback():
            pytest.skip("needs the installation key file without a keyring (h/keys-everywhere)")
        request.getfixturevalue("no_keyring")
    sandbox = new_sandbox()
    campaign = loop.run_until_complete(make_campaign(sandbox, tmp_path))
    steps = run_program(
        qapp,
        loop,
        tmp_path,
        lambda app: auditors_path(app, campaign, tmp_path, lang),
        lang=lang,
        kiosk=True,
        sandbox=sandbox,
    )
    print(steps.report())
    return steps


@pytest.mark.parametrize("variant", [NONE, REAL])
def test_the_auditors_path(variant: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    walk(variant, request, tmp_path)


@pytest.mark.parametrize("variant", [NONE, REAL])
def test_the_auditors_path_pictured_in_english(
    variant: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """The same walk in English, for its pictures (only when they are asked for)."""
    if shots_folder() is None:
        pytest.skip(f"pictures only: set {SHOTS_ENV}")
    walk(variant, request, tmp_path, "en")
