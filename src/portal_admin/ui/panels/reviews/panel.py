"""The Campaigns panel: an access-review campaign file's queue, decided from the keyboard.

Open a campaign file (signed in or not: deciding and signing are local file operations) or
create one from a snapshot; filter the queue; decide one item or many with one justification
(K Keep, R Revoke, D Don't know, N next undecided, J the justification field); see progress,
the due date and what is overdue; sign off, verify, remediate (a bulk job, in the bulk
window; never in the kiosk), close with the closing check, write the pack. Costly steps
(create, sign, verify, progress counts, the closing check, the pack) run in worker threads,
each with its own connection to the file.

This module coordinates; each part is a module of its own: the filters (``filters.py``), the
queue and the item's line (``queue_view.py`` over ``queue_model.py``), the decision form
(``decision_form.py``) and its writer thread (``decision_writer.py``), the counts
(``progress_line.py``), and the steps: open or create (``open_step.py``), sign off and verify
(``sign_step.py``), remediate (``remediate_step.py``), close (``close_step.py``), the pack
(``pack_step.py``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtWidgets import (
    QHBoxLayout,
    QMessageBox,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from portal_admin.evidence import keys
from portal_admin.evidence import snapshot as snapshots
from portal_admin.evidence import trust as trusting
from portal_admin.reviews import Campaign, CampaignError, Decision, Query, Reviewer, Verification
from portal_admin.reviews.decisions import needs_justification
from portal_admin.ui.file_work import in_worker
from portal_admin.ui.panels.base import PanelBase
from portal_admin.ui.panels.evidence import packing
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.permissions import tag_operation
from portal_admin.ui.tour.screenshots import TourStep
from portal_admin.ui.widgets.message_bar import MessageBar
from portal_admin.ui.widgets.plain import PlainLabel, plain_tooltip

from . import (
    close_step,
    confirmations,
    identity,
    open_step,
    pack_step,
    progress_line,
    refusals,
    remediate_step,
    sign_step,
    work,
)
from .create_dialog import CreateDialog
from .decision_form import DecisionForm
from .decision_writer import DecisionWriter
from .filters import QueueFilters
from .plain import plain
from .queue_view import QueueView
from .remediation_dialog import RemediationDialog


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
        self.open_button = self._button("openCampaign", lambda: open_step.ask_open(self))
        self.new_button = self._button("newCampaign", lambda: self.open_create())
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
        self.filters = QueueFilters(self)
        self.filters.changed.connect(self.apply_filters)
        self.show_filter = self.filters.show_filter
        self.flag_filter = self.filters.flag_filter
        self.decision_portal = self.filters.decision_portal
        self.institution_filter = self.filters.institution_filter
        self.text_filter = self.filters.text_filter
        self.queue = QueueView(self)
        self.model, self.table, self.detail = self.queue.model, self.queue.table, self.queue.detail
        # said after the read that failed (a repaint's), never inside it
        self.model.refused.connect(self.show_unreadable, Qt.ConnectionType.QueuedConnection)
        self.queue.moved.connect(self._current_changed)
        self.queue.decisionKey.connect(lambda d: self.spawn(self.decide(d)))
        #: Decisions are written by one thread of their own (its own connection to the file):
        #: the fsync of each transaction never holds the loop; one decision at a time.
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="campaign-writer")
        self._writing = DecisionWriter()
        self._deciding = asyncio.Lock()
        self.form = DecisionForm(self, self.table)
        self.form.decisionRequested.connect(lambda d: self.spawn(self.decide(d)))
        self.form.nextRequested.connect(self.next_undecided)
        self.queue.justifyKey.connect(self.form.justification.setFocus)
        self.justification, self.required = self.form.justification, self.form.required
        self.keep_button, self.revoke_button = self.form.keep_button, self.form.revoke_button
        self.dont_know_button, self.next_button = self.form.dont_know_button, self.form.next_button
        # the campaign's steps
        self.sign_button = self._button("campaignSign", lambda: self.spawn(self.sign_off()))
        self.verify_button = self._button("campaignVerify", lambda: self.spawn(self.verify()))
        self.remediate_button = self._button(
            "campaignRemediate", lambda: self.spawn(self.remediate())
        )
        tag_operation(self.remediate_button, "accounts.status")  # the kiosk hides it
        self.remediate_button.setVisible(not self.kiosk)
        self.close_button = self._button("campaignClose", lambda: self.spawn(self.close_campaign()))
        self.pack_button = self._button("campaignPack", lambda: pack_step.ask_pack(self))
        self.closing = close_step.closing_table(self)
        # the file's text (title, due date, reviewers' names) is shown as written, never as HTML
        plain(self.title, self.due, self.progress, self.required, self.reviewer)
        self._progress_timer = QTimer(self)
        self._progress_timer.setSingleShot(True)
        self._progress_timer.setInterval(200)
        self._progress_timer.timeout.connect(lambda: self.spawn(self.update_progress()))
        self._layout()
        self.enable()
        self.retranslateUi()

    def as_panel(self) -> PanelBase:
        """The panel itself: the parent of the steps' dialogs (``host.CampaignsHost``)."""
        return self

    def _button(self, name: str, clicked: Callable[[], object]) -> QPushButton:
        button = QPushButton(self)
        button.setObjectName(name)
        button.clicked.connect(lambda _checked=False: clicked())  # clicked passes a bool
        return button

    def _layout(self) -> None:
        head = QHBoxLayout()
        for widget in (self.open_button, self.new_button):
            head.addWidget(widget)
        head.addWidget(self.title, 1)
        who = QHBoxLayout()
        who.addWidget(self.reviewer_label)
        who.addWidget(self.reviewer, 1)
        filters = QHBoxLayout()
        for combo in self.filters.combos:
            filters.addWidget(combo)
        filters.addWidget(self.text_filter, 1)
        form = QHBoxLayout()
        form.addWidget(self.form.justification_label)
        form.addWidget(self.justification, 1)
        for button in self.form.buttons:
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

    # -- the file --------------------------------------------------------------------------------

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
                self.show_unreadable(exc)
                return
            self.model.reload()
            self.enable()
            self._progress_timer.start()

    def show_unreadable(self, exc: CampaignError) -> None:
        """A read of the open campaign the engine refused (a page of a file damaged or edited
        behind the program's back): its cause, in the reader's language."""
        if self.campaign is None:
            return
        summary = QCoreApplication.translate("Campaigns", "The campaign cannot be read now.")
        self.message.show_error(refusals.refusal(summary, exc, self.campaign.path.name))

    async def open_file(self, path: Path) -> Campaign | None:
        """Show the campaign at ``path`` (``open_step.open_file``)."""
        return await open_step.open_file(self, path)

    def open_create(self, snapshot: Path | None = None) -> CreateDialog:
        """The dialog that makes a campaign from a snapshot (``snapshot`` chosen; not modal)."""
        return open_step.open_create(self, snapshot)

    async def create_campaign(self, path: Path, snapshot: Path, settings: Any) -> Campaign | None:
        """Make the campaign from ``snapshot`` (a worker thread) and open it."""
        return await open_step.create_campaign(self, path, snapshot, settings)

    def query(self) -> Query:
        """The filters as a query of the queue."""
        return self.filters.query()

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
            self.mark_own()
            self._current_changed()
        return self.identity

    def mark_own(self) -> None:
        """Mark the reviewer's own account in the queue (deciding it is refused)."""
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

    def selected_ids(self) -> list[str]:
        """Ids of the selected items (every item the filter keeps when all rows are)."""
        return self.queue.selected_ids()

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
        rows = self.queue.selected_rows()
        flagged = any(
            (i := self.model.item(r)) is not None and self.queue.is_flagged(i) for r in rows[:500]
        )
        if not text.strip() and needs_justification(decision, flagged):
            self.form.ask_justification(decision, flagged)
            return 0
        reviewer = await self.load_identity()
        if reviewer is None:
            return 0
        last = self.model.item(rows[-1])
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
            self.form.ask_justification(Decision(exc.params[0]), flagged=True)
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
        return self.queue.next_undecided(after)

    def _current_changed(self) -> None:
        item = self.queue.describe()
        if item is not None:
            self.form.hint(self.queue.is_flagged(item))

    # -- progress --------------------------------------------------------------------------------

    async def update_progress(self, today: date | None = None) -> work.Progress:
        """Read the counts again (a worker thread) and show them."""
        if self.campaign is None:
            return self.stats
        try:
            self.stats = await in_worker(work.progress, self.campaign.path, today)
        except CampaignError as exc:
            self.show_unreadable(exc)
            return self.stats
        self._show_progress(today)
        return self.stats

    def _show_progress(self, today: date | None = None) -> None:
        due = str((self.campaign.meta if self.campaign else {}).get("due") or "")
        progress_line.show(self.progress, self.due, self.stats, due, today)
        self.enable()

    def enable(self) -> None:
        """Enable what the campaign's state allows (signed off, closed, signed in)."""
        campaign = self.campaign
        closed = bool(campaign and campaign.meta.get("closed"))
        frozen = bool(campaign and (closed or campaign.is_signed()))
        why = ""
        if closed:
            why = QCoreApplication.translate(
                "Campaigns", "The campaign is closed: decisions are final."
            )
        elif frozen:
            why = QCoreApplication.translate("Campaigns", "Signed off: the decisions are frozen.")
        self.form.allow(campaign is not None and not frozen, why)
        self.queue.later()  # the hint below the field says why
        open_ = campaign is not None and not closed
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

    async def ask(self, box: QMessageBox, confirm: QWidget) -> bool:
        """Ask ``box`` (kept as ``question`` while it shows); True when confirmed."""
        self.question = box
        try:
            return await confirmations.answer(box, confirm)
        finally:
            self.question = None

    # -- the steps -------------------------------------------------------------------------------

    async def sign_off(self) -> Any:
        """Sign every decision of the file as the reviewer (``sign_step.sign_off``)."""
        return await sign_step.sign_off(self)

    async def verify(self) -> Any:
        """Check the sign-offs and the trust in each signer's key (``sign_step.verify``)."""
        return await sign_step.verify(self)

    @property
    def trust_store(self) -> trusting.TrustStore:
        """The keys this computer trusts (the Trusted keys dialog's; the user's file unless
        the context gives one)."""
        if self._trust_store is None:
            self._trust_store = trusting.TrustStore()
        return self._trust_store

    async def remediate(self) -> RemediationDialog | None:
        """Remediate…: the sign-offs checked and shown (``remediate_step.remediate``)."""
        return await remediate_step.remediate(self)

    async def check_signers(self) -> Verification | None:
        """Check the sign-offs again and show them in the remediation dialog."""
        return await remediate_step.check_signers(self)

    async def plan_remediation(self) -> Any:
        """Plan the signed-off Revokes as a bulk job (``remediate_step.plan_remediation``)."""
        return await remediate_step.plan_remediation(self)

    async def close_campaign(self) -> dict[str, int] | None:
        """Ask, then close with the closing check (``close_step.close_campaign``)."""
        return await close_step.close_campaign(self)

    async def show_closing(self) -> None:
        """The closing check's rows below the queue."""
        await close_step.show_closing(self)

    async def write_pack(self, out: Path) -> dict[str, Any] | None:
        """The campaign's signed evidence pack (a worker thread)."""
        return await pack_step.write_pack(self, out)

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
        name = self.campaign.name if self.campaign else ""
        self.title.setText(
            name if self.campaign else QCoreApplication.translate("Campaigns", "No campaign open")
        )
        self.title.setToolTip(plain_tooltip(name) if self.campaign else "")  # when cut
        self.reviewer_label.setText(QCoreApplication.translate("Campaigns", "Reviewer:"))
        self.reviewer.setText(identity.words(self.identity, keyless=self.keyless))
        self.form.retranslate()
        self.sign_button.setText(QCoreApplication.translate("Campaigns", "Sign off…"))
        self.verify_button.setText(QCoreApplication.translate("Campaigns", "Verify"))
        self.remediate_button.setText(QCoreApplication.translate("Campaigns", "Remediate…"))
        self.close_button.setText(QCoreApplication.translate("Campaigns", "Close the campaign"))
        self.pack_button.setText(QCoreApplication.translate("Campaigns", "Evidence pack…"))
        self.filters.retranslate()
        close_step.retranslate(self.closing)
        self.queue.retranslate()
        self.setAccessibleName(QCoreApplication.translate("Campaigns", "Campaigns"))
        if self.campaign is not None:
            self._show_progress()
        self.enable()
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
