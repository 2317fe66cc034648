"""What the campaign's steps (``open_step``, ``sign_step``, ``remediate_step``,
``close_step``, ``pack_step``) use of the Campaigns panel: a small typed interface, so that
they neither import the panel nor reach into it."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from datetime import date
from pathlib import Path
from typing import Any, Protocol, TypeVar

from PySide6.QtWidgets import QMessageBox, QTableView, QTableWidget, QWidget

from portal_admin.evidence import keys
from portal_admin.evidence import trust as trusting
from portal_admin.reviews import Campaign, Query, Reviewer, Verification
from portal_admin.ui.panels.base import PanelBase
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.widgets.message_bar import MessageBar

from .create_dialog import CreateDialog
from .filters import QueueFilters
from .queue_model import QueueModel
from .remediation_dialog import RemediationDialog
from .work import Progress

T = TypeVar("T")


class CampaignsHost(Protocol):
    """The Campaigns panel as its steps see it."""

    campaign: Campaign | None
    context: PanelContext
    client: Any
    key_store: keys.SecretStore | None
    kiosk: bool
    folder: Path
    identity: Reviewer | None
    message: MessageBar
    filters: QueueFilters
    model: QueueModel
    table: QTableView
    closing: QTableWidget
    create_dialog: CreateDialog | None
    remediation_dialog: RemediationDialog | None
    bulk_dialog: Any

    @property
    def trust_store(self) -> trusting.TrustStore: ...

    def as_panel(self) -> PanelBase:
        """The panel itself: the parent of the steps' dialogs and of the bulk window."""
        ...

    def spawn(self, coro: Coroutine[Any, Any, T]) -> asyncio.Task[T] | None: ...

    def query(self) -> Query: ...

    def enable(self) -> None: ...

    def mark_own(self) -> None: ...

    def retranslateUi(self) -> None: ...

    async def ask(self, box: QMessageBox, confirm: QWidget) -> bool: ...

    async def load_identity(self) -> Reviewer | None: ...

    async def update_progress(self, today: date | None = None) -> Progress: ...

    async def open_file(self, path: Path) -> Campaign | None: ...

    async def create_campaign(
        self, path: Path, snapshot: Path, settings: Any
    ) -> Campaign | None: ...

    async def check_signers(self) -> Verification | None: ...

    async def plan_remediation(self) -> Any: ...

    async def show_closing(self) -> None: ...

    async def write_pack(self, out: Path) -> dict[str, Any] | None: ...
