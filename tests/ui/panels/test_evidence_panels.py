"""The Snapshots and Journal panels, as the kiosk's auditor uses them: snapshots with
progress and cancel, a diff of a change made meanwhile, exports and signed packs that verify,
files that are not snapshots, a journal whose chain verifies or breaks at its record."""

from __future__ import annotations

import csv
import json
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import qasync
from panel_support import AUDITOR, SHOTS, run
from pytestqt.qtbot import QtBot
from test_accounts_support import settle

from portal_admin.client import ClientOptions, MemoryTokenStore, PortalClient, sandbox_transport
from portal_admin.client.errors import APIConnectionError
from portal_admin.connection.builtin import colleague_change
from portal_admin.evidence import journal as jr
from portal_admin.evidence import keys
from portal_admin.evidence.pack import verify_pack
from portal_admin.evidence.trust import TrustStore
from portal_admin.ui.panels.evidence.journal_panel import JournalPanel
from portal_admin.ui.panels.evidence.snapshots_panel import SnapshotsPanel
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.tour.screenshots import save_screenshot
from support import portal

Make = Callable[..., PanelContext]


class Locked:
    """A keyring that is there but will not open."""

    def get(self) -> str | None:
        raise keys.KeyUnavailable("locked")

    def set(self, value: str) -> None:
        raise keys.KeyUnavailable("locked")


@pytest.fixture
def auditor_kiosk(loop: qasync.QEventLoop, sandbox_app: Any) -> Iterator[PortalClient]:
    """The auditor on a read-only client over the program's in-process transport, as the
    kiosk signs in (httpx.ASGITransport would swallow a cancel that arrives mid-request)."""
    client = PortalClient(
        "http://sandbox.local",
        ClientOptions(access_code="SANDBOX", read_only=True),
        transport=sandbox_transport(sandbox_app),
        token_store=MemoryTokenStore(),
    )
    run(loop, client.__aenter__())
    run(loop, portal.sign_in(client, *AUDITOR, method="OTP"))
    yield client
    run(loop, client.aclose())


@pytest.fixture
def store() -> keys.MemoryStore:
    return keys.MemoryStore()


def checked(path: Path, store: keys.MemoryStore) -> int:
    """A pack's exit status as this installation (its key in ``store``) checks it, trusting
    no other key (neither the keyring nor the user's trust file is read)."""
    own = keys.fingerprint(keys.signing_key(store).public_key())
    trusted = TrustStore(path.with_name("no-trusted-keys.json"))
    return verify_pack(path, trust=trusted, own=own).exit_status


@pytest.fixture
def snapshots(
    loop: qasync.QEventLoop,
    qtbot: QtBot,
    auditor_kiosk: PortalClient,
    panel_context: Make,
    tmp_path: Path,
    store: keys.MemoryStore,
) -> Iterator[SnapshotsPanel]:
    panel = SnapshotsPanel(
        panel_context(auditor_kiosk, kiosk=True), folder=tmp_path / "snapshots", key_store=store
    )
    qtbot.addWidget(panel)
    panel.resize(1100, 720)
    panel.show()
    run(loop, panel.reload())
    yield panel
    panel.close_tasks()


