"""Who signed an evidence pack, and whether that key is trusted, as the desktop program shows
it (*Verify a pack…* in the Snapshots panel), and the list of trusted keys.

No test here touches the keyring or the user's trust file: the installation's key lives in a
``keys.MemoryStore``, the trusted keys in a file under ``tmp_path``, and the real keyring
refuses (an autouse fixture) so that a lookup that slipped through would fail the test.
"""

from __future__ import annotations

import errno
import gc
import json
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import qasync
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from panel_support import SHOTS, run, wait_for
from pytestqt.qtbot import QtBot
from test_accounts_support import settle

from portal_admin.evidence import keys, pack
from portal_admin.evidence.trust import TrustStore
from portal_admin.ui.kiosk.guard import KioskGuard
from portal_admin.ui.operations import OperationRunner
from portal_admin.ui.panels.evidence import pack_check_dialog as words
from portal_admin.ui.panels.evidence.pack_check_dialog import PackCheckDialog
from portal_admin.ui.panels.evidence.snapshots_panel import SnapshotsPanel
from portal_admin.ui.panels.evidence.trust_dialog import AddKeyDialog, TrustedKeysDialog
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.profiles.store import sandbox_profile
from portal_admin.ui.tour.screenshots import save_screenshot

COLLEAGUE = "Audit team, Lyon"


@pytest.fixture(autouse=True)
def _collected_here() -> None:
    """Collect the garbage of earlier tests on this thread before the checks' worker threads
    run: an earlier test's closed qasync loop holds QObject timers, and the collector, run from
    a worker thread, destroyed them there ("Timers cannot be stopped from another thread",
    about one run in six)."""
    gc.collect()


@pytest.fixture(autouse=True)
def _no_real_keyring(monkeypatch: pytest.MonkeyPatch) -> None:
    """The OS keyring is out of bounds here: any use of it fails."""

    def refuse(*_args: object) -> None:
        raise AssertionError("a test reached the real keyring")

    monkeypatch.setattr(keys.KeyringStore, "get", refuse)
    monkeypatch.setattr(keys.KeyringStore, "set", refuse)


@pytest.fixture
def key_store() -> keys.MemoryStore:
    """This installation's key (made on first use, in memory)."""
    return keys.MemoryStore()


@pytest.fixture
def trusted(tmp_path: Path) -> TrustStore:
    return TrustStore(tmp_path / "trusted_keys.json")


@pytest.fixture
def panel(
    loop: qasync.QEventLoop,
    qtbot: QtBot,
    runner: OperationRunner,
    tmp_path: Path,
    key_store: keys.MemoryStore,
    trusted: TrustStore,
) -> Iterator[SnapshotsPanel]:
    """The Snapshots panel, signed in to nothing (checking packs needs no server)."""
    context = PanelContext(runner=runner, profile=sandbox_profile(), client=None)
    snapshots = SnapshotsPanel(
        context, folder=tmp_path / "snapshots", key_store=key_store, trust_store=trusted
    )
    qtbot.addWidget(snapshots)
    snapshots.resize(1000, 640)
    snapshots.show()
    run(loop, snapshots.reload())
    yield snapshots
    snapshots.close_tasks()


def signed_pack(path: Path, key: Ed25519PrivateKey) -> Path:
    tables = {"accounts": (["id", "email"], [["u1", "ann@example.com"]])}
    pack.write_pack(path, "snapshot", tables, {"snapshot of": "sandbox"}, key)
    return path


def fingerprint(key: Ed25519PrivateKey) -> str:
    return keys.fingerprint(key.public_key())


def listed(store: TrustStore) -> list[tuple[str, str]]:
    entries = store.keys()
    return [(k.fingerprint, k.name) for k in entries]


def shown(panel: SnapshotsPanel) -> PackCheckDialog:
    dialog = panel.check_dialog
    assert dialog is not None and dialog.isVisible()
    return dialog


def test_an_untrusted_signer_comes_first_and_the_pack_is_not_intact(
    loop: qasync.QEventLoop, panel: SnapshotsPanel, tmp_path: Path
) -> None:
    stranger = Ed25519PrivateKey.generate()
    path = signed_pack(tmp_path / "from-elsewhere.zip", stranger)
    check = run(loop, panel.verify_file(path))
    assert (check.status, check.trust) == ("untrusted", "untrusted")
    dialog = shown(panel)
    assert dialog.signer.text() == "a key you do not trust"
    assert dialog.fingerprint.text() == fingerprint(stranger)
    assert dialog.fingerprint.isReadOnly() and dialog.fingerprint.isVisible()
    text = dialog.text
    # who signed, then the key, then the verdict and what to do
    assert (
        text.index("Signed by:")
        < text.index(fingerprint(stranger))
        < text.index("is not verified")
        < text.index("Compare the fingerprint")
    )
    assert "intact" not in text
    assert dialog.trust_button.isVisible()
    # coloured by the theme's tones, so a dark theme keeps them readable
    assert (dialog.signer.property("tone"), dialog.verdict.property("tone")) == (
        "warning",
        "warning",
    )
    dialog.copy_fingerprint()
    from PySide6.QtGui import QGuiApplication

    assert QGuiApplication.clipboard().text() == fingerprint(stranger)
    run(loop, settle(0.1))
    save_screenshot(dialog, SHOTS / "evidence-pack-untrusted.png")


