"""The administrator's path, in English, through the real windows: sign in with an e-mail code
read in the Demo mailbox, filter the accounts, suspend them in bulk (plan, look, run), see the
change in the Journal, revert the job from the Bulk jobs panel, export the list to CSV, take a
snapshot, write its evidence pack and verify it. Once with no keyring, once with gnome-keyring.
"""

from __future__ import annotations

import csv
import os
import stat
from pathlib import Path
from typing import Any

import pytest
import qasync
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialogButtonBox,
    QLabel,
    QMessageBox,
    QWidget,
)

from portal_admin.ui.app import Application
from portal_admin.ui.lists.export_dialog import ExportOptionsDialog
from portal_admin.ui.mainwindow.about import AboutDialog
from portal_admin.ui.panels.evidence.pack_check_dialog import PackCheckDialog
from portal_admin.ui.panels.jobs.revert_plan import RevertWindow
from support.accounts import ADMIN_EMAIL, ADMIN_PASSWORD

from . import landed
from .driver import (
    SHOTS_ENV,
    Steps,
    answer,
    choose_file,
    click,
    click_row,
    from_menu_bar,
    headers_cut,
    pick_from_menu,
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
from .program import open_panel, run_program, sign_in_with_email_code

__all__ = ["no_keyring"]  # fixture

#: Why the administrator reverts the job (the revert window's Reason; sent and journaled).
REVERT_REASON = "Scenario: the review was mistaken"
#: The portal the administrator filters the accounts by (a fifth of the sandbox's accounts).
PORTAL = "PARTNER"


async def choose_in(combo: QComboBox, data: str) -> None:
    """Pick the entry whose data is ``data`` with the keyboard (focus, Down or Up)."""
    await until(lambda: combo.findData(data) >= 0, 20, f"{data} offered")
    target = combo.findData(data)
    key = Qt.Key.Key_Down if target > combo.currentIndex() else Qt.Key.Key_Up
    for _ in range(abs(target - combo.currentIndex())):
        await press(combo, key)
    assert combo.currentData() == data, f"{data} not chosen: {combo.currentText()}"


def said(bar: QWidget) -> str:
    """The words a message bar shows ("" when hidden)."""
    if not bar.isVisible():
        return ""
    return " ".join(label.text() for label in bar.findChildren(QLabel) if label.isVisible())


def journal_changes() -> list[str]:
    """The lines of this computer's journal (what the program sent), if any."""
    from portal_admin.evidence import journal

    path = journal.default_journal_path()
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


def statuses(panel: Any) -> dict[str, str]:
    """The accounts list as shown: id -> the status code of each row."""
    model = panel.view.model
    found = {}
    for row in range(model.rowCount()):
        account = model.row_at(row)
        if account is not None and account.account_status is not None:
            found[account.biz_id] = account.account_status.code
    return found


async def administrators_path(app: Application, tmp_path: Path, lang: str = "en") -> Steps:
    """The whole walk; returns its timed steps. Its pictures are named ``<lang>-admin-*``."""
    steps = Steps(f"administrator ({lang})")
    main, seen = await sign_in_with_email_code(app, ADMIN_EMAIL, ADMIN_PASSWORD)
    steps.step(f"sign in with the e-mail code (Demo mailbox; {seen})")
    main.resize(1280, 800)
    await picture(main, f"{lang}-admin-main-window")
    await key_notice(main, steps, f"{lang}-admin-key-notice")

    accounts = await open_panel(main, "accounts")
    await until(lambda: accounts.view.model.rowCount() > 0, 20, "the accounts")
    total = accounts.view.model.rowCount()
    await choose_in(accounts.filters.portal, PORTAL)
    await choose_in(accounts.filters.status, "ACTIVE")
    await until(lambda: 0 < accounts.view.model.rowCount() < total, 20, "the filtered list")
    await settle(0.6)
    steps.step("filter the accounts (portal, status)")
    shown_before = statuses(accounts)
    assert shown_before and set(shown_before.values()) == {"ACTIVE"}, shown_before

    await pick_from_menu(accounts.bulk, "bulk-status")
    bulk = accounts.bulk.dialog
    assert bulk is not None and bulk.isVisible()
    await choose_in(bulk.status_action, "SUSPEND")
    await click(bulk.use_matching)
    await type_into(bulk.reason, "Scenario: suspended for the review")
    await click(bulk.plan_button)
    await until(lambda: bulk.run_button.isVisible(), 30, "the plan")
    planned = bulk.to_change()
    await picture(bulk, f"{lang}-admin-bulk-plan")
    if lang == "en":
        assert "Nothing has been sent" in bulk.summary.text(), bulk.summary.text()
    assert not journal_changes(), "the plan sent changes"  # a dry run: nothing journaled
    assert planned == len(shown_before) >= 2, (planned, shown_before)
    steps.step(f"bulk suspend: plan ({planned} to change, nothing sent)")
    await click(bulk.run_button)
    await until(lambda: bulk.done_button.isVisible() or shown(QMessageBox) is not None, 60,
                "the job's end")  # fmt: skip
    box = shown(QMessageBox)
    if box is not None:  # a confirmation on this profile
        await answer(box, QMessageBox.ButtonRole.AcceptRole)
    await until(lambda: bulk.done_button.isVisible() and bulk.done_button.isEnabled(), 60,
                "the job's end")  # fmt: skip
    await picture(bulk, f"{lang}-admin-bulk-done")
    await click(bulk.done_button)
    steps.step("bulk suspend: run")

    journal = await open_panel(main, "journal")
    await until(lambda: any(r.get("kind") == "change" for r in journal.shown_rows), 20,
                "the suspensions in the journal")  # fmt: skip
    changes = [r for r in journal.shown_rows if r.get("kind") == "change"]
    assert len(changes) >= planned
    await picture(main, f"{lang}-admin-journal-after-bulk")
    steps.step("the journal shows the changes")

    jobs_panel = await open_panel(main, "jobs")
    await until(lambda: bool(jobs_panel.rows), 20, "the job in the Bulk jobs panel")
    await click_row(jobs_panel.table, 0)
    await click(jobs_panel.revert_button)
    revert = await wait_window(RevertWindow)
    await until(lambda: revert.run_button.isEnabled(), 30, "the revert's plan")
    assert revert.to_change() == planned
    await type_into(revert.reason, REVERT_REASON)  # the revert window asks why
    await picture(revert, f"{lang}-admin-revert-plan")
    await click(revert.run_button)
    await until(lambda: revert.run_dialog is not None
                and revert.run_dialog.done_button.isEnabled(), 60, "the revert's end")  # fmt: skip
    run_dialog = revert.run_dialog
    assert run_dialog is not None
    await click(run_dialog.done_button)
    if revert.isVisible():
        await click(revert.close_button)
    sent = [line for line in journal_changes() if REVERT_REASON in line]
    assert len(sent) >= planned, "the revert's reason is not in the journal"
    steps.step("revert the job from the Bulk jobs panel (with its reason)")

    journal = await open_panel(main, "journal")

    def reverted() -> bool:
        changed = sum(r.get("kind") == "change" for r in journal.shown_rows)
        return bool(changed >= 2 * planned)

    try:  # the panel follows the journal by itself (h/auditor-polish)
        await until(reverted, 3, "the revert in the journal without a refresh")
    except AssertionError:
        if landed.journal_follows():
            raise
        steps.step("FINDING: the Journal panel did not show the revert until refreshed")
        refresh = getattr(journal, "refresh_button", None)
        if refresh is not None:
            await click(refresh)
        else:  # the main window's Refresh (F5)
            await from_menu_bar(main, main.view_menu, main.refresh_action)
        await until(reverted, 20, "the revert in the journal after a refresh")
    await picture(main, f"{lang}-admin-journal-after-revert")
    steps.step("the journal shows the revert")

    accounts = await open_panel(main, "accounts")
    await until(lambda: statuses(accounts) == shown_before, 20, "the accounts active again")
    export_to = tmp_path / "accounts.csv"
    await click(accounts.view.export_button)
    options = await wait_window(ExportOptionsDialog)
    await type_into(options.path_edit, str(export_to))
    await click(options.buttons.button(QDialogButtonBox.StandardButton.Save))
    await until(export_to.exists, 30, "the CSV file")
    await settle(0.5)
    told = shown(QMessageBox)
    if told is not None:  # the export's confirmation (the row count, the file)
        await picture(told, f"{lang}-admin-export-confirmation")
        await answer(told, QMessageBox.ButtonRole.AcceptRole)
    with export_to.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    assert len(rows) - 1 == accounts.view.model.total
    steps.step("export the list to CSV")

    snapshots = await open_panel(main, "snapshots")
    before = snapshots.table.rowCount()
    await click(snapshots.take_button)
    await until(lambda: snapshots.table.rowCount() == before + 1, 60, "the snapshot listed")
    await picture(main, f"{lang}-admin-snapshots")
    assert not headers_cut(snapshots.diff_view.table), headers_cut(snapshots.diff_view.table)
    steps.step("take a snapshot")
    await click_row(snapshots.table, 0)
    pack_to = tmp_path / "snapshot-pack.zip"
    before_pack = said(snapshots.message)
    await click(snapshots.pack_button)
    await choose_file(pack_to)
    await until(lambda: said(snapshots.message) != before_pack, 60, "the evidence pack written")
    assert pack_to.exists(), said(snapshots.message)
    await settle(0.3)
    steps.step("write the snapshot's evidence pack")
    await click(snapshots.verify_button)
    await choose_file(pack_to)
    check = await wait_window(PackCheckDialog, timeout=60)
    await settle(0.3)
    await picture(check, f"{lang}-admin-pack-verified")
    assert check.check is not None and check.check.status == "intact", check.text
    assert check.isVisible()
    steps.step("verify the pack")

    await from_menu_bar(main, main.help_menu, main.about_action)
    about = await wait_window(AboutDialog)
    await until(lambda: about.place is not None, 20, "where the key is, in About")
    await picture(about, f"{lang}-admin-about")
    if inside_real_keyring():
        assert about.place.kind == "keyring", about.key.text()
    else:
        assert about.place.kind == "file" and str(key_file()) in about.key.text(), about.key.text()
    await click(about.buttons.button(QDialogButtonBox.StandardButton.Close))
    steps.step("Help > About says where the key is")
    main.resize(1024, 700)  # the smallest size the tour pictures, every panel seen built
    await until(lambda: main.width() == 1024, 5, "the window at 1024 pixels")
    check_keys(app, ADMIN_EMAIL)
    return steps


async def key_notice(main: QWidget, steps: Steps, name: str) -> None:
    """With no keyring, the main window says where the key is kept (pictured); with one, it
    says nothing."""
    if not landed.key_notice():
        return
    notice = main.key_notice  # type: ignore[attr-defined]
    if inside_real_keyring():
        await settle(0.5)
        assert not notice.isVisible(), "a key notice although the keyring works"
        return
    await until(notice.isVisible, 10, "the key notice")
    await picture(main, name)
    steps.step("the key notice is shown")


def key_file() -> Path:
    """Where the installation key is kept without a keyring (h/keys-everywhere)."""
    from portal_admin.evidence import keys

    path: Path = keys.key_file_path()  # type: ignore[attr-defined,unused-ignore]
    return path


def check_keys(app: Application, email: str) -> None:
    """Where the installation key and the sign-in went: the keyring (no key file, the refresh
    token in it and in no file under the home folder), or, with no keyring, the owner-only key
    file (and the sign-in in memory only)."""
    import keyring

    from portal_admin.client.keyring_store import SERVICE, _user
    from portal_admin.evidence import keys

    assert app.service is not None
    profile = app.service.profile.name
    if inside_real_keyring():
        assert keyring.get_password(keys.SERVICE, keys.USERNAME), "no key in the keyring"
        if has_key_file_fallback():
            assert not key_file().exists(), "a key file next to a working keyring"
        token = keyring.get_password(SERVICE, _user(profile, email))
        assert token and token.startswith("rt_"), "the sign-in is not kept in the keyring"
        home = Path(os.environ["HOME"])
        for path in home.rglob("*"):
            if path.is_file() and path.stat().st_size < 50_000_000:
                assert token.encode() not in path.read_bytes(), f"the token is in {path}"
    else:
        path = key_file()
        assert path.exists(), f"no key file at {path}"
        if os.name == "posix":
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, oct(path.stat().st_mode)


def walk(
    variant: str, request: pytest.FixtureRequest, tmp_path: Path, lang: str = "en"
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
    steps = run_program(
        qapp, loop, tmp_path, lambda app: administrators_path(app, tmp_path, lang), lang=lang
    )
    print(steps.report())
    return steps


@pytest.mark.parametrize("variant", [NONE, REAL])
def test_the_administrators_path(
    variant: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    walk(variant, request, tmp_path)


@pytest.mark.parametrize("variant", [NONE, REAL])
def test_the_administrators_path_pictured_in_japanese(
    variant: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """The same walk in Japanese, for its pictures (only when they are asked for)."""
    if shots_folder() is None:
        pytest.skip(f"pictures only: set {SHOTS_ENV}")
    walk(variant, request, tmp_path, "ja")