def test_a_snapshot_then_a_diff_of_a_change_made_meanwhile(
    loop: qasync.QEventLoop,
    snapshots: SnapshotsPanel,
    sandbox_app: Any,
    tmp_path: Path,
    store: keys.MemoryStore,
) -> None:
    stages: list[str] = []
    shown = snapshots._progress

    def progress(stage: str, done: int, total: int) -> None:
        shown(stage, done, total)
        stages.append(snapshots.stage.text())

    snapshots._progress = progress  # type: ignore[method-assign]
    first = run(loop, snapshots.take())
    assert first is not None and first.path.parent == tmp_path / "snapshots"
    assert first.counts()["accounts"] >= 120
    assert any("Reading accounts" in s for s in stages)
    assert snapshots.table.rowCount() == 1 and "Snapshot taken" in snapshots.message.text
    assert not snapshots.progress.isVisible() and snapshots.take_button.isEnabled()

    suspended = colleague_change(sandbox_app)
    result = run(loop, snapshots.take_and_compare())
    assert result is not None and snapshots.table.rowCount() == 2
    status = [c for c in result.changes if c.kind == "account" and c.field == "status"]
    assert [(c.label, c.before, c.after) for c in status] == [(suspended, "ACTIVE", "SUSPENDED")]
    view = snapshots.diff_view
    assert "Accounts changed: 1" in view.counts.text()
    assert view.table.rowCount() == len(result.changes)
    view.text.setText(suspended)
    assert view.table.rowCount() >= 1 and view.table.item(0, 3).text() == suspended
    run(loop, settle(0.1))
    SHOTS.mkdir(parents=True, exist_ok=True)
    save_screenshot(snapshots, SHOTS / "evidence-snapshots-diff.png")

    out = tmp_path / "diff.csv"
    assert run(loop, snapshots.write_diff_csv(out)) == len(result.changes)
    with out.open(encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == [
        *("kind", "change", "id", "label", "field", "before", "after"),
        *("field_label", "before_label", "after_label"),  # the codes, then their labels
    ]
    assert ["account", "changed", suspended, "status", "ACTIVE", "SUSPENDED", "Suspended"] in [
        [r[0], r[1], r[3], r[4], r[5], r[6], r[9]] for r in rows[1:]
    ]
    diff_pack = tmp_path / "diff.zip"
    manifest = run(loop, snapshots.write_diff_pack(diff_pack))
    assert manifest is not None and checked(diff_pack, store) == 0
    assert manifest["fingerprint"] in snapshots.message.text

    snapshots.table.selectRow(1)
    assert snapshots.pack_button.isEnabled() and not snapshots.compare_button.isEnabled()
    snap_pack = tmp_path / "snapshot.zip"
    assert run(loop, snapshots.write_snapshot_pack(snapshots.selected()[0], snap_pack)) is not None
    assert checked(snap_pack, store) == 0


def test_comparing_the_two_selected_goes_from_older_to_newer(
    loop: qasync.QEventLoop, snapshots: SnapshotsPanel, sandbox_app: Any
) -> None:
    run(loop, snapshots.take())
    colleague_change(sandbox_app)
    run(loop, snapshots.take())
    snapshots.table.selectAll()
    assert snapshots.compare_button.isEnabled()
    result = run(loop, snapshots.compare_selected())
    assert result is not None
    assert [c.after for c in result.changes if c.field == "status"] == ["SUSPENDED"]


def test_cancel_keeps_nothing(loop: qasync.QEventLoop, snapshots: SnapshotsPanel) -> None:
    def cancel_on_accounts(stage: str, done: int, total: int) -> None:
        if stage == "accounts":
            snapshots.cancel()

    snapshots._progress = cancel_on_accounts  # type: ignore[method-assign]
    task = snapshots.spawn(snapshots.take())
    assert task is not None
    assert run(loop, task) is None
    assert "cancelled" in snapshots.message.text
    assert list((snapshots.folder).glob("*")) == []
    assert snapshots.take_button.isEnabled() and not snapshots.cancel_button.isVisible()


def test_a_dropped_connection_keeps_nothing_and_says_so(
    loop: qasync.QEventLoop, snapshots: SnapshotsPanel, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def dropped(*_args: Any, **_kwargs: Any) -> Any:
        raise APIConnectionError("connection reset by peer")

    monkeypatch.setattr(snapshots.client.roles, "list", dropped)
    assert run(loop, snapshots.take()) is None
    assert "could not be finished; nothing was kept" in snapshots.message.text
    assert snapshots.message.info is not None
    assert list(snapshots.folder.glob("*")) == []


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"PK\x03\x04 not a database", "is not a snapshot of this program"),
        (None, "does not exist"),
    ],
)
def test_a_foreign_file_gets_a_clear_message(
    loop: qasync.QEventLoop,
    snapshots: SnapshotsPanel,
    tmp_path: Path,
    content: bytes | None,
    expected: str,
) -> None:
    path = tmp_path / "offered.sqlite"
    if content is not None:
        path.write_bytes(content)
    assert run(loop, snapshots.open_file(path)) is None
    assert "cannot be used as a snapshot" in snapshots.message.text
    assert expected in snapshots.message.text and snapshots.table.rowCount() == 0


def test_an_opened_snapshot_is_listed(
    loop: qasync.QEventLoop, snapshots: SnapshotsPanel, tmp_path: Path
) -> None:
    taken = run(loop, snapshots.take())
    assert taken is not None
    elsewhere = tmp_path / "from-a-colleague.sqlite"
    elsewhere.write_bytes(taken.path.read_bytes())
    assert run(loop, snapshots.open_file(elsewhere)) is not None
    assert snapshots.table.rowCount() == 2
    assert {snapshots.table.item(r, 6).text() for r in range(2)} == {
        taken.path.name,
        elsewhere.name,
    }


def test_no_keyring_means_a_clear_message_and_no_pack(
    loop: qasync.QEventLoop, snapshots: SnapshotsPanel, tmp_path: Path
) -> None:
    taken = run(loop, snapshots.take())
    assert taken is not None
    snapshots.key_store = Locked()
    out = tmp_path / "p.zip"
    assert run(loop, snapshots.write_snapshot_pack(taken, out)) is None
    assert "signing key cannot be read" in snapshots.message.text and not out.exists()
    assert "--" not in snapshots.message.text  # no command-line option a desktop user cannot use