def test_trusting_the_signer_from_the_dialog_makes_the_check_intact(
    loop: qasync.QEventLoop, panel: SnapshotsPanel, tmp_path: Path, trusted: TrustStore
) -> None:
    stranger = Ed25519PrivateKey.generate()
    path = signed_pack(tmp_path / "from-elsewhere.zip", stranger)
    run(loop, panel.verify_file(path))
    dialog = shown(panel)
    dialog.trust_button.click()
    ask = dialog.add_dialog
    assert isinstance(ask, AddKeyDialog) and ask.isVisible()
    assert ask.fingerprint.text() == fingerprint(stranger) and ask.fingerprint.isReadOnly()
    ask.name.setText(COLLEAGUE)
    ask.ok_button.click()
    assert listed(trusted) == [(fingerprint(stranger), COLLEAGUE)]
    run(loop, wait_for(lambda: dialog.check is not None and dialog.check.status == "intact"))
    assert dialog.check is not None and dialog.check.trust == "trusted"
    assert dialog.signer.text() == f"the trusted key “{COLLEAGUE}”"
    assert "is intact" in dialog.verdict.text() and not dialog.trust_button.isVisible()
    run(loop, settle(0.1))
    save_screenshot(dialog, SHOTS / "evidence-pack-trusted.png")


def test_a_pack_of_this_installation_says_so(
    loop: qasync.QEventLoop, panel: SnapshotsPanel, tmp_path: Path, key_store: keys.MemoryStore
) -> None:
    mine = keys.signing_key(key_store)
    check = run(loop, panel.verify_file(signed_pack(tmp_path / "mine.zip", mine)))
    assert (check.status, check.trust) == ("intact", "own")
    dialog = shown(panel)
    assert dialog.signer.text() == "this installation's key"
    assert dialog.fingerprint.text() == fingerprint(mine)
    assert not dialog.problems.isVisible() and not dialog.advice.isVisible()
    assert (dialog.signer.property("tone"), dialog.verdict.property("tone")) == (
        "success",
        "success",
    )


def test_a_changed_pack_names_its_problems_and_a_broken_signature_names_no_signer(
    loop: qasync.QEventLoop, panel: SnapshotsPanel, tmp_path: Path, key_store: keys.MemoryStore
) -> None:
    good = signed_pack(tmp_path / "good.zip", keys.signing_key(key_store))
    twice = tmp_path / "twice.zip"
    with zipfile.ZipFile(good) as src, zipfile.ZipFile(twice, "w") as out:
        for item in src.infolist():
            out.writestr(item, src.read(item))
        with pytest.warns(UserWarning, match="Duplicate name"):
            out.writestr("accounts.csv", b"forged")
    check = run(loop, panel.verify_file(twice))
    assert check.status == "changed"
    dialog = shown(panel)
    items = [dialog.problems.item(i).text() for i in range(dialog.problems.count())]
    assert "in the zip twice: accounts.csv" in items
    assert "was changed after it was signed" in dialog.verdict.text()
    assert dialog.verdict.property("tone") == "error"
    run(loop, settle(0.1))
    save_screenshot(dialog, SHOTS / "evidence-pack-changed.png")

    forged = tmp_path / "forged.zip"
    with zipfile.ZipFile(good) as src, zipfile.ZipFile(forged, "w") as out:
        for item in src.infolist():
            data = src.read(item)
            if item.filename == pack.MANIFEST:
                manifest = json.loads(data)
                manifest["kind"] = "diff"
                data = json.dumps(manifest, indent=1, sort_keys=True).encode()
            out.writestr(item, data)
    run(loop, panel.verify_file(forged))
    assert dialog.signer.text().startswith("unknown (the signature does not verify")
    items = [dialog.problems.item(i).text() for i in range(dialog.problems.count())]
    assert "the manifest's signature does not verify" in items

    foreign = tmp_path / "notes.zip"
    foreign.write_bytes(b"not a zip at all")
    run(loop, panel.verify_file(foreign))
    assert "is not an evidence pack" in dialog.verdict.text()
    assert not dialog.fingerprint.isVisible() and not dialog.trust_button.isVisible()
    assert dialog.signer.text() == "unknown (no signing key could be read)"


