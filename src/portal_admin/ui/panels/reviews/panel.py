"""The Campaigns panel: an access-review campaign file's queue, decided from the keyboard.

Open a campaign file (signed in or not: deciding and signing are local file operations) or
create one from a snapshot; filter the queue; decide one item or many with one justification
(K Keep, R Revoke, D Don't know, N next undecided, J the justification field); see progress,
the due date and what is overdue; sign off, verify, remediate (a bulk job, in the bulk
window; never in the kiosk), close with the closing check, write the pack. Costly steps
(create, sign, verify, progress counts, the closing check, the pack) run in worker threads,
each with its own connection to the file.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QItemSelectionModel, Qt, QTimer
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from portal_admin import jobs
from portal_admin.evidence import keys
from portal_admin.evidence import snapshot as snapshots
from portal_admin.evidence import trust as trusting
from portal_admin.reviews import (
    Campaign,
    CampaignError,
    Decision,
    Item,
    Query,
    Reviewer,
    Verification,
)
from portal_admin.reviews.decisions import decide, needs_justification
from portal_admin.ui import enum_labels
from portal_admin.ui.error_info import ErrorInfo, describe_error
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP, fill
from portal_admin.ui.panels.accounts.message_bar import MessageBar
from portal_admin.ui.panels.base import PanelBase
from portal_admin.ui.panels.evidence import packing
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.permissions import tag_operation
from portal_admin.ui.theme.tones import set_tone
from portal_admin.ui.tour.screenshots import TourStep
from portal_admin.ui.widgets.plain import PlainLabel, plain_tooltip

from . import confirmations, identity, queue_columns, refusals, signers, work
from .create_dialog import CreateDialog
from .plain import plain
from .queue_model import QueueModel, decision_words, flag_words, reason_words
from .remediation_dialog import RemediationDialog

log = logging.getLogger(__name__)

SHOW = (
    ("", QT_TRANSLATE_NOOP("Campaigns", "All items")),
    ("UNDECIDED", QT_TRANSLATE_NOOP("Campaigns", "Undecided")),
    ("FLAGGED", QT_TRANSLATE_NOOP("Campaigns", "Flagged")),
    ("KEEP", QT_TRANSLATE_NOOP("Campaigns", "Kept")),
    ("REVOKE", QT_TRANSLATE_NOOP("Campaigns", "Revoked")),
    ("DONT_KNOW", QT_TRANSLATE_NOOP("Campaigns", "Don't know")),
)
#: Seconds the engine's checks of a file may take when the panel opens it (a 100,000-item
#: file takes well under one); past them, and a few more, the panel gives up waiting.
OPEN_LIMIT = 10.0
OPEN_GRACE = 5.0
OUTCOMES = {
    "revoked and done": QT_TRANSLATE_NOOP("Campaigns", "Revoked and done"),
    "revoked, not done": QT_TRANSLATE_NOOP("Campaigns", "Revoked, not done"),
    "kept, changed meanwhile": QT_TRANSLATE_NOOP("Campaigns", "Kept, changed meanwhile"),
    "appeared after the scope": QT_TRANSLATE_NOOP("Campaigns", "Appeared after the scope"),
}
#: What each key of the queue decides.
KEYS = {
    Qt.Key.Key_K: Decision.KEEP,
    Qt.Key.Key_R: Decision.REVOKE,
    Qt.Key.Key_D: Decision.DONT_KNOW,
}


def _tr(text: str) -> str:
    return QCoreApplication.translate("Campaigns", text)


class DecisionWriter:
    """The writer thread's own connection to the campaign file. No Qt and no reference to the
    panel: a panel whose last reference the writer thread dropped would be deleted there,
    off the GUI thread (a crash)."""

    def __init__(self) -> None:
        self.campaign: Campaign | None = None

    def write(self, path: Path, *args: Any) -> int:
        """``decide`` on this thread's connection to the campaign at ``path``."""
        if self.campaign is None or self.campaign.path != path:
            self.close()
            self.campaign = Campaign.open(path)
        self.campaign.reload_meta()  # closed meanwhile?
        return decide(self.campaign, *args, source="desktop")

    def close(self) -> None:
        """Close the connection (on the writer thread)."""
        if self.campaign is not None:
            self.campaign.close()
            self.campaign = None