# -- the journal -----------------------------------------------------------------------------


def _journal(path: Path, n: int) -> None:
    journal = jr.Journal(path)
    for i in range(n):
        journal.append(
            {
                "account": "admin@sandbox.test",
                "operation": "accounts.status" if i % 2 else "accounts.update",
                "targets": [f"ACC{i:04d}"],
                "fields": {"action": "SUSPEND"} if i % 2 else {"accountRemark": "checked"},
                "outcome": "failed" if i == 3 else "ok",
                "code": "NOT_FOUND" if i == 3 else "",
                "request_id": f"req-{i}",
            }
        )
    journal.flush()


@pytest.fixture
def journal_panel(
    qtbot: QtBot,
    auditor_kiosk: PortalClient,
    panel_context: Make,
    tmp_path: Path,
    store: keys.MemoryStore,
) -> Iterator[JournalPanel]:
    path = tmp_path / "journal" / "journal.jsonl"
    _journal(path, 6)
    panel = JournalPanel(panel_context(auditor_kiosk, kiosk=True), path=path, key_store=store)
    qtbot.addWidget(panel)
    panel.resize(1100, 600)
    panel.show()
    yield panel
    panel.close_tasks()


def test_the_journal_lists_filters_and_exports(
    loop: qasync.QEventLoop, journal_panel: JournalPanel, tmp_path: Path, store: keys.MemoryStore
) -> None:
    panel = journal_panel
    run(loop, panel.reload())
    assert panel.table.rowCount() == 6
    assert panel.table.item(0, 8).text() == "req-5"  # newest first
    assert "The chain verifies: 6 records" in panel.chain.text()
    panel.outcome.setCurrentIndex(panel.outcome.findData("failed"))
    assert panel.table.rowCount() == 1 and panel.table.item(0, 7).text() == "NOT_FOUND"
    panel.outcome.setCurrentIndex(0)
    panel.text.setText("ACC0002")
    assert panel.table.rowCount() == 1
    run(loop, settle(0.1))
    save_screenshot(panel, SHOTS / "evidence-journal.png")

    assert run(loop, panel.export(tmp_path / "j.json", "json")) == 1
    assert json.loads((tmp_path / "j.json").read_text(encoding="utf-8"))[0]["targets"] == [
        "ACC0002"
    ]
    panel.text.setText("")
    assert run(loop, panel.export(tmp_path / "j.csv", "csv")) == 6
    assert run(loop, panel.export(tmp_path / "j.zip", "zip")) == 6
    assert checked(tmp_path / "j.zip", store) == 0
    assert "records written" in panel.message.text or "Evidence pack written" in panel.message.text


def test_a_tampered_journal_is_shown_broken_at_its_record(
    loop: qasync.QEventLoop, journal_panel: JournalPanel
) -> None:
    panel = journal_panel
    lines = panel.path.read_text(encoding="utf-8").splitlines(keepends=True)
    record = json.loads(lines[2])
    record["targets"] = ["ACC9999"]
    lines[2] = json.dumps(record) + "\n"
    panel.path.write_text("".join(lines), encoding="utf-8")
    run(loop, panel.reload())
    assert "BROKEN at line 3" in panel.chain.text()
    assert panel.table.rowCount() == 6  # still listed: the auditor sees what is there


def test_the_panels_are_in_the_kiosk_navigation() -> None:
    from portal_admin.ui.panels import register_all
    from portal_admin.ui.panels.registry import PanelRegistry

    ids = [spec.id for spec in register_all(PanelRegistry())]
    assert ids.index("jobs") < ids.index("snapshots") < ids.index("journal")


def test_about_shows_the_signing_key_fingerprint_that_signs_packs(
    loop: qasync.QEventLoop, qtbot: QtBot, store: keys.MemoryStore, tmp_path: Path
) -> None:
    from portal_admin.evidence import pack
    from portal_admin.ui.mainwindow.about import AboutDialog

    about = AboutDialog(key_store=store)
    qtbot.addWidget(about)
    qtbot.waitUntil(lambda: about.fingerprint != "", timeout=5000)
    expected = keys.fingerprint(keys.signing_key(store).public_key())
    assert about.fingerprint == expected and expected in about.key.text()
    manifest = pack.write_pack(tmp_path / "p.zip", "snapshot", {}, {}, keys.signing_key(store))
    assert manifest["fingerprint"] == expected  # the one an auditor records from About

    without = AboutDialog(key_store=Locked())
    qtbot.addWidget(without)
    qtbot.waitUntil(lambda: without.fingerprint is None, timeout=5000)
    assert "can be neither read nor made" in without.key.text()