#: Sentences of pack.py that never reach ``problems`` (zipfile's errors, turned into others).
INTERNAL = {"no end of central directory"}
CHECKING = {"verify_pack", "_open", "_examine", "_manifest", "_usable", "_digest", "_read_small"}


def reported_problems() -> set[str]:
    """Every problem sentence, and every ``WHAT`` of ``WHAT: NAME``, in the checking code."""
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(pack))
    found: set[str] = set()
    for fn in tree.body:
        if not isinstance(fn, ast.FunctionDef) or fn.name not in CHECKING:
            continue
        skip = {id(n.value) for n in ast.walk(fn) if isinstance(n, ast.Expr)}  # docstrings
        for node in ast.walk(fn):
            if isinstance(node, ast.JoinedStr):
                skip.update(id(v) for v in node.values)
                head = node.values[0]
                if isinstance(head, ast.Constant) and str(head.value).endswith(": "):
                    found.add(str(head.value)[:-2])
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "_Unreadable"
            ):
                found.update(a.value for a in node.args if isinstance(a, ast.Constant) and a.value)
        found.update(
            n.value
            for n in ast.walk(fn)
            if isinstance(n, ast.Constant)
            and isinstance(n.value, str)
            and " " in n.value
            and id(n) not in skip
        )
    return found - INTERNAL


def test_every_problem_the_check_can_report_has_words() -> None:
    """A sentence added to evidence/pack.py without words here fails (it would show in
    English in every language)."""
    found = reported_problems()
    assert {"damaged", "duplicated", "too many files for a pack", "changed"} <= found
    assert found - set(words.PACK_PROBLEMS) == set()


def test_a_problem_the_dialog_does_not_know_is_shown_as_written() -> None:
    assert words.problem_text("something new: x.csv") == "something new: x.csv"
    assert words.problem_text("damaged: accounts.csv") == "damaged, cannot be read: accounts.csv"


def test_an_unreadable_trust_file_is_said_and_the_pack_is_still_checked(
    loop: qasync.QEventLoop, panel: SnapshotsPanel, tmp_path: Path, trusted: TrustStore
) -> None:
    trusted.path.write_text("{not json", encoding="utf-8")
    path = signed_pack(tmp_path / "p.zip", Ed25519PrivateKey.generate())
    check = run(loop, panel.verify_file(path))
    assert check.status == "untrusted"
    assert "The list of trusted keys cannot be read" in panel.message.text
    assert str(trusted.path) in panel.message.text


def test_a_bad_fingerprint_is_refused_and_the_form_kept(
    loop: qasync.QEventLoop, panel: SnapshotsPanel, trusted: TrustStore, key_store: keys.MemoryStore
) -> None:
    mine = fingerprint(keys.signing_key(key_store))
    listing = run(loop, panel.open_trusted_keys())
    assert listing.isVisible() and listing.table.rowCount() == 1
    assert run(loop, panel.open_trusted_keys()) is listing  # one list at a time
    assert listing.table.item(0, 1).text() == mine  # this installation's key, first
    ask = listing.ask_add()
    assert not ask.fingerprint.isReadOnly()
    ask.fingerprint.setText("abcd 1234 not hex")
    ask.name.setText(COLLEAGUE)
    ask.ok_button.click()
    assert ask.isVisible() and ask.error.isVisible()
    assert "This is not a key fingerprint" in ask.error.text()
    assert ask.error.property("tone") == "error"
    run(loop, settle(0.1))
    save_screenshot(ask, SHOTS / "evidence-trust-add-error.png")
    assert ask.fingerprint.text() == "abcd 1234 not hex" and ask.name.text() == COLLEAGUE
    assert trusted.keys() == []

    ask.fingerprint.setText(mine.replace(" ", "").upper())
    ask.ok_button.click()
    assert "this installation's own key" in ask.error.text() and trusted.keys() == []

    other = fingerprint(Ed25519PrivateKey.generate())
    ask.fingerprint.setText(other.replace(" ", ":"))
    ask.name.setText("  ")
    ask.ok_button.click()
    assert "Give the key a name" in ask.error.text() and trusted.keys() == []
    ask.name.setText(COLLEAGUE)
    ask.ok_button.click()
    assert not ask.isVisible()
    assert listed(trusted) == [(other, COLLEAGUE)]
    assert listing.table.rowCount() == 2 and listing.table.item(1, 0).text() == COLLEAGUE
    assert listing.selected_fingerprint() == (other, other)
    run(loop, settle(0.1))
    save_screenshot(listing, SHOTS / "evidence-trusted-keys.png")


