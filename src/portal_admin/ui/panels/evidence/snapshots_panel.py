"""The Snapshots panel: take snapshots, compare two, write signed evidence packs.

Snapshots send read operations only, so the kiosk offers all of it. A snapshot runs as a
task of the panel with progress and Cancel; an interrupted one leaves nothing behind
(``evidence/snapshot.py``). Diffs and packs are built in a worker thread.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
import tempfile
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from portal_admin.evidence import diff as differ
from portal_admin.evidence import keys, pack, trust
from portal_admin.evidence import snapshot as snapshots
from portal_admin.evidence.pack import PackVerification, verify_pack
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP, fill
from portal_admin.ui.lists.table_actions import TableActions
from portal_admin.ui.panels.base import PanelBase
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.tour.screenshots import TourStep
from portal_admin.ui.widgets import file_dialogs
from portal_admin.ui.widgets.message_bar import MessageBar
from portal_admin.ui.widgets.plain import PlainLabel, plain_tooltip

from ...error_info import ErrorInfo, describe_error
from ...file_work import FileWork, file_error, in_worker
from . import packing
from .diff_view import DiffView, taken_at
from .pack_check_dialog import PackCheckDialog
from .trust_dialog import TrustedKeysDialog

log = logging.getLogger(__name__)

COLUMNS = (
    QT_TRANSLATE_NOOP("SnapshotsPanel", "Taken"),
    QT_TRANSLATE_NOOP("SnapshotsPanel", "Server"),
    QT_TRANSLATE_NOOP("SnapshotsPanel", "Account"),
    QT_TRANSLATE_NOOP("SnapshotsPanel", "Accounts"),
    QT_TRANSLATE_NOOP("SnapshotsPanel", "Roles"),
    QT_TRANSLATE_NOOP("SnapshotsPanel", "Invitations"),
    QT_TRANSLATE_NOOP("SnapshotsPanel", "File"),
)
STAGES = {
    "accounts": QT_TRANSLATE_NOOP("SnapshotsPanel", "Reading accounts: %1 of %2"),
    "roles": QT_TRANSLATE_NOOP("SnapshotsPanel", "Reading roles"),
    "invitations": QT_TRANSLATE_NOOP("SnapshotsPanel", "Reading invitations"),
    "security": QT_TRANSLATE_NOOP("SnapshotsPanel", "Reading the security settings"),
    "notifications": QT_TRANSLATE_NOOP("SnapshotsPanel", "Reading notification channels"),
}
NOT_USABLE = {
    "NOT_FOUND": QT_TRANSLATE_NOOP("SnapshotsPanel", "The file %1 does not exist."),
    "NOT_A_SNAPSHOT": QT_TRANSLATE_NOOP(
        "SnapshotsPanel", "%1 is not a snapshot of this program, or it is damaged."
    ),
    "INCOMPLETE": QT_TRANSLATE_NOOP(
        "SnapshotsPanel", "%1 is an incomplete snapshot: it was interrupted before it was finished."
    ),
    "NEWER_SCHEMA": QT_TRANSLATE_NOOP(
        "SnapshotsPanel", "%1 was made by a newer version of the program."
    ),
    "FOREIGN_SQL": QT_TRANSLATE_NOOP(
        "SnapshotsPanel",
        "%1 holds SQL that no snapshot of this program has (a trigger, a view or another"
        " object): it was refused unread.",
    ),
    "SCHEMA": QT_TRANSLATE_NOOP(
        "SnapshotsPanel", "%1 does not have the tables of a snapshot of this program: refused."
    ),
    "DAMAGED": QT_TRANSLATE_NOOP(
        "SnapshotsPanel", "%1 is damaged: its integrity check failed, so it was not used."
    ),
    "TOO_SLOW": QT_TRANSLATE_NOOP(
        "SnapshotsPanel", "%1 could not be read in time, so it was not used."
    ),
    "CHANGED": QT_TRANSLATE_NOOP(
        "SnapshotsPanel", "%1 was changed since it was opened: open it again."
    ),
}


def _tr(text: str) -> str:
    return QCoreApplication.translate("SnapshotsPanel", text)


def not_usable(exc: snapshots.SnapshotError, path: Path) -> ErrorInfo:
    """A file offered as a snapshot that cannot be one, said plainly."""
    template = NOT_USABLE.get(exc.code, NOT_USABLE["NOT_A_SNAPSHOT"])
    return ErrorInfo(
        QCoreApplication.translate("SnapshotsPanel", "This file cannot be used as a snapshot."),
        fill(_tr(template), path.name),
    )


def snapshot_failure(path: Path) -> Callable[[BaseException], ErrorInfo]:
    """How a failure of file work on the snapshot at ``path`` is said: :func:`not_usable` for
    a file that is no snapshot, :func:`file_error` for the rest."""

    def describe(exc: BaseException) -> ErrorInfo:
        if isinstance(exc, snapshots.SnapshotError):
            return not_usable(exc, exc.path or path)
        return file_error(exc)

    return describe


class _TrustingNone(trust.TrustStore):
    """No trusted key: what a check is given when the list of trusted keys cannot be read
    (``verify_pack`` only looks keys up; nothing is ever added to this one)."""

    def keys(self) -> list[trust.TrustedKey]:
        return []


def own_of(
    provider: Callable[[], str | None] | None, key_store: keys.SecretStore | None
) -> str | None:
    """This installation's fingerprint (the provider's when given), None without a key.

    This and :func:`check_pack` run in worker threads: plain functions, so that a thread never
    holds the panel (which must be deleted on the GUI thread)."""
    try:
        return provider() if provider is not None else trust.own_fingerprint(key_store)
    except keys.KeyUnavailable:
        return None


def check_pack(
    path: Path,
    trust_store: Any,
    provider: Callable[[], str | None] | None,
    key_store: keys.SecretStore | None,
) -> tuple[PackVerification, str | None, str]:
    """(the check, this installation's fingerprint, why the trusted keys could not be read);
    with an unreadable list of trusted keys the pack is checked trusting none."""
    own = own_of(provider, key_store)
    try:
        return verify_pack(path, trust=trust_store, own=own), own, ""
    except trust.TrustError as exc:
        return verify_pack(path, trust=_TrustingNone(), own=own), own, str(exc)


class SnapshotsPanel(PanelBase):
    """Snapshots of this computer's folder (and files opened), their diff, packs."""

    def __init__(
        self,
        context: PanelContext,
        parent: QWidget | None = None,
        folder: Path | None = None,
        key_store: keys.SecretStore | None = None,
        trust_store: trust.TrustStore | None = None,
        own: Callable[[], str | None] | None = None,
    ) -> None:
        super().__init__(context, parent)
        self.setObjectName("snapshotsPanel")
        self.folder = folder or snapshots.default_folder()
        self.key_store = key_store or context.extras.get("evidence_key_store")
        self._trust_store = trust_store or context.extras.get("evidence_trust_store")
        #: Reads this installation's fingerprint, or None (called in a worker thread; makes
        #: no key). By default ``trust.own_fingerprint`` of the key store.
        self.own_fingerprint = own
        #: The last pack check shown, and the list of trusted keys (while open).
        self.check_dialog: PackCheckDialog | None = None
        self.trusted_dialog: TrustedKeysDialog | None = None
        self.snapshots: list[snapshots.Snapshot] = []
        #: Snapshot files opened from elsewhere (listed until the program ends).
        self.opened: list[snapshots.Snapshot] = []
        self.taking: asyncio.Task[Any] | None = None
        self._cancelled = False
        self.message = MessageBar(self)
        self.take_button = QPushButton(self)
        self.take_button.setObjectName("takeSnapshot")
        self.compare_last_button = QPushButton(self)
        self.compare_last_button.setObjectName("snapshotAndCompare")
        self.cancel_button = QPushButton(self)
        self.cancel_button.setObjectName("cancelSnapshot")
        self.cancel_button.setVisible(False)
        self.progress = QProgressBar(self)
        self.progress.setObjectName("snapshotProgress")
        self.progress.setVisible(False)
        self.stage = PlainLabel(self)
        self.stage.setObjectName("snapshotStage")
        self.take_button.clicked.connect(lambda: self.spawn(self.take()))
        self.compare_last_button.clicked.connect(lambda: self.spawn(self.take_and_compare()))
        self.cancel_button.clicked.connect(self.cancel)
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setObjectName("snapshotsTable")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        # F5 too; the list also follows the folder (the command line may take snapshots).
        self.refresh_button = QPushButton(self)
        self.refresh_button.setObjectName("snapshotsRefresh")
        self.refresh_button.clicked.connect(self.refresh)
        self.compare_button = QPushButton(self)
        self.compare_button.setObjectName("compareSnapshots")
        self.open_button = QPushButton(self)
        self.open_button.setObjectName("openSnapshot")
        self.pack_button = QPushButton(self)
        self.pack_button.setObjectName("snapshotPack")
        self.verify_button = QPushButton(self)
        self.verify_button.setObjectName("verifyPack")
        self.verify_button.clicked.connect(self._ask_verify)
        self.trusted_button = QPushButton(self)
        self.trusted_button.setObjectName("trustedKeys")
        self.trusted_button.clicked.connect(lambda: self.spawn(self.open_trusted_keys()))
        self.campaign_button = QPushButton(self)
        self.campaign_button.setObjectName("newCampaignFromSnapshot")
        self.campaign_button.clicked.connect(self.start_campaign)
        self.compare_button.clicked.connect(lambda: self.spawn(self.compare_selected()))
        self.open_button.clicked.connect(self._ask_open)
        self.pack_button.clicked.connect(self._ask_snapshot_pack)
        # Compare takes two snapshots, a pack one: the menu offers them as the buttons are;
        # Enter compares the two selected.
        self.table_actions = TableActions(self.table, id_column=len(COLUMNS) - 1)
        self.table_actions.add_row_buttons(self.compare_button, self.pack_button)
        self.table_actions.rowActivated.connect(lambda _row: self.compare_button.click())
        self.diff_view = DiffView(self)
        self.diff_view.exportRequested.connect(self._ask_diff_export)

        actions = QHBoxLayout()
        for widget in (self.take_button, self.compare_last_button, self.cancel_button):
            actions.addWidget(widget)
        actions.addWidget(self.progress, 1)
        actions.addWidget(self.stage, 1)
        # Two rows: what acts on the listed snapshots, then on files from elsewhere and the
        # trusted keys (in one row, the panel was wider than a 1024-pixel window in Japanese).
        list_buttons = QHBoxLayout()
        for widget in (
            self.refresh_button,
            self.compare_button,
            self.pack_button,
            self.campaign_button,
        ):
            list_buttons.addWidget(widget)
        list_buttons.addStretch(1)
        file_buttons = QHBoxLayout()
        for widget in (self.open_button, self.verify_button, self.trusted_button):
            file_buttons.addWidget(widget)
        file_buttons.addStretch(1)
        top = QWidget(self)
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(self.table, 1)
        top_layout.addLayout(list_buttons)
        top_layout.addLayout(file_buttons)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(top)
        split.addWidget(self.diff_view)
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 3)
        layout = QVBoxLayout(self)
        layout.addWidget(self.message)
        layout.addLayout(actions)
        layout.addWidget(split, 1)
        self._selection_changed()
        self.watch_files(lambda: (self.folder,))
        self.retranslateUi()

    # -- the list ------------------------------------------------------------------------------

    async def reload(self) -> object:
        """List the complete snapshots of the folder (in a worker thread)."""
        found = await in_worker(snapshots.list_snapshots, self.folder)
        known = {s.path for s in found}
        self.snapshots = found + [s for s in self.opened if s.path not in known]
        self._fill()
        self.loaded = True
        return self.snapshots

    def refresh(self) -> None:
        """F5: list the folder again."""
        self.start_reload()

    def _fill(self) -> None:
        self.table.setRowCount(len(self.snapshots))
        for r, s in enumerate(self.snapshots):
            counts = s.counts()
            values = (
                taken_at(s.meta.get("finished")),
                str(s.meta.get("server", "")),
                str(s.meta.get("account", "")),
                counts.get("accounts", 0),
                counts.get("roles", 0),
                counts.get("invitations", 0),
                s.path.name,
            )
            for c, value in enumerate(values):
                item = QTableWidgetItem(str(value))
                if isinstance(value, int):
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                item.setToolTip(plain_tooltip(str(s.path)))
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()
        self._selection_changed()

    def selected(self) -> list[snapshots.Snapshot]:
        """The snapshots selected in the list, oldest first."""
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()})
        chosen = [self.snapshots[r] for r in rows if r < len(self.snapshots)]
        return sorted(chosen, key=lambda s: (str(s.meta.get("finished", "")), s.path.name))

    def _selection_changed(self) -> None:
        n = len(self.table.selectionModel().selectedRows())
        self.compare_button.setEnabled(n == 2)
        self.compare_button.setToolTip(
            "" if n == 2 else QCoreApplication.translate("SnapshotsPanel", "Select two snapshots.")
        )
        self.pack_button.setEnabled(n == 1)
        self.campaign_button.setEnabled(n == 1)
        self.campaign_button.setToolTip(
            QCoreApplication.translate(
                "SnapshotsPanel", "An access-review campaign of the selected snapshot"
            )
            if n == 1
            else QCoreApplication.translate("SnapshotsPanel", "Select one snapshot.")
        )
        self.pack_button.setToolTip(
            QCoreApplication.translate(
                "SnapshotsPanel", "A signed zip of the selected snapshot: CSV and a report"
            )
            if n == 1
            else QCoreApplication.translate("SnapshotsPanel", "Select one snapshot.")
        )

    def start_campaign(self) -> QWidget | None:
        """The Review campaigns panel, its New campaign dialog on the selected snapshot."""
        chosen = self.selected()
        show = getattr(self.window(), "show_panel", None)
        panel = show("campaigns") if callable(show) and len(chosen) == 1 else None
        if panel is None or not hasattr(panel, "open_create"):
            return None
        dialog: QWidget = panel.open_create(chosen[0].path)
        return dialog

    # -- taking --------------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        """True while a snapshot is being taken."""
        return self.taking is not None and not self.taking.done()

    async def take(self) -> snapshots.Snapshot | None:
        """Take a snapshot of the signed-in server into the folder; None when it did not end."""
        if self.busy:
            return None
        self.message.clear()
        server = str(self.client.base_url)
        path = snapshots.new_path(self.folder, server)
        self.taking = asyncio.current_task()
        self._running(True)
        try:
            me = await self.context.live_profile()
            taken = await snapshots.take_snapshot(
                self.client,
                path,
                profile=self.context.profile.name,
                server=server,
                account=str(getattr(me, "account_email", "") or ""),
                progress=self._progress,
            )
        except asyncio.CancelledError:
            task = self.taking
            if task is None or not self._cancelled:
                raise  # the panel is closing
            task.uncancel()
            self.message.show_notice(
                QCoreApplication.translate(
                    "SnapshotsPanel", "The snapshot was cancelled; nothing was kept."
                )
            )
            return None
        except Exception as exc:
            log.info("snapshot failed: %s", exc)
            info = describe_error(exc)
            self.message.show_error(
                ErrorInfo(
                    QCoreApplication.translate(
                        "SnapshotsPanel", "The snapshot could not be finished; nothing was kept."
                    ),
                    info.summary,
                    info.code,
                    info.http_status,
                    info.request_id,
                )
            )
            return None
        finally:
            self.taking = None
            self._running(False)
        self.opened = [s for s in self.opened if s.path != taken.path]
        await self.reload()
        self.message.show_notice(
            fill(
                QCoreApplication.translate(
                    "SnapshotsPanel", "Snapshot taken: %1 accounts, %2 roles, %3 invitations."
                ),
                taken.counts().get("accounts", 0),
                taken.counts().get("roles", 0),
                taken.counts().get("invitations", 0),
            )
        )
        return taken

    def cancel(self) -> None:
        """Stop the snapshot under way (its file is removed)."""
        if self.busy and self.taking is not None:
            self._cancelled = True
            self.taking.cancel()

    def _running(self, running: bool) -> None:
        if running:
            self._cancelled = False
        self.take_button.setEnabled(not running)
        self.compare_last_button.setEnabled(not running)
        self.cancel_button.setVisible(running)
        self.progress.setVisible(running)
        self.progress.setRange(0, 0)
        self.stage.setText(
            QCoreApplication.translate("SnapshotsPanel", "Starting the snapshot…")
            if running
            else ""
        )

    def _progress(self, stage: str, done: int, total: int) -> None:
        if stage == "accounts" and total:
            self.progress.setRange(0, total)
            self.progress.setValue(done)
        self.stage.setText(fill(_tr(STAGES.get(stage, stage)), done, total))

    async def take_and_compare(self) -> differ.SnapshotDiff | None:
        """Take a snapshot now and compare it with the last one of the same server."""
        server = str(self.client.base_url)
        earlier = await in_worker(snapshots.list_snapshots, self.folder)
        last = next((s for s in earlier if s.meta.get("server") == server), None)
        taken = await self.take()
        if taken is None:
            return None
        if last is None:
            self.message.show_notice(
                QCoreApplication.translate(
                    "SnapshotsPanel",
                    "Snapshot taken. There was no earlier snapshot of this server: this one is"
                    " the baseline of the next comparison.",
                )
            )
            return None
        result = await self.compare(last.path, taken.path)
        if result is not None:
            self.message.show_notice(
                fill(
                    QCoreApplication.translate(
                        "SnapshotsPanel",
                        "Snapshot taken and compared with the one of %1: %2 changes.",
                    ),
                    taken_at(last.meta.get("finished")),
                    len(result.changes),
                )
            )
        return result

    # -- comparing -----------------------------------------------------------------------------

    async def compare(self, old: Path, new: Path) -> differ.SnapshotDiff | None:
        """Show what changed from ``old`` to ``new``."""
        work = partial(differ.diff_snapshots, old, new)
        result = await FileWork(work, self.message.show_error, describe=snapshot_failure(new)).run()
        if result is None:
            return None
        self.diff_view.show_diff(result)
        return result

    async def compare_selected(self) -> differ.SnapshotDiff | None:
        """Compare the two selected snapshots (older to newer)."""
        chosen = self.selected()
        if len(chosen) != 2:
            return None
        return await self.compare(chosen[0].path, chosen[1].path)

    def _ask_open(self) -> None:
        file_dialogs.ask_open(
            self,
            QCoreApplication.translate("SnapshotsPanel", "Snapshots (*.sqlite);;All files (*)"),
            lambda path: self.spawn(self.open_file(path)),
        )

    async def open_file(self, path: Path) -> snapshots.Snapshot | None:
        """Add a snapshot file from elsewhere to the list (a clear message if it is not one)."""
        work = partial(snapshots.open_snapshot, path)
        describe = snapshot_failure(path)
        opened = await FileWork(work, self.message.show_error, describe=describe).run()
        if opened is None:
            return None
        self.message.clear()
        self.opened.append(opened)
        await self.reload()
        return opened

    def _ask_verify(self) -> None:
        file_dialogs.ask_open(
            self,
            QCoreApplication.translate("SnapshotsPanel", "Evidence packs (*.zip);;All files (*)"),
            lambda path: self.spawn(self.verify_file(path)),
        )

    @property
    def trust_store(self) -> trust.TrustStore:
        """The keys this computer trusts (``evidence/trust.py``; the user's file by default)."""
        if self._trust_store is None:
            self._trust_store = trust.TrustStore()
        return self._trust_store

    async def verify_file(self, path: Path) -> PackVerification:
        """Check a pack's signer, signature and every file's hash, and show what was found
        (signer first) in the pack check dialog."""
        self.message.clear()
        check, own, unreadable = await in_worker(
            check_pack, path, self.trust_store, self.own_fingerprint, self.key_store
        )
        if unreadable:
            self.message.show_error(
                ErrorInfo(
                    QCoreApplication.translate(
                        "SnapshotsPanel",
                        "The list of trusted keys cannot be read: only this installation's"
                        " key is trusted for now.",
                    ),
                    unreadable,
                )
            )
        self.pack_check().show_check(check, own)
        return check

    def pack_check(self) -> PackCheckDialog:
        """The pack check dialog (made once, kept while the panel lives)."""
        if self.check_dialog is None:
            dialog = PackCheckDialog(self.trust_store, self)
            dialog.recheckRequested.connect(lambda path: self.spawn(self.verify_file(path)))
            dialog.trustedKeysRequested.connect(lambda: self.spawn(self.open_trusted_keys(dialog)))
            self.check_dialog = dialog
        return self.check_dialog

    async def open_trusted_keys(self, parent: QWidget | None = None) -> TrustedKeysDialog:
        """Open the list of trusted keys (this installation's key read in a worker thread);
        the one already open is brought forward."""
        if self.trusted_dialog is not None and self.trusted_dialog.isVisible():
            self.trusted_dialog.raise_()
            self.trusted_dialog.activateWindow()
            return self.trusted_dialog
        own = await in_worker(own_of, self.own_fingerprint, self.key_store)
        dialog = TrustedKeysDialog(self.trust_store, own, parent or self)
        dialog.changed.connect(self._trust_changed)
        dialog.finished.connect(dialog.deleteLater)
        dialog.destroyed.connect(lambda: setattr(self, "trusted_dialog", None))
        self.trusted_dialog = dialog
        dialog.open()
        return dialog

    def _trust_changed(self) -> None:
        """A key was added or removed: the check shown is redone."""
        shown = self.check_dialog
        if shown is not None and shown.isVisible() and shown.path is not None:
            self.spawn(self.verify_file(shown.path))

    # -- exports -------------------------------------------------------------------------------

    def _ask_snapshot_pack(self) -> None:
        chosen = self.selected()
        if len(chosen) == 1:
            name = chosen[0].path.with_suffix(".zip").name
            file_dialogs.ask_save(
                self, name, "zip", lambda p: self.spawn(self.write_snapshot_pack(chosen[0], p))
            )

    def _ask_diff_export(self, kind: str) -> None:
        if self.diff_view.diff is None:
            return
        if kind == "csv":
            file_dialogs.ask_save(
                self, "snapshot-diff.csv", "csv", lambda p: self.spawn(self.write_diff_csv(p))
            )
        else:
            file_dialogs.ask_save(
                self, "snapshot-diff.zip", "zip", lambda p: self.spawn(self.write_diff_pack(p))
            )

    async def write_diff_csv(self, path: Path) -> int:
        """Every change of the diff shown, as CSV."""
        result = self.diff_view.diff
        if result is None:
            return 0
        work = partial(result.write_csv, path)
        n = await FileWork(work, self.message.show_error, what="diff CSV").run()
        if n is None:
            return 0
        self.message.show_notice(
            fill(
                QCoreApplication.translate("SnapshotsPanel", "%1 changes written to %2."),
                n,
                str(path),
            )
        )
        return n

    async def write_snapshot_pack(
        self, snapshot: snapshots.Snapshot, path: Path
    ) -> dict[str, Any] | None:
        """A signed pack of one snapshot."""
        return await self._pack(
            path,
            lambda: ("snapshot", pack.snapshot_tables(snapshot), pack.snapshot_summary(snapshot)),
        )

    async def write_diff_pack(self, path: Path) -> dict[str, Any] | None:
        """A signed pack of the diff shown."""
        result = self.diff_view.diff
        if result is None:
            return None
        return await self._pack(
            path, lambda: ("diff", pack.diff_tables(result), pack.diff_summary(result))
        )

    async def _pack(self, path: Path, source: packing.PackSource) -> dict[str, Any] | None:
        work = packing.pack_work(path, source, self.key_store, self.message.show_error)
        manifest = await work.run()
        if manifest is None:
            return None
        self.message.show_notice(packing.written(path, manifest))
        return manifest

    # -- the tour ------------------------------------------------------------------------------

    async def tour_steps(self) -> list[TourStep]:
        """A snapshot, then another after a change made elsewhere, their diff, and a check of
        a pack of it signed by a key this computer does not trust."""

        async def snapshot() -> QWidget:
            await self.take()
            return self

        async def diff() -> QWidget:
            change = self.context.extras.get("tour_change")
            if change is not None:
                change()
            await self.take_and_compare()
            return self

        folder: list[Path] = []

        async def verify() -> QWidget:
            """A colleague's pack of that diff (a key made for it: not one this computer
            trusts), checked: the signer and its fingerprint first."""
            result = self.diff_view.diff
            if result is None:
                return self
            folder.append(Path(await in_worker(partial(tempfile.mkdtemp, prefix="portal-admin-"))))
            path = folder[-1] / "review-from-a-colleague.zip"
            await in_worker(
                pack.write_pack,
                path,
                "diff",
                pack.diff_tables(result),
                pack.diff_summary(result),
                Ed25519PrivateKey.generate(),
            )
            await self.verify_file(path)
            return self.pack_check()

        async def close_check(widget: QWidget) -> None:
            if widget is self.check_dialog:
                widget.close()
            for made in folder:
                await in_worker(shutil.rmtree, made, True)

        return [
            TourStep("snapshots-take", snapshot),
            TourStep("snapshots-diff", diff),
            TourStep("snapshots-verify", verify, close_check),
        ]

    kiosk_tour_steps = tour_steps  # reads only

    # -- language ------------------------------------------------------------------------------

    def retranslateUi(self) -> None:
        self.take_button.setText(QCoreApplication.translate("SnapshotsPanel", "Take snapshot"))
        self.compare_last_button.setText(
            QCoreApplication.translate("SnapshotsPanel", "Snapshot and compare with the last")
        )
        self.compare_last_button.setToolTip(
            QCoreApplication.translate(
                "SnapshotsPanel",
                "Take a snapshot now and show what changed since the last one of this server",
            )
        )
        self.cancel_button.setText(QCoreApplication.translate("SnapshotsPanel", "Cancel"))
        self.refresh_button.setText(QCoreApplication.translate("SnapshotsPanel", "Refresh"))
        self.refresh_button.setToolTip(
            QCoreApplication.translate("SnapshotsPanel", "List the snapshots again (F5)")
        )
        self.compare_button.setText(
            QCoreApplication.translate("SnapshotsPanel", "Compare the two selected")
        )
        self.open_button.setText(
            QCoreApplication.translate("SnapshotsPanel", "Open a snapshot file…")
        )
        self.pack_button.setText(QCoreApplication.translate("SnapshotsPanel", "Evidence pack…"))
        self.campaign_button.setText(
            QCoreApplication.translate("SnapshotsPanel", "Review campaign…")
        )
        self._selection_changed()  # the tooltips of compare and pack
        self.verify_button.setText(QCoreApplication.translate("SnapshotsPanel", "Verify a pack…"))
        self.verify_button.setToolTip(
            QCoreApplication.translate(
                "SnapshotsPanel", "Check an evidence pack's signature and every file in it"
            )
        )
        self.trusted_button.setText(QCoreApplication.translate("SnapshotsPanel", "Trusted keys…"))
        self.trusted_button.setToolTip(
            QCoreApplication.translate(
                "SnapshotsPanel", "The signing keys whose packs this computer accepts as verified"
            )
        )
        self.table.setHorizontalHeaderLabels([_tr(t) for t in COLUMNS])
        self.table.setAccessibleName(QCoreApplication.translate("SnapshotsPanel", "Snapshots"))
        self.progress.setAccessibleName(
            QCoreApplication.translate("SnapshotsPanel", "Snapshot progress")
        )
        self.setAccessibleName(QCoreApplication.translate("SnapshotsPanel", "Snapshots"))