def test_the_desktop_programs_client_journals_what_it_sends(
    loop: qasync.QEventLoop, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The client every panel uses (``ClientService``) appends to this computer's journal."""
    from portal_admin.evidence.recorder import journal_at
    from portal_admin.ui.app import tour_service
    from portal_admin.ui.profiles.store import sandbox_profile
    from support.accounts import ADMIN

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("PORTAL_ADMIN_HOME", str(tmp_path / "portal-admin"))
    service = tour_service(sandbox_profile(), "en")  # an in-memory sandbox, tokens in memory
    client = service.client
    run(loop, portal.sign_in(client, *ADMIN, method="OTP"))
    page = run(loop, client.accounts.query(status="ACTIVE", size=5))
    target = next(a for a in page.items if a.account_email != ADMIN[0])
    run(loop, client.accounts.change_status(target.biz_id, "SUSPEND", reason="left"))
    run(loop, service.close())
    path = jr.default_journal_path()
    assert path.is_relative_to(tmp_path)
    journal_at(path).flush()
    records = [r for r in jr.read(path) if r["kind"] == "change"]  # each after its intent
    assert [(r["operation"], r["targets"], r["profile"], r["outcome"]) for r in records] == [
        ("accounts.status", [target.biz_id], "Sandbox", "ok")
    ]
    assert ADMIN[1] not in path.read_text(encoding="utf-8")


def test_a_pack_is_verified_in_the_panel_and_tampering_is_named(
    loop: qasync.QEventLoop, snapshots: SnapshotsPanel, tmp_path: Path
) -> None:
    taken = run(loop, snapshots.take())
    assert taken is not None
    good = tmp_path / "good.zip"
    run(loop, snapshots.write_snapshot_pack(taken, good))
    assert run(loop, snapshots.verify_file(good)).exit_status == 0
    dialog = snapshots.check_dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.signer.text() == "this installation's key" and "is intact" in dialog.text

    bad = tmp_path / "bad.zip"
    with zipfile.ZipFile(good) as src, zipfile.ZipFile(bad, "w") as out:
        for item in src.infolist():
            data = src.read(item)
            out.writestr(
                item, data.replace(b"@", b"#") if item.filename == "accounts.csv" else data
            )
        out.writestr("extra.txt", b"added later")
    assert run(loop, snapshots.verify_file(bad)).exit_status == 1
    text = dialog.text
    assert "was changed after it was signed" in text
    assert "changed: accounts.csv" in text and "added: extra.txt" in text

    foreign = tmp_path / "notes.zip"
    foreign.write_bytes(b"not a zip at all")
    assert run(loop, snapshots.verify_file(foreign)).exit_status == 2
    assert "is not an evidence pack" in dialog.text
    assert "it is not a zip file" in dialog.text


def test_a_changed_pack_is_named_in_traditional_chinese(
    loop: qasync.QEventLoop, snapshots: SnapshotsPanel, tmp_path: Path
) -> None:
    from portal_admin.ui.i18n.translators import LanguageManager

    taken = run(loop, snapshots.take())
    assert taken is not None
    good = tmp_path / "good.zip"
    run(loop, snapshots.write_snapshot_pack(taken, good))
    run(loop, snapshots.compare(taken.path, taken.path))
    with zipfile.ZipFile(good, "a") as zf:
        zf.writestr("extra.txt", b"added later")
    languages = LanguageManager()
    languages.set_language("zh-Hant")
    try:
        run(loop, settle(0.05))  # LanguageChange is posted to every widget
        assert snapshots.verify_button.text() == "驗證證據套件…"
        run(loop, snapshots.verify_file(good))
        assert snapshots.check_dialog is not None
        assert "在簽署後遭到變更" in snapshots.check_dialog.text
        assert "已新增：extra.txt" in snapshots.check_dialog.text
        assert "無變更" in snapshots.diff_view.counts.text()
        run(loop, settle(0.1))
        save_screenshot(snapshots, SHOTS / "evidence-snapshots-zh-Hant.png")
    finally:
        languages.set_language("en")


def test_the_tour_ends_on_the_check_of_a_pack_from_an_untrusted_key(
    loop: qasync.QEventLoop, snapshots: SnapshotsPanel
) -> None:
    steps = run(loop, snapshots.tour_steps())
    assert [s.name for s in steps] == ["snapshots-take", "snapshots-diff", "snapshots-verify"]
    for step in steps[:2]:
        run(loop, step.prepare())
    shown = run(loop, steps[2].prepare())
    assert shown is snapshots.check_dialog and shown.isVisible()
    check = snapshots.check_dialog.check
    assert check is not None and (check.status, check.trust) == ("untrusted", "untrusted")
    folder = check.path.parent
    assert steps[2].cleanup is not None
    run(loop, steps[2].cleanup(shown))
    assert not shown.isVisible() and not folder.exists()