def test_removing_a_key_asks_first_and_the_own_key_cannot_be_removed(
    loop: qasync.QEventLoop, panel: SnapshotsPanel, trusted: TrustStore, key_store: keys.MemoryStore
) -> None:
    keys.signing_key(key_store)
    other = fingerprint(Ed25519PrivateKey.generate())
    trusted.add(other, COLLEAGUE)
    listing = run(loop, panel.open_trusted_keys())
    listing.table.selectRow(0)
    assert not listing.remove_button.isEnabled() and listing.ask_remove() is None
    listing.table.selectRow(1)
    assert listing.remove_button.isEnabled()
    box = listing.ask_remove()
    assert box is not None and box.isVisible() and COLLEAGUE in box.text()
    box.reject()  # Cancel keeps it
    assert listed(trusted) == [(other, COLLEAGUE)]
    box = listing.ask_remove()
    assert box is not None
    next(b for b in box.buttons() if b.objectName() == "trustRemoveYes").click()
    assert trusted.keys() == [] and listing.table.rowCount() == 1


def test_removing_the_trusted_signer_redoes_the_check_shown(
    loop: qasync.QEventLoop, panel: SnapshotsPanel, tmp_path: Path, trusted: TrustStore
) -> None:
    colleague = Ed25519PrivateKey.generate()
    trusted.add(fingerprint(colleague), COLLEAGUE)
    path = signed_pack(tmp_path / "p.zip", colleague)
    assert run(loop, panel.verify_file(path)).status == "intact"
    dialog = shown(panel)
    dialog.keys_button.click()
    listing: TrustedKeysDialog = run(loop, wait_for(lambda: panel.trusted_dialog))
    assert listing.parent() is dialog
    listing.select(fingerprint(colleague))
    assert listing.remove(fingerprint(colleague))
    run(loop, wait_for(lambda: dialog.check is not None and dialog.check.status == "untrusted"))
    assert dialog.signer.text() == "a key you do not trust"


def test_the_kiosk_keeps_every_control_of_the_check_and_the_list(
    loop: qasync.QEventLoop, panel: SnapshotsPanel, tmp_path: Path
) -> None:
    """Trusting a key is this computer's business (no server is asked): the kiosk offers it."""
    guard = KioskGuard()
    assert guard.walk(panel) == []
    assert panel.trusted_button.isVisible() and panel.verify_button.isVisible()
    run(loop, panel.verify_file(signed_pack(tmp_path / "p.zip", Ed25519PrivateKey.generate())))
    dialog = shown(panel)
    assert guard.walk(dialog) == [] and dialog.trust_button.isVisible()
    listing = run(loop, panel.open_trusted_keys())
    assert guard.walk(listing) == [] and guard.walk(listing.ask_add()) == []


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_name_reading_as_this_installations_key_is_refused_in_the_readers_language(
    loop: qasync.QEventLoop, panel: SnapshotsPanel, trusted: TrustStore, language: str
) -> None:
    """Typed in the Add window: a colleague's key named as this installation's own (here in
    Japanese look-alike full-width letters) is refused, saying why, and nothing is added."""
    from portal_admin.ui.i18n.translators import LanguageManager

    languages = LanguageManager()
    languages.set_language(language)
    try:
        listing = run(loop, panel.open_trusted_keys())
        ask = listing.ask_add()
        ask.fingerprint.setText(fingerprint(Ed25519PrivateKey.generate()))
        for name in ("ｔｈｉｓ ｉｎｓｔａｌｌａｔｉｏｎ’ｓ ｋｅｙ", "このインストールの鍵"):
            ask.name.setText(name)
            ask.ok_button.click()
            assert ask.isVisible() and ask.error.isVisible()
            english = "This name reads as this installation's own key. Name whose key it is."
            assert (ask.error.text() == english) == (language == "en"), ask.error.text()
            assert "may not read as" not in ask.error.text()  # the engine's English sentence
            assert trusted.keys() == []
        run(loop, settle(0.1))
        save_screenshot(ask, SHOTS / f"evidence-trust-add-imitation-{language}.png")
    finally:
        languages.set_language("en")