class CampaignsPanel(PanelBase):
    """One campaign file at a time: its queue, the decision form, the campaign's steps."""

    def __init__(
        self,
        context: PanelContext,
        parent: QWidget | None = None,
        folder: Path | None = None,
        key_store: keys.SecretStore | None = None,
        trust_store: trusting.TrustStore | None = None,
    ) -> None:
        super().__init__(context, parent)
        self.setObjectName("campaignsPanel")
        self.folder = folder or snapshots.default_folder()
        self.key_store = key_store or context.extras.get("evidence_key_store")
        self.kiosk = bool(context.extras.get("kiosk"))
        self.campaign: Campaign | None = None
        self.stats = work.Progress()
        #: Who reviews: this installation's key and the signed-in account (``identity.py``).
        self.identity: Reviewer | None = None
        #: This computer has no usable keyring: nobody can decide here.
        self.keyless = False
        self.create_dialog: CreateDialog | None = None
        self.bulk_dialog: Any = None
        self.remediation_dialog: RemediationDialog | None = None
        self._trust_store = trust_store or context.extras.get("evidence_trust_store")
        #: The question asked before a step (sign off, close) while it shows.
        self.question: QMessageBox | None = None
        self.message = MessageBar(self)
        # the campaign's line
        self.open_button = QPushButton(self)
        self.open_button.setObjectName("openCampaign")
        self.open_button.clicked.connect(self._ask_open)
        self.new_button = QPushButton(self)
        self.new_button.setObjectName("newCampaign")
        self.new_button.clicked.connect(lambda: self.open_create())  # clicked passes a bool
        self.title = PlainLabel(self)
        self.title.setObjectName("campaignTitle")
        self.title.setStyleSheet("font-weight: bold;")
        # a long title is cut, never widens the window (the queue's width is the decision's)
        self.title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.title.setMinimumWidth(80)
        self.due = PlainLabel(self)
        self.due.setObjectName("campaignDue")
        self.progress = PlainLabel(self)
        self.progress.setObjectName("campaignProgress")
        self.progress.setWordWrap(True)
        self.reviewer_label = PlainLabel(self)
        self.reviewer = PlainLabel(self)  # the key's fingerprint, to copy and read out
        self.reviewer.setObjectName("campaignReviewer")
        self.reviewer.setWordWrap(True)
        self.reviewer.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # filters
        self.show_filter = QComboBox(self)
        self.show_filter.setObjectName("campaignShow")
        self.flag_filter = QComboBox(self)
        self.flag_filter.setObjectName("campaignFlag")
        self.decision_portal = QComboBox(self)
        self.decision_portal.setObjectName("campaignPortal")
        self.institution_filter = QComboBox(self)
        self.institution_filter.setObjectName("campaignInstitution")
        self.text_filter = QLineEdit(self)
        self.text_filter.setObjectName("campaignText")
        self.text_filter.setClearButtonEnabled(True)
        self._text_timer = QTimer(self)
        self._text_timer.setSingleShot(True)
        self._text_timer.setInterval(250)
        self._text_timer.timeout.connect(self.apply_filters)
        self.text_filter.textChanged.connect(lambda _t: self._text_timer.start())
        for combo in (self.show_filter, self.flag_filter, self.decision_portal,
                      self.institution_filter):  # fmt: skip
            combo.activated.connect(lambda _i: self.apply_filters())
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        # the queue
        self.model = QueueModel(self)
        # said after the read that failed (a repaint's), never inside it
        self.model.refused.connect(self.show_unreadable, Qt.ConnectionType.QueuedConnection)
        self.table = QTableView(self)
        self.table.setObjectName("campaignQueue")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        queue_columns.lay_out(self.table)
        # the item's detail once per move (a move changes both the current row and the selection)
        self._detail_timer = QTimer(self)
        self._detail_timer.setSingleShot(True)
        self._detail_timer.setInterval(0)
        self._detail_timer.timeout.connect(self._current_changed)
        self.table.selectionModel().currentRowChanged.connect(self._detail_timer.start)
        self.table.selectionModel().selectionChanged.connect(self._detail_timer.start)
        #: Decisions are written by one thread of their own (its own connection to the file):
        #: the fsync of each transaction never holds the loop; one decision at a time.
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="campaign-writer")
        self._writing = DecisionWriter()
        self._deciding = asyncio.Lock()
        self.table.installEventFilter(self)
        # the decision form
        self.detail = PlainLabel(self)
        self.detail.setObjectName("campaignItemDetail")
        self.detail.setWordWrap(True)
        self.detail.setTextFormat(Qt.TextFormat.PlainText)
        self.justification_label = PlainLabel(self)
        self.justification = QLineEdit(self)
        self.justification.setObjectName("campaignJustification")
        self.justification.setMaxLength(2000)
        self.justification_label.setBuddy(self.justification)
        self.required = PlainLabel(self)
        self.required.setObjectName("campaignRequired")
        self.required.setWordWrap(True)
        self.keep_button = QPushButton(self)
        self.keep_button.setObjectName("decideKeep")
        self.revoke_button = QPushButton(self)
        self.revoke_button.setObjectName("decideRevoke")
        self.dont_know_button = QPushButton(self)
        self.dont_know_button.setObjectName("decideDontKnow")
        self.next_button = QPushButton(self)
        self.next_button.setObjectName("nextUndecided")
        for button, decision in ((self.keep_button, Decision.KEEP),
                                 (self.revoke_button, Decision.REVOKE),
                                 (self.dont_know_button, Decision.DONT_KNOW)):  # fmt: skip
            button.clicked.connect(lambda _c=False, d=decision: self.spawn(self.decide(d)))
        self.next_button.clicked.connect(lambda: self.next_undecided())  # clicked passes a bool
        back = QShortcut(QKeySequence(Qt.Key.Key_Escape), self.justification)
        back.setContext(Qt.ShortcutContext.WidgetShortcut)
        back.activated.connect(self.table.setFocus)
        # the campaign's steps
        self.sign_button = QPushButton(self)
        self.sign_button.setObjectName("campaignSign")
        self.sign_button.clicked.connect(lambda: self.spawn(self.sign_off()))
        self.verify_button = QPushButton(self)
        self.verify_button.setObjectName("campaignVerify")
        self.verify_button.clicked.connect(lambda: self.spawn(self.verify()))
        self.remediate_button = QPushButton(self)
        self.remediate_button.setObjectName("campaignRemediate")
        tag_operation(self.remediate_button, "accounts.status")  # the kiosk hides it
        self.remediate_button.setVisible(not self.kiosk)
        self.remediate_button.clicked.connect(lambda: self.spawn(self.remediate()))
        self.close_button = QPushButton(self)
        self.close_button.setObjectName("campaignClose")
        self.close_button.clicked.connect(lambda: self.spawn(self.close_campaign()))
        self.pack_button = QPushButton(self)
        self.pack_button.setObjectName("campaignPack")
        self.pack_button.clicked.connect(self._ask_pack)
        self.closing = QTableWidget(0, 4, self)
        self.closing.setObjectName("campaignClosing")
        self.closing.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.closing.horizontalHeader().setStretchLastSection(True)
        self.closing.verticalHeader().setVisible(False)
        self.closing.setWordWrap(False)
        for column, width in enumerate((260, 220, 140)):
            self.closing.setColumnWidth(column, width)
        self.closing.setVisible(False)
        # the file's text (title, due date, reviewers' names) is shown as written, never as HTML
        plain(self.title, self.due, self.progress, self.required, self.reviewer)
        self._progress_timer = QTimer(self)
        self._progress_timer.setSingleShot(True)
        self._progress_timer.setInterval(200)
        self._progress_timer.timeout.connect(lambda: self.spawn(self.update_progress()))
        self._layout()
        self._enable()
        self.retranslateUi()

    def _layout(self) -> None:
        head = QHBoxLayout()
        for widget in (self.open_button, self.new_button):
            head.addWidget(widget)
        head.addWidget(self.title, 1)
        who = QHBoxLayout()
        who.addWidget(self.reviewer_label)
        who.addWidget(self.reviewer, 1)
        filters = QHBoxLayout()
        for combo in (self.show_filter, self.flag_filter, self.decision_portal,
                      self.institution_filter):  # fmt: skip
            filters.addWidget(combo)
        filters.addWidget(self.text_filter, 1)
        form = QHBoxLayout()
        form.addWidget(self.justification_label)
        form.addWidget(self.justification, 1)
        for button in (self.keep_button, self.revoke_button, self.dont_know_button,
                       self.next_button):  # fmt: skip
            form.addWidget(button)
        steps = QHBoxLayout()
        for button in (self.sign_button, self.verify_button, self.remediate_button,
                       self.close_button, self.pack_button):  # fmt: skip
            steps.addWidget(button)
        steps.addStretch(1)
        top = QWidget(self)
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(self.table, 1)
        top_layout.addWidget(self.detail)
        top_layout.addLayout(form)
        top_layout.addWidget(self.required)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(top)
        split.addWidget(self.closing)
        split.setStretchFactor(0, 4)
        split.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.message)
        layout.addLayout(head)
        layout.addLayout(who)
        status = QHBoxLayout()  # the counts and the due date, under the title
        status.addWidget(self.progress, 1)
        status.addWidget(self.due)
        layout.addLayout(status)
        layout.addLayout(filters)
        layout.addWidget(split, 1)
        layout.addLayout(steps)

    # -- opening ---------------------------------------------------------------------------------

    async def reload(self) -> object:
        """Read who reviews: this installation's key and the signed-in account."""
        await self.load_identity()
        self.loaded = True
        return self.campaign

    def refresh(self) -> None:
        """F5: read the file again."""
        if self.campaign is not None:
            try:
                self.campaign.reload_meta()
            except CampaignError as exc:
                summary = QCoreApplication.translate(
                    "Campaigns", "The campaign cannot be read now."
                )
                self.message.show_error(refusals.refusal(summary, exc, self.campaign.path.name))
                return
            self.model.reload()
            self._enable()
            self._progress_timer.start()

    def show_unreadable(self, exc: CampaignError) -> None:
        """A read of the open campaign the engine refused (a page of a file damaged or edited
        behind the program's back): its cause, in the reader's language."""
        if self.campaign is None:
            return
        summary = QCoreApplication.translate("Campaigns", "The campaign cannot be read now.")
        self.message.show_error(refusals.refusal(summary, exc, self.campaign.path.name))

    def _ask_open(self) -> None:
        packing.ask_open(
            self,
            QCoreApplication.translate("Campaigns", "Campaigns (*.review);;All files (*)"),
            lambda path: self.spawn(self.open_file(path)),
        )

    async def open_file(self, path: Path) -> Campaign | None:
        """Show the campaign at ``path``: the engine's checks of the file run in a worker
        thread, with a time limit (a hostile file never holds the window); a refusal says
        its cause in the reader's language."""
        summary = QCoreApplication.translate("Campaigns", "This file cannot be used as a campaign.")
        try:
            checking = asyncio.to_thread(work.check_open, path, OPEN_LIMIT)
            await asyncio.wait_for(checking, OPEN_LIMIT + OPEN_GRACE)
            # checked: the loop's own connection (the queue's SQL runs on it) opens at once
            campaign = work.reopen(path)
        except TimeoutError:  # the engine's own limit did not stop it: given up all the same
            exc = CampaignError("TOO_SLOW", f"{path.name} was not read in time")
            self.message.show_error(refusals.refusal(summary, exc, path.name))
            return None
        except CampaignError as exc:
            self.message.show_error(refusals.refusal(summary, exc, path.name))
            return None
        except OSError as exc:
            self.message.show_error(ErrorInfo(summary, describe_error(exc).summary))
            return None
        if self.campaign is not None:
            self.campaign.close()
        self.campaign = campaign
        self.message.clear()
        self._fill_filters()
        self._mark_own()
        self.model.set_campaign(campaign, self.query())
        self.closing.setVisible(False)
        if campaign.meta.get("closing"):
            await self.show_closing()
        self._enable()
        await self.update_progress()
        self.retranslateUi()
        if self.model.rowCount():
            self.table.selectRow(0)
        return campaign

    def open_create(self, snapshot: Path | None = None) -> CreateDialog:
        """The dialog that makes a campaign from a snapshot (``snapshot`` chosen; not modal)."""
        if self.create_dialog is None:
            self.create_dialog = CreateDialog(self.folder, self)
            self.create_dialog.createRequested.connect(
                lambda path, snap, settings: self.spawn(self.create_campaign(path, snap, settings))
            )
        self.create_dialog.fill_snapshots(snapshot)
        self.create_dialog.show()
        self.create_dialog.raise_()
        return self.create_dialog

    async def create_campaign(self, path: Path, snapshot: Path, settings: Any) -> Campaign | None:
        """Make the campaign from ``snapshot`` (a worker thread) and open it."""
        try:
            await asyncio.to_thread(work.create, path, snapshot, settings)
        except CampaignError as exc:
            summary = QCoreApplication.translate("Campaigns", "The campaign could not be created.")
            info = refusals.refusal(summary, exc, path.name)
            if self.create_dialog is not None:
                self.create_dialog.show_error(info.message)
            self.message.show_error(info)
            return None
        if self.create_dialog is not None:
            self.create_dialog.hide()
        return await self.open_file(path)

    # -- filters ---------------------------------------------------------------------------------

    def _fill_filters(self) -> None:
        campaign = self.campaign
        if campaign is None:
            return
        self.flag_filter.clear()
        self.flag_filter.addItem(QCoreApplication.translate("Campaigns", "Any flag"), None)
        for code, n in campaign.flag_counts().items():
            self.flag_filter.addItem(f"{flag_words(code)} ({n})", code)
        for combo, column, anything in (
            (self.decision_portal, "portal", QCoreApplication.translate("Campaigns", "Any portal")),
            (
                self.institution_filter,
                "institution",
                QCoreApplication.translate("Campaigns", "Any institution"),
            ),
        ):
            combo.clear()
            combo.addItem(anything, None)
            for value in campaign.values(column):
                combo.addItem(value, value)

    def query(self) -> Query:
        """The filters as a query of the queue."""
        shown = self.show_filter.currentData() or ""
        return Query(
            decision=shown if shown not in ("", "FLAGGED") else None,
            flagged=True if shown == "FLAGGED" else None,
            flag=self.flag_filter.currentData(),
            portal=self.decision_portal.currentData(),
            institution=self.institution_filter.currentData(),
            text=self.text_filter.text().strip() or None,
        )

    def apply_filters(self) -> None:
        """Filter the queue as the filters say."""
        if self.campaign is None:
            return
        self.model.set_query(self.query())
        if self.model.rowCount():
            self.table.selectRow(0)
        self._current_changed()

    # -- the reviewer ----------------------------------------------------------------------------

    async def load_identity(self) -> Reviewer | None:
        """Who reviews (read once): this installation's key and, signed in, the account;
        None, said in the message bar, without a keyring."""
        if self.identity is None:
            self.keyless = False
            online = self.client is not None or "live_profile" in self.context.extras
            try:
                self.identity = await identity.load(self.context, self.key_store, online)
            except keys.KeyUnavailable as exc:
                self.message.show_error(packing.failure(exc))
                self.keyless = True
                self.reviewer.setText(identity.words(None, keyless=True))
                return None
            self.reviewer.setText(identity.words(self.identity, keyless=self.keyless))
            self._mark_own()
            self._current_changed()
        return self.identity

    def _mark_own(self) -> None:
        who = self.identity
        own: set[str] = set()
        if self.campaign is not None and who is not None:
            own = set(
                self.campaign.own_items(
                    who.name, account_id=who.account_id, account_email=who.account_email
                )
            )
        if own != self.model.own:
            self.model.own = own
            self.model.reload(own)

    # -- deciding --------------------------------------------------------------------------------

    def eventFilter(self, watched: Any, event: Any) -> bool:
        """The queue's keys: K, R, D decide; N goes to the next undecided; J to the field."""
        if watched is self.table and event.type() == event.Type.KeyPress:
            mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
            if mods == Qt.KeyboardModifier.NoModifier:
                key = event.key()
                if key in KEYS:
                    self.spawn(self.decide(KEYS[key]))
                    return True
                if key == Qt.Key.Key_N:
                    self.next_undecided()
                    return True
                if key == Qt.Key.Key_J:
                    self.justification.setFocus()
                    return True
        return super().eventFilter(watched, event)

    def selected_rows(self) -> list[int]:
        """The selected rows (the current row when none is)."""
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()})
        if not rows and self.table.currentIndex().isValid():
            rows = [self.table.currentIndex().row()]
        return rows

    def selected_ids(self) -> list[str]:
        """Ids of the selected items (every item the filter keeps when all rows are)."""
        rows = self.selected_rows()
        if self.campaign is None or not rows:
            return []
        if len(rows) == self.model.rowCount() and len(rows) > 1:
            return self.campaign.ids(self.model.query)
        found = (self.model.item(r) for r in rows)
        return [i.id for i in found if i is not None]

    async def decide(self, decision: Decision) -> int:
        """Record ``decision`` for the selected items with the justification typed; on to the
        next undecided. A refusal says why and keeps what was typed. Keys pressed while a
        decision is written wait their turn (each applies to the row selected then)."""
        async with self._deciding:
            return await self._decide(decision)

    async def _decide(self, decision: Decision) -> int:
        if self.campaign is None:
            return 0
        ids = self.selected_ids()
        if not ids:
            return 0
        text = self.justification.text()
        flagged = any(
            (i := self.model.item(r)) is not None and (i.flag_count or i.id in self.model.own)
            for r in self.selected_rows()[:500]
        )
        if not text.strip() and needs_justification(decision, flagged):
            self.required.setText(refusals.needs_words(decision, flagged))
            set_tone(self.required, "error")
            self.justification.setFocus()
            return 0
        reviewer = await self.load_identity()
        if reviewer is None:
            return 0
        last = self.model.item(self.selected_rows()[-1])
        path = self.campaign.path
        try:
            n = await asyncio.get_running_loop().run_in_executor(
                self._writer, self._writing.write, path, ids, decision, text, reviewer
            )
        except CampaignError as exc:
            self.show_refusal(exc)
            return 0
        if self.campaign is None or self.campaign.path != path:
            return n  # another campaign was opened meanwhile
        if not self.message.isHidden():
            self.message.clear()
        if text:
            self.justification.clear()
        self.model.reload(set(ids))
        self._progress_timer.start()
        self.next_undecided(after=last.seq if last is not None else 0)
        return n

    def show_refusal(self, exc: CampaignError) -> None:
        """Why the campaign refused a decision (the justification typed stays)."""
        if exc.reason == "JUSTIFICATION_REQUIRED":
            decision = Decision(exc.params[0])
            self.required.setText(refusals.needs_words(decision, flagged=True))
            set_tone(self.required, "error")
            self.justification.setFocus()
            return
        label = exc.item or ""
        if self.campaign is not None and exc.code in refusals.NOT_OPENED:
            label = self.campaign.path.name  # the file's refusal: the file is named
        elif self.campaign is not None and exc.item:
            found = self.campaign.item(exc.item)
            label = found.label if found is not None else exc.item
        summary = QCoreApplication.translate("Campaigns", "The decision was refused.")
        self.message.show_error(refusals.refusal(summary, exc, label, refusals.DECISION))

    def next_undecided(self, after: int | None = None) -> int | None:
        """Select the next undecided item the filter keeps (after the current one, then from
        the top); its row, or None when every item is decided."""
        campaign = self.campaign
        if campaign is None:
            return None
        if after is None:
            current = self.model.item(self.table.currentIndex().row())
            after = current.seq if current is not None else 0
        base = self.model.query
        undecided = Query(
            **{**{f: getattr(base, f) for f in base.__dataclass_fields__}, "decision": "UNDECIDED"}
        )
        try:
            found = campaign.page(undecided, after=after, limit=1) or campaign.page(
                undecided, limit=1
            )
        except CampaignError as exc:
            self.show_unreadable(exc)
            return None
        if not found:
            self.detail.setText(
                QCoreApplication.translate("Campaigns", "Every item the filter shows is decided.")
            )
            return None
        row = self.model.row_of(found[0].seq)
        if row is None:
            return None
        self.table.selectionModel().setCurrentIndex(
            self.model.index(row, 0),
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )
        self.table.scrollTo(self.model.index(row, 0))
        return row

    def _current_changed(self) -> None:
        campaign = self.campaign
        item = self.model.item(self.table.currentIndex().row()) if campaign else None
        rows = len(self.table.selectionModel().selectedRows()) if campaign else 0
        if item is None or campaign is None:
            self.detail.setText("")
            return
        lines = [f"{item.label} — {item.id}"]
        if rows > 1:
            lines = [
                fill(
                    QCoreApplication.translate(
                        "Campaigns",
                        "%1 items selected: one decision and one justification for all.",
                    ),
                    rows,
                )
            ]
        else:
            try:
                lines += self._item_lines(campaign, item)
            except CampaignError as exc:
                self.show_unreadable(exc)
        self.detail.setText("\n".join(lines))
        self._hint(item)

    def _item_lines(self, campaign: Campaign, item: Item) -> list[str]:
        """The item's flags with their reasons, whether it is the reviewer's own account, and
        its latest decision (``CampaignError`` when the file cannot be read)."""
        lines: list[str] = []
        for flag in campaign.flags_of([item.seq]).get(item.seq, []) if item.flag_count else []:
            lines.append(f"{flag_words(flag.code)}: {reason_words(flag)}")
        if item.id in self.model.own:
            lines.append(
                QCoreApplication.translate(
                    "Campaigns", "Your own account: another reviewer decides it."
                )
            )
        decided = campaign.decision_of(item)
        if decided is not None:
            when = decided.decided_at[:16].replace("T", " ")
            said = QCoreApplication.translate("Campaigns", "%1 by %2 on %3: %4")
            lines.append(
                fill(said, decision_words(decided.decision), decided.reviewer, when,
                     decided.justification)
            )  # fmt: skip
        return lines

    def _hint(self, item: Item) -> None:
        """Below the field: why it is disabled, or when a justification is required."""
        if not self.justification.isEnabled():
            self._set_required(self.justification.toolTip())  # signed off or closed: why
        elif not self.justification.text().strip():
            flagged = bool(item.flag_count) or item.id in self.model.own
            self._set_required(
                QCoreApplication.translate(
                    "Campaigns",
                    "A justification is required for Revoke, for Don't know, and for Keep on a"
                    " flagged item.",
                )
                if flagged
                else QCoreApplication.translate(
                    "Campaigns", "A justification is required for Revoke and for Don't know."
                )
            )

    def _set_required(self, text: str) -> None:
        if self.required.text() != text:
            self.required.setText(text)
        set_tone(self.required, None)

    # -- progress --------------------------------------------------------------------------------

    async def update_progress(self, today: date | None = None) -> work.Progress:
        """Read the counts again (a worker thread) and show them."""
        if self.campaign is None:
            return self.stats
        path = self.campaign.path
        try:
            self.stats = await asyncio.to_thread(work.progress, path, today)
        except CampaignError as exc:
            summary = QCoreApplication.translate("Campaigns", "The campaign cannot be read now.")
            self.message.show_error(refusals.refusal(summary, exc, path.name))
            return self.stats
        self._show_progress(today)
        return self.stats

    def _show_progress(self, today: date | None = None) -> None:
        s = self.stats
        said = QCoreApplication.translate(
            "Campaigns", "%1 of %2 decided: %3 kept, %4 revoked, %5 don't know."
        )
        text = fill(said, s.decided, s.items, s.kept, s.revoked, s.dont_know)
        if s.reviewers:
            each = "; ".join(f"{name}: {n}" for name, n in s.reviewers[:8])
            text += " " + fill(QCoreApplication.translate("Campaigns", "By reviewer: %1."), each)
        self.progress.setText(text)
        meta = self.campaign.meta if self.campaign else {}
        due = str(meta.get("due") or "")
        today = today or datetime.now(UTC).date()
        late = bool(due) and today.isoformat() > due and s.decided < s.items
        if s.closed:
            self.due.setText(fill(QCoreApplication.translate("Campaigns", "Due %1. Closed."), due))
        elif late:
            self.due.setText(
                fill(
                    QCoreApplication.translate("Campaigns", "Due %1: overdue, %2 items late."),
                    due,
                    s.overdue,
                )
            )
        else:
            self.due.setText(
                fill(QCoreApplication.translate("Campaigns", "Due %1."), due) if due else ""
            )
        set_tone(self.due, "error" if late and not s.closed else None)
        self.due.setProperty("overdue", late and not s.closed)
        self._enable()

    def _enable(self) -> None:
        campaign = self.campaign
        frozen = bool(campaign and (campaign.meta.get("closed") or campaign.is_signed()))
        why = ""
        if campaign is not None and campaign.meta.get("closed"):
            why = QCoreApplication.translate(
                "Campaigns", "The campaign is closed: decisions are final."
            )
        elif frozen:
            why = QCoreApplication.translate("Campaigns", "Signed off: the decisions are frozen.")
        for button in (self.keep_button, self.revoke_button, self.dont_know_button):
            button.setEnabled(campaign is not None and not frozen)
            button.setToolTip(plain_tooltip(why))
        self.justification.setEnabled(campaign is not None and not frozen)
        self.justification.setToolTip(plain_tooltip(why))
        self._detail_timer.start()  # the hint below the field says why
        open_ = campaign is not None and not (campaign.meta.get("closed"))
        self.sign_button.setEnabled(open_)
        self.verify_button.setEnabled(campaign is not None)
        self.pack_button.setEnabled(campaign is not None)
        online = self.client is not None
        self.remediate_button.setEnabled(open_ and online and not self.kiosk)
        self.close_button.setEnabled(open_ and online)
        offline = (
            ""
            if online
            else QCoreApplication.translate("Campaigns", "Sign in to do this: it reads the server.")
        )
        self.remediate_button.setToolTip(plain_tooltip(offline))
        self.close_button.setToolTip(plain_tooltip(offline))

    # -- sign-off, verify ------------------------------------------------------------------------

    async def sign_off(self) -> Any:
        """Sign every decision of the file as the reviewer (a worker thread): they are frozen."""
        campaign = self.campaign
        if campaign is None:
            return None
        reviewer = await self.load_identity()
        if reviewer is None:
            return None
        summary = QCoreApplication.translate("Campaigns", "The campaign was not signed off.")
        try:
            undecided = await asyncio.to_thread(work.undecided, campaign.path)  # counted now
        except CampaignError as exc:
            self.message.show_error(refusals.refusal(summary, exc, campaign.path.name))
            return None
        box, button = confirmations.sign_off_box(self, campaign.name, undecided)
        if not await self._ask(box, button) or self.campaign is not campaign:
            return None
        try:  # undecided items only if the person was told of them (more since: UNDECIDED)
            done = await asyncio.to_thread(
                functools.partial(
                    work.sign, campaign.path, reviewer, self.key_store,
                    allow_undecided=undecided > 0,
                )
            )  # fmt: skip
            campaign.reload_meta()
        except CampaignError as exc:
            self.message.show_error(refusals.refusal(summary, exc, campaign.path.name))
            return None
        except keys.KeyUnavailable as exc:
            self.message.show_error(packing.failure(exc))
            return None
        self.message.show_notice(
            fill(
                QCoreApplication.translate(
                    "Campaigns",
                    "Signed off by %1: %2 items, key %3. Give this fingerprint to the"
                    " administrator by another channel.",
                ),
                done.reviewer,
                done.items,
                done.fingerprint,
            )
        )
        await self.update_progress()
        return done

    async def verify(self) -> Any:
        """Check the sign-offs and the trust in each signer's key (a worker thread); name
        what changed since, and each signer with their key and its trust."""
        if self.campaign is None:
            return None
        try:
            check = await asyncio.to_thread(
                work.verify, self.campaign.path, self.trust_store, self.key_store
            )
        except CampaignError as exc:
            summary = QCoreApplication.translate("Campaigns", "The sign-offs were not checked.")
            self.message.show_error(refusals.refusal(summary, exc, self.campaign.path.name))
            return None
        who = "\n".join(signers.line(s) for s in check.signoffs)
        if check.status == "unsigned":
            self.message.show_notice(
                QCoreApplication.translate(
                    "Campaigns", "Nothing in this campaign is signed off yet."
                )
            )
        elif check.status == "intact" and check.untrusted:
            self.message.show_error(
                ErrorInfo(
                    QCoreApplication.translate(
                        "Campaigns",
                        "The sign-offs verify, but a signer's key is not trusted by this"
                        " installation: remediation is refused until it is.",
                    ),
                    who,
                )
            )
        elif check.status == "intact":
            self.message.show_notice(
                fill(QCoreApplication.translate("Campaigns", "The sign-offs verify:\n%1"), who)
            )
        else:
            self.message.show_error(
                ErrorInfo(
                    QCoreApplication.translate(
                        "Campaigns", "The campaign changed since it was signed off."
                    ),
                    "\n".join(check.problems[:20]),
                )
            )
        return check

    # -- remediation -----------------------------------------------------------------------------

    @property
    def trust_store(self) -> trusting.TrustStore:
        """The keys this computer trusts (the Trusted keys dialog's; the user's file unless
        the context gives one)."""
        if self._trust_store is None:
            self._trust_store = trusting.TrustStore()
        return self._trust_store

    async def remediate(self) -> RemediationDialog | None:
        """Remediate…: check the sign-offs (a worker thread) and show who signed, with which
        key and whether this installation trusts it, and the separation-of-duties warning;
        planning waits for the dialog's Plan (refused while a signer is not trusted)."""
        if self.campaign is None or self.client is None or self.kiosk:
            return None
        who = await self.load_identity()
        if who is None:
            return None
        if self.remediation_dialog is None:
            dialog = RemediationDialog(self.trust_store, who.fingerprint, self)
            dialog.planRequested.connect(lambda: self.spawn(self.plan_remediation()))
            dialog.recheckRequested.connect(lambda: self.spawn(self.check_signers()))
            self.remediation_dialog = dialog
        if await self.check_signers() is None:
            return None
        self.remediation_dialog.open()
        return self.remediation_dialog

    async def check_signers(self) -> Verification | None:
        """Check the sign-offs and the trust in each signer's key (a worker thread) and show
        them in the remediation dialog."""
        campaign, dialog, who = self.campaign, self.remediation_dialog, self.identity
        if campaign is None or dialog is None or who is None:
            return None
        try:
            check = await asyncio.to_thread(
                work.verify, campaign.path, self.trust_store, self.key_store
            )
        except CampaignError as exc:
            summary = QCoreApplication.translate("Campaigns", "The sign-offs were not checked.")
            self.message.show_error(refusals.refusal(summary, exc, campaign.path.name))
            return None
        dialog.show_check(campaign.name, check, signers.same_person(check, who))
        return check

    async def plan_remediation(self) -> Any:
        """Plan the signed-off revocations as a bulk job (the engine checks the sign-offs and
        the trust in their keys again) and show it in the bulk window, where it runs."""
        from portal_admin.reviews import remediation

        from ...bulk.dialog import BulkDialog, Sources

        campaign, client, dialog = self.campaign, self.client, self.remediation_dialog
        if campaign is None or client is None or dialog is None or self.kiosk:
            return None
        summary = QCoreApplication.translate("Campaigns", "Nothing was remediated.")
        try:
            me = await self.context.live_profile()
            profile = self.context.profile
            context = jobs.JobContext(
                profile.name, str(client.base_url),
                str(getattr(me, "account_email", "") or ""), getattr(me, "biz_id", None),
                str(profile.environment),
            )  # fmt: skip
            plan = await remediation.remediate(
                campaign, client, context, key_store=self.key_store, trust_store=self.trust_store
            )
            campaign.reload_meta()
        except CampaignError as exc:
            self.message.show_error(refusals.refusal(summary, exc, campaign.path.name))
            await self.check_signers()  # the dialog says which signer or item
            return None
        except Exception as exc:  # the server: said, never only logged
            info = describe_error(exc)
            self.message.show_error(ErrorInfo(summary, info.summary, code=info.code))
            return None
        dialog.accept()
        warning = dialog.duties.text() if dialog.reasons else ""
        if warning:
            self.message.show_error(
                ErrorInfo(
                    QCoreApplication.translate("Campaigns", "You reviewed this campaign."), warning
                )
            )
        accounts = [j for j in plan.jobs if j.meta()["kind"] != "cancel-invitation"]
        if not plan.jobs:
            self.message.show_notice(
                QCoreApplication.translate("Campaigns", "No signed-off Revoke to carry out.")
            )
            return plan
        job = (accounts or plan.jobs)[0]
        area = "accounts" if accounts else "invitations"
        bulk = BulkDialog(self, Sources(area), "status" if accounts else "cancel-invitation")
        plain(bulk.error)  # the warning names reviewers from the file
        if plan.resumed:
            bulk.show_job(job)
        else:
            bulk.job = job
            bulk.show_plan()
        if warning:
            bulk.show_error(warning)
        self.bulk_dialog = bulk
        bulk.show()
        return plan

    # -- closing, pack ---------------------------------------------------------------------------

    async def close_campaign(self) -> dict[str, int] | None:
        """Ask first, naming the signed-off Revokes not carried out (closing leaves them for
        good); then take the closing snapshot, check every decision against it (a worker
        thread) and close the campaign; show the check. Any failure is said on screen."""
        campaign, client = self.campaign, self.client
        if campaign is None or client is None:
            return None
        path = campaign.path
        summary = QCoreApplication.translate("Campaigns", "The campaign was not closed.")
        try:
            not_done = await asyncio.to_thread(work.revokes_not_done, path)
        except CampaignError as exc:
            self.message.show_error(refusals.refusal(summary, exc, path.name))
            return None
        box, button = confirmations.close_box(self, campaign.name, not_done)
        if not await self._ask(box, button) or self.campaign is not campaign:
            return None
        stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H%M%S")
        taken_path = path.with_name(f"{path.name}.closing-{stamp}.sqlite3")
        try:
            me = await self.context.live_profile()
            account = str(getattr(me, "account_email", "") or "")
            await snapshots.take_snapshot(
                client, taken_path, profile=self.context.profile.name,
                server=str(client.base_url), account=account,
            )  # fmt: skip
            counts = await asyncio.to_thread(work.check_closing, path, taken_path, account)
            campaign.reload_meta()
        except CampaignError as exc:
            self.message.show_error(refusals.refusal(summary, exc, path.name))
            return None
        except Exception as exc:  # the server, the snapshot file: said, never only logged
            info = describe_error(exc)
            self.message.show_error(ErrorInfo(summary, info.summary, code=info.code))
            return None
        self.message.show_notice(
            fill(
                QCoreApplication.translate(
                    "Campaigns",
                    "Closed. Revoked and done: %1; not done: %2; kept, changed meanwhile: %3;"
                    " appeared after the scope: %4.",
                ),
                *counts.values(),
            )
        )
        await self.show_closing()
        await self.update_progress()
        return counts

    async def show_closing(self) -> None:
        """The closing check's rows below the queue."""
        if self.campaign is None:
            return
        rows = await asyncio.to_thread(work.closing_rows, self.campaign.path)
        self.closing.setRowCount(len(rows))
        for r, row in enumerate(rows):
            outcome = _tr(OUTCOMES[row.outcome]) if row.outcome in OUTCOMES else row.outcome
            state = enum_labels.own_label(enum_labels.ACCOUNT_STATUS, row.current) or row.current
            for c, text in enumerate((row.label, outcome, state, row.detail)):
                self.closing.setItem(r, c, QTableWidgetItem(text))
        self.closing.setVisible(True)

    async def _ask(self, box: QMessageBox, confirm: QWidget) -> bool:
        """Ask ``box`` (kept as ``question`` while it shows); True when confirmed."""
        self.question = box
        try:
            return await confirmations.answer(box, confirm)
        finally:
            self.question = None

    def _ask_pack(self) -> None:
        if self.campaign is not None:
            name = self.campaign.path.with_suffix(".zip").name
            packing.ask_save(self, name, "zip", lambda p: self.spawn(self.write_pack(p)))

    async def write_pack(self, out: Path) -> dict[str, Any] | None:
        """The campaign's signed evidence pack (a worker thread)."""
        if self.campaign is None:
            return None
        try:
            manifest = await asyncio.to_thread(
                work.write_pack, self.campaign.path, out, self.key_store
            )
        except (keys.KeyUnavailable, OSError) as exc:
            self.message.show_error(packing.failure(exc))
            return None
        self.message.show_notice(packing.written(out, manifest))
        return manifest

    # -- language --------------------------------------------------------------------------------

    def close_tasks(self) -> None:
        """Cancel the panel's tasks; the writer thread closes its connection."""
        super().close_tasks()
        self._writer.submit(self._writing.close)

    def retranslateUi(self) -> None:
        self.open_button.setText(QCoreApplication.translate("Campaigns", "Open a campaign file…"))
        self.new_button.setText(
            QCoreApplication.translate("Campaigns", "New campaign from a snapshot…")
        )
        self.title.setText(
            self.campaign.name
            if self.campaign
            else QCoreApplication.translate("Campaigns", "No campaign open")
        )
        self.title.setToolTip(
            plain_tooltip(self.campaign.name) if self.campaign else ""
        )  # when cut
        self.reviewer_label.setText(QCoreApplication.translate("Campaigns", "Reviewer:"))
        self.reviewer.setText(identity.words(self.identity, keyless=self.keyless))
        self.justification_label.setText(QCoreApplication.translate("Campaigns", "&Justification:"))
        self.justification.setPlaceholderText(
            QCoreApplication.translate(
                "Campaigns", "Why (required for Revoke, Don't know, and Keep on a flagged item)"
            )
        )
        self.keep_button.setText(QCoreApplication.translate("Campaigns", "&Keep"))
        self.keep_button.setToolTip(
            QCoreApplication.translate("Campaigns", "Keep the access (K in the queue)")
        )
        self.revoke_button.setText(QCoreApplication.translate("Campaigns", "&Revoke"))
        self.revoke_button.setToolTip(
            QCoreApplication.translate("Campaigns", "Revoke the access (R in the queue)")
        )
        self.dont_know_button.setText(QCoreApplication.translate("Campaigns", "&Don't know"))
        self.dont_know_button.setToolTip(
            QCoreApplication.translate("Campaigns", "Someone else must decide (D in the queue)")
        )
        self.next_button.setText(QCoreApplication.translate("Campaigns", "&Next undecided"))
        self.next_button.setToolTip(
            QCoreApplication.translate(
                "Campaigns", "N in the queue; J moves to the justification, Esc back"
            )
        )
        self.sign_button.setText(QCoreApplication.translate("Campaigns", "Sign off…"))
        self.verify_button.setText(QCoreApplication.translate("Campaigns", "Verify"))
        self.remediate_button.setText(QCoreApplication.translate("Campaigns", "Remediate…"))
        self.close_button.setText(QCoreApplication.translate("Campaigns", "Close the campaign"))
        self.pack_button.setText(QCoreApplication.translate("Campaigns", "Evidence pack…"))
        self.text_filter.setPlaceholderText(
            QCoreApplication.translate("Campaigns", "Search e-mail, name or id")
        )
        current = self.show_filter.currentIndex()
        self.show_filter.clear()
        for code, words in SHOW:
            self.show_filter.addItem(_tr(words), code)
        self.show_filter.setCurrentIndex(max(current, 0))
        if self.flag_filter.count():
            self.flag_filter.setItemText(0, QCoreApplication.translate("Campaigns", "Any flag"))
            self.decision_portal.setItemText(
                0, QCoreApplication.translate("Campaigns", "Any portal")
            )
            self.institution_filter.setItemText(
                0, QCoreApplication.translate("Campaigns", "Any institution")
            )
        self.closing.setHorizontalHeaderLabels(
            [
                QCoreApplication.translate("Campaigns", "Item"),
                QCoreApplication.translate("Campaigns", "Outcome"),
                QCoreApplication.translate("Campaigns", "State at closing"),
                QCoreApplication.translate("Campaigns", "Detail"),
            ]
        )
        self.table.setAccessibleName(QCoreApplication.translate("Campaigns", "Review queue"))
        queue_columns.size_decision(self.table)
        # the filters and the closing check have no label of their own: a screen reader names
        # them by these
        for widget, name in (
            (self.show_filter, QCoreApplication.translate("Campaigns", "Show items")),
            (self.flag_filter, QCoreApplication.translate("Campaigns", "Filter by flag")),
            (self.decision_portal, QCoreApplication.translate("Campaigns", "Filter by portal")),
            (self.institution_filter,
             QCoreApplication.translate("Campaigns", "Filter by institution")),
            (self.text_filter, QCoreApplication.translate("Campaigns", "Search the queue")),
            (self.closing, QCoreApplication.translate("Campaigns", "Closing check")),
        ):  # fmt: skip
            widget.setAccessibleName(name)
        self.setAccessibleName(QCoreApplication.translate("Campaigns", "Campaigns"))
        if self.campaign is not None:
            self._show_progress()
        self._enable()
        self._current_changed()

    # -- the tour --------------------------------------------------------------------------------

    async def tour_steps(self) -> list[TourStep]:
        """The review queue, then the closing check (``tour.py``)."""
        from .tour import steps

        return steps(self, kiosk=False)

    async def kiosk_tour_steps(self) -> list[TourStep]:
        """The review queue, without Remediate."""
        from .tour import steps

        return steps(self, kiosk=True)
