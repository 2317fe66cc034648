"""The Campaigns panel on a computer without a usable keyring (a kiosk image: the fail
backend), as the kiosk auditor uses it: K records a decision, the sign-off and the evidence
pack are signed with the installation key from its owner-only file; a key file that cannot be
read says so plainly, without a command-line option."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import keyring
import pytest
import qasync
from keyring.backends import fail
from PySide6.QtCore import Qt
from tests.reviews.support import INVITATIONS, ROLES, account, make_snapshot

from portal_admin.evidence import keys
from portal_admin.evidence.pack import verify_pack
from portal_admin.evidence.trust import TrustStore
from portal_admin.reviews import Settings, create_campaign
from portal_admin.ui.operations import OperationRunner
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.panels.reviews.panel import CampaignsPanel
from portal_admin.ui.profiles.store import sandbox_profile

from ..panel_support import run
from .support import REVIEWER, click_and_answer, decision, key, opened, select, signed_in_as


@pytest.fixture(autouse=True)
def no_keyring(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``PYTHON_KEYRING_BACKEND=keyring.backends.fail.Keyring``."""
    monkeypatch.delenv(keys.PASSPHRASE_ENV, raising=False)
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())  # type: ignore[no-untyped-call]
    yield
    keyring.set_keyring(previous)


@pytest.fixture
def campaign_file(tmp_path: Path) -> Path:
    scope = make_snapshot(tmp_path / "scope.sqlite3", [account(1), account(2)], ROLES, INVITATIONS)
    create_campaign(tmp_path / "q4.review", scope, Settings("Q4 review", "2026-12-15")).close()
    return tmp_path / "q4.review"


@pytest.fixture
def kiosk_panel(
    loop: qasync.QEventLoop, qtbot: Any, tmp_path: Path, runner: OperationRunner
) -> Callable[[], CampaignsPanel]:
    """The panel with the installation's own key store (key_store None), as the program
    builds it, on the kiosk's read-only profile (built when called: it reads the key)."""
    return lambda: _panel(loop, qtbot, tmp_path, runner)


def _panel(
    loop: qasync.QEventLoop, qtbot: Any, tmp_path: Path, runner: OperationRunner
) -> CampaignsPanel:
    profile = dataclasses.replace(sandbox_profile(), kiosk=True)
    extras = {
        "live_profile": signed_in_as(REVIEWER, "ACC000006"),
        "evidence_trust_store": TrustStore(tmp_path / "trusted_keys.json"),
    }
    panel = CampaignsPanel(PanelContext(runner, profile, None, extras), folder=tmp_path)
    qtbot.addWidget(panel)
    panel.resize(1100, 700)
    panel.show()
    run(loop, panel.wait_idle())  # shown: it reads who reviews (the key: made here)
    return panel


def test_k_records_and_the_pack_is_signed_without_a_keyring(
    loop: qasync.QEventLoop,
    campaign_file: Path,
    kiosk_panel: Callable[[], CampaignsPanel],
    tmp_path: Path,
) -> None:
    panel = opened(loop, kiosk_panel(), campaign_file)
    select(panel, "user1@example.test")
    key(loop, panel, Qt.Key.Key_K)
    assert decision(campaign_file, "user1@example.test") == "KEEP"
    assert keys.key_file_path().is_file()
    mine = keys.fingerprint(keys.signing_key().public_key())
    click_and_answer(loop, panel, panel.sign_button)  # as a person does: asked, confirmed
    assert "Signed off by" in panel.message.text
    out = tmp_path / "q4.zip"
    manifest = run(loop, panel.write_pack(out))
    assert manifest is not None and manifest["fingerprint"] == mine
    assert verify_pack(out, own=mine).status == "intact"


def test_a_locked_key_file_is_said_plainly(
    loop: qasync.QEventLoop,
    campaign_file: Path,
    kiosk_panel: Callable[[], CampaignsPanel],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(keys.PASSPHRASE_ENV, "kept apart")
    keys.signing_key()
    monkeypatch.delenv(keys.PASSPHRASE_ENV)
    panel = opened(loop, kiosk_panel(), campaign_file)
    select(panel, "user1@example.test")
    key(loop, panel, Qt.Key.Key_K)
    assert decision(campaign_file, "user1@example.test") is None
    assert "signing key cannot be read" in panel.message.text
    assert "--" not in panel.message.text and "portal-admin-cli" not in panel.message.text