@pytest.mark.parametrize(
    ("language", "suffix"), [("ja", "ja"), ("vi", "vi"), ("zh-Hans", "zh"), ("zh-Hant", "zh-Hant")]
)
def test_the_check_and_the_list_speak_the_interfaces_language(
    loop: qasync.QEventLoop,
    panel: SnapshotsPanel,
    tmp_path: Path,
    trusted: TrustStore,
    key_store: keys.MemoryStore,
    language: str,
    suffix: str,
) -> None:
    from PySide6.QtCore import QCoreApplication

    from portal_admin.ui.i18n.translators import LanguageManager

    keys.signing_key(key_store)  # this installation's key, listed first
    colleague = Ed25519PrivateKey.generate()
    path = signed_pack(tmp_path / "from-elsewhere.zip", colleague)
    languages = LanguageManager()
    languages.set_language(language)
    try:
        run(loop, settle(0.05))
        for context, table in (
            ("PackCheck", words.SIGNERS),
            ("PackCheck", words.PACK_PROBLEMS),
        ):
            for source in table.values():
                assert QCoreApplication.translate(context, source) != source, source
        assert panel.trusted_button.text() != "Trusted keys…"
        run(loop, panel.verify_file(path))
        dialog = shown(panel)
        english = {
            "signer": "a key you do not trust",
            "label": "Signed by:",
            "trust": "Trust this key…",
            "keys": "Trusted keys…",
            "again": "Check again",
        }
        seen = {
            "signer": dialog.signer.text(),
            "label": dialog.signer_label.text(),
            "trust": dialog.trust_button.text(),
            "keys": dialog.keys_button.text(),
            "again": dialog.again_button.text(),
        }
        assert all(seen[k] != english[k] for k in english), seen
        assert "not verified" not in dialog.verdict.text()
        assert "Compare the fingerprint" not in dialog.advice.text()
        assert dialog.fingerprint.text() == fingerprint(colleague)
        run(loop, settle(0.1))
        save_screenshot(dialog, SHOTS / f"evidence-pack-untrusted-{suffix}.png")

        dialog.trust_button.click()
        ask = dialog.add_dialog
        assert ask is not None
        ask.fingerprint.setReadOnly(False)
        ask.fingerprint.setText("nope")
        ask.name.setText(COLLEAGUE)
        ask.ok_button.click()
        assert ask.error.isVisible() and "This is not a key fingerprint" not in ask.error.text()
        assert ask.windowTitle() != "Trust a signing key"
        run(loop, settle(0.1))
        save_screenshot(ask, SHOTS / f"evidence-trust-add-error-{suffix}.png")
        ask.fingerprint.setText(fingerprint(colleague))
        ask.ok_button.click()
        run(loop, wait_for(lambda: dialog.check is not None and dialog.check.status == "intact"))
        assert COLLEAGUE in dialog.signer.text() and "the trusted key" not in dialog.signer.text()
        run(loop, settle(0.1))
        save_screenshot(dialog, SHOTS / f"evidence-pack-trusted-{suffix}.png")

        listing = run(loop, panel.open_trusted_keys(dialog))
        assert listing.windowTitle() != "Trusted keys"
        assert listing.table.horizontalHeaderItem(1).text() != "Fingerprint"
        run(loop, settle(0.1))
        save_screenshot(listing, SHOTS / f"evidence-trusted-keys-{suffix}.png")
    finally:
        languages.set_language("en")


def test_a_list_that_cannot_be_read_or_saved_is_said_and_nothing_is_lost(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    damaged = TrustStore(tmp_path / "trusted_keys.json")
    damaged.path.write_text('{"format": 1, "keys": "nope"}', encoding="utf-8")
    listing = TrustedKeysDialog(damaged, own=None)
    qtbot.addWidget(listing)
    listing.open()
    assert "The list of trusted keys cannot be read" in listing.note.text()
    assert str(damaged.path) in listing.note.text() and listing.table.rowCount() == 0
    ask = listing.ask_add()
    ask.fingerprint.setText(fingerprint(Ed25519PrivateKey.generate()))
    ask.name.setText(COLLEAGUE)
    ask.ok_button.click()
    assert ask.isVisible() and "The key was not added" in ask.error.text()
    assert damaged.path.read_text(encoding="utf-8") == '{"format": 1, "keys": "nope"}'

    unsaveable = TrustStore(tmp_path / "full" / "trusted_keys.json")

    def full_disk(_entries: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(unsaveable, "_write", full_disk)
    ask = AddKeyDialog(unsaveable)
    qtbot.addWidget(ask)
    ask.open()
    ask.fingerprint.setText(fingerprint(Ed25519PrivateKey.generate()))
    ask.name.setText(COLLEAGUE)
    assert ask.submit() is None
    assert "could not be saved: No space left on device" in ask.error.text()
    assert ask.isVisible() and ask.name.text() == COLLEAGUE
