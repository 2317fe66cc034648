"""The accounts panel's logic: the list and its filter, the detail, and every action as an
:class:`Op` through the runner (confirmation first, naming the account).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from PySide6.QtCore import QCoreApplication, QLocale, QObject, Signal
from PySide6.QtWidgets import QDialog, QWidget

from portal_admin.client import before
from portal_admin.protocol.enums import ACCOUNT_STATUS, ACCOUNT_TRANSITIONS, PORTAL_TYPE
from portal_admin.ui.i18n.text import fill
from portal_admin.ui.i18n.translators import LANGUAGES
from portal_admin.ui.panels.base import ConstantsSource, PanelBase
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.widgets.confirm import confirm
from portal_admin.ui.widgets.dialogs import ask

from ...enum_labels import own_label, shown
from ...operations import Op
from ...permissions import Permissions
from .account_detail import EDIT, RESET, ActionState
from .account_filter import AccountFilter
from .account_model import COLUMNS, AccountsModel, account_fetcher
from .account_text import STATUS_ACTIONS, account_name, action_done
from .common import enum_code, explain
from .dialog_events import DialogEvents
from .edit_dialog import AccountEditDialog
from .status_dialog import StatusChangeDialog

log = logging.getLogger(__name__)

TOPIC = "accounts"
CHANGES = frozenset({TOPIC})


def language_choices(extra: set[str]) -> list[tuple[str, str | None]]:
    """The five UI languages, then any other language code accounts carry."""
    out: list[tuple[str, str | None]] = [(c, lang.native_name) for c, lang in LANGUAGES.items()]
    for code in sorted(c for c in extra if c and c not in LANGUAGES):
        native = QLocale(code.replace("-", "_")).nativeLanguageName()
        out.append((code, native or None))
    return out


class AccountsController(QObject):
    """Everything the accounts panel does that is not drawing."""

    #: The account the detail shows (None: nothing chosen).
    detailChanged = Signal(object)
    #: ErrorInfo of a failure to show in the panel.
    errorShown = Signal(object)
    #: A translated success text.
    noticeShown = Signal(str)
    #: Filter choices arrived: (portal pairs, status pairs).
    choicesChanged = Signal(object, object)

    def __init__(self, context: PanelContext, panel: PanelBase) -> None:
        super().__init__(panel)
        #: The panel: it keeps the tasks and knows what the signed-in account may do.
        self.panel = panel
        self.context = context
        self.runner = context.runner
        self.constants = ConstantsSource(context)
        self.filter = AccountFilter()
        self.model = AccountsModel(COLUMNS, account_fetcher(self._client, self.filter))
        self.current: Any = None
        self.dialog_parent: QWidget | None = None
        #: The edit dialog while it is open (tests and screenshots look at it).
        self.edit_dialog: AccountEditDialog | None = None
        self.status_dialog: StatusChangeDialog | None = None
        self._detail_generation = 0
        self._own_change = False
        self._start_task: asyncio.Task[None] | None = None
        self.runner.changed.connect(self._topics_changed)
        self.constants.on_cleared(self._constants_cleared)

    @property
    def client(self) -> Any:
        """The signed-in client (None before sign-in)."""
        return self.context.client

    def _client(self) -> Any:
        return self.context.client

    @property
    def permissions(self) -> Permissions:
        """What the signed-in account may do (the panel's, from the live profile)."""
        return self.panel.permissions

    @property
    def own_id(self) -> str | None:
        """The signed-in account's business id (from the live profile; None until known)."""
        return getattr(self.panel.profile_record, "biz_id", None)

    # -- start and list ------------------------------------------------------------------------

    def start(self) -> asyncio.Task[None] | None:
        """Load permissions, filter choices and the first page (once signed in; the task)."""
        if self._start_task is None and self.client is not None:
            self._start_task = self.panel.spawn(self._start())
        return self._start_task

    async def _start(self) -> None:
        # The rows first: the permissions and the filter choices are not needed to see them,
        # and with the built-in sandbox every request takes the UI thread's time.
        self.model.refresh()
        await self.model.wait_idle()
        await asyncio.gather(self.panel.load_permissions(), self.load_choices())
        self.panel.loaded = True

    async def load_choices(self) -> None:
        """The portal and status pickers from the constants lists."""
        try:
            portals = await self.constants.items("user-portal-types")
            statuses = await self.constants.items("user-account-statuses")
        except Exception as exc:
            log.warning("filter choices not loaded: %r", exc)
            return
        listed = [(i.code, shown(i, ACCOUNT_STATUS)) for i in statuses]
        # Statuses accounts are in that the server's list leaves out (REGISTERED is in the
        # other listing, DEACTIVATED is ours): the list shows them, so the filter offers them.
        served = {code for code, _label in listed}
        for item in (*ACCOUNT_STATUS.items, *ACCOUNT_STATUS.alternate):
            if item.code not in served:
                served.add(item.code)
                listed.append((item.code, own_label(ACCOUNT_STATUS, item.code) or item.code))
        self.choicesChanged.emit([(i.code, shown(i, PORTAL_TYPE)) for i in portals], listed)

    def set_filter(self, flt: AccountFilter) -> None:
        """Show the accounts matching ``flt`` (from the first page). The detail closes: the
        account it shows may not match the new filter, and its actions must not be taken on
        a row the list no longer shows."""
        if flt == self.filter:
            return
        self.filter = flt
        self.model.set_fetch(account_fetcher(self._client, flt))
        if self.current is not None:
            self.show_account(None)

    def refresh(self) -> None:
        """Reload the list (F5)."""
        self.model.refresh()
        if self.current is not None:
            self.panel.spawn(self.load_detail(self.current.biz_id))

    def _topics_changed(self, topics: frozenset[str]) -> None:
        if TOPIC not in topics:
            return
        if self._own_change:  # this panel already put the fresh rows in place
            self._own_change = False
            return
        self.refresh()

    def _constants_cleared(self, *_args: object) -> None:
        self.panel.spawn(self.load_choices())

    # -- detail --------------------------------------------------------------------------------

    def show_account(self, account: Any) -> None:
        """Show ``account`` at once, then its fresh record from the server."""
        self._detail_generation += 1
        self.current = account
        self.detailChanged.emit(account)
        if account is not None:
            self.panel.spawn(self.load_detail(account.biz_id))

    async def load_detail(self, biz_id: str) -> Any:
        """Fetch one account for the detail (``client.accounts.get``); None on failure."""
        self._detail_generation += 1
        generation = self._detail_generation
        try:
            account = await self.client.accounts.get(biz_id)
        except Exception as exc:
            if generation == self._detail_generation:
                self.runner.note_request_id(getattr(exc, "request_id", None))
                self.errorShown.emit(explain(exc))
                if getattr(exc, "code", None) in ("RESOURCE.NOT_FOUND", "4040"):
                    self.current = None
                    self.detailChanged.emit(None)
            return None
        if generation != self._detail_generation:
            return account
        self.current = account
        self.model.replace_accounts([account])
        self.detailChanged.emit(account)
        return account

    async def open_by_id(self, biz_id: str) -> Any:
        """Show the account with this business id in the detail (404 explained)."""
        biz_id = biz_id.strip()
        if not biz_id:
            return None
        return await self.load_detail(biz_id)

    def actions(self, account: Any) -> list[ActionState]:
        """The actions offered for ``account``, each with why it is disabled (or None)."""
        if account is None:
            return []
        perms = self.permissions
        status = enum_code(account.account_status) or ""
        own = self.own_id is not None and account.biz_id == self.own_id
        status_reason = perms.reason("accounts.status") or (
            QCoreApplication.translate(
                "AccountsPanel", "You cannot change the status of your own account."
            )
            if own
            else None
        )
        states = [
            ActionState(name, status_reason)
            for name in STATUS_ACTIONS
            if name in ACCOUNT_TRANSITIONS.get(status, {})
        ]
        states.append(ActionState(EDIT, perms.reason("accounts.update")))
        states.append(ActionState(RESET, perms.reason("accounts.password_reset")))
        return states

    def _state(self, account: Any, name: str) -> ActionState | None:
        return next((a for a in self.actions(account) if a.name == name), None)

    # -- actions -------------------------------------------------------------------------------

    async def run_action(self, name: str) -> bool:
        """Run the detail's action ``name`` on the current account."""
        account = self.current
        if account is None:
            return False
        if name == EDIT:
            return await self.edit(account) is not None
        if name == RESET:
            return await self.reset_password(account)
        return await self.change_status(account, name)

    def _failure(self, exc: BaseException) -> bool:
        self.errorShown.emit(explain(exc))
        code = getattr(exc, "code", None)
        if code in ("RESOURCE.NOT_FOUND", "4040"):
            self.refresh()
        return True

    def _mark_own(self, _result: object) -> None:
        self._own_change = True

    async def change_status(self, account: Any, action: str) -> bool:
        """ACTIVATE, SUSPEND or DEACTIVATE ``account`` after confirmation; True when done."""
        state = self._state(account, action)
        if state is None or not state.enabled:
            log.info("status action %s not offered for this account", action)
            return False
        target = ACCOUNT_TRANSITIONS[enum_code(account.account_status) or ""][action]
        target_item = ACCOUNT_STATUS.by_code(target)
        target_label = await self._status_label(target) or (
            target_item.code if target_item else target
        )
        dialog = StatusChangeDialog(
            action, account, target_label, self.context.profile, self.dialog_parent
        )
        self.status_dialog = dialog
        try:
            if await ask(dialog) != QDialog.DialogCode.Accepted:
                return False
            reason = dialog.reason_text()
        finally:
            self.status_dialog = None
            dialog.deleteLater()
        op: Op[Any] = Op(
            run=lambda: before.described(
                before.account_status(account, action),
                self.client.accounts.change_status(account.biz_id, action, reason=reason),
            ),
            on_success=self._mark_own,
            on_failure=self._failure,
            changes=CHANGES,
            title=fill(
                QCoreApplication.translate("AccountsPanel", "Could not change the status of %1"),
                account_name(account),
            ),
            parent=self.dialog_parent,
        )
        if await self.runner.run(op) is None:
            return False
        await self.load_detail(account.biz_id)
        self.noticeShown.emit(action_done(action, account))
        return True

    async def _status_label(self, code: str) -> str | None:
        try:
            items = await self.constants.items("user-account-statuses")
        except Exception:
            return None
        return next((shown(i, ACCOUNT_STATUS) for i in items if i.code == code), None)

    async def reset_password(self, account: Any) -> bool:
        """Mail the account a password reset link, after confirmation; True when sent."""
        state = self._state(account, RESET)
        if state is None or not state.enabled:
            return False
        ok = await confirm(
            self.dialog_parent,
            title=QCoreApplication.translate("AccountsPanel", "Reset password"),
            text=fill(
                QCoreApplication.translate(
                    "AccountsPanel",
                    "Send a password reset link to the account %1? It is mailed to %2.",
                ),
                account_name(account),
                account.account_email or "",
            ),
            confirm_text=QCoreApplication.translate("AccountsPanel", "Send reset link"),
            profile=self.context.profile,
        )
        if not ok:
            return False
        op: Op[Any] = Op(
            run=lambda: self.client.accounts.reset_password(account.biz_id),
            on_success=self._mark_own,
            on_failure=self._failure,
            changes=CHANGES,
            title=fill(
                QCoreApplication.translate("AccountsPanel", "Could not reset the password of %1"),
                account_name(account),
            ),
            parent=self.dialog_parent,
        )
        if await self.runner.run(op) is None:
            return False
        await self.load_detail(account.biz_id)
        self.noticeShown.emit(
            fill(
                QCoreApplication.translate(
                    "AccountsPanel", "A password reset link was mailed to %1."
                ),
                account.account_email or "",
            )
        )
        return True

    async def edit(self, account: Any) -> Any:
        """Edit ``account`` in a dialog that stays open until saved or cancelled."""
        state = self._state(account, EDIT)
        if state is None or not state.enabled:
            return None
        dialog = AccountEditDialog(account, self.dialog_parent)
        events = DialogEvents(dialog)
        self.edit_dialog = dialog
        dialog.open()
        try:
            await self._fill_edit_choices(dialog)
            while await events.next_submit():
                changes = dialog.changes()
                if not changes or dialog.problem() is not None:
                    continue
                if not await self._confirm_edit(dialog, account, changes):
                    continue
                result = await self._save(dialog, account, changes)
                if result is not None:
                    dialog.done(QDialog.DialogCode.Accepted)
                    self.noticeShown.emit(
                        fill(
                            QCoreApplication.translate(
                                "AccountsPanel", "The account %1 was saved."
                            ),
                            account_name(result),
                        )
                    )
                    return result
            return None
        finally:
            events.disconnect()
            self.edit_dialog = None
            dialog.deleteLater()

    async def _fill_edit_choices(self, dialog: AccountEditDialog) -> None:
        carried = {getattr(r, "default_language", None) or "" for r in self.model.rows}
        carried.add(dialog.account.default_language or "")
        dialog.set_choices("language", language_choices(carried))
        for key, list_name in (("timezone", "timezones"), ("country", "countries")):
            try:
                items = await self.constants.items(list_name)
            except Exception as exc:
                log.warning("%s not loaded: %r", list_name, exc)
                continue
            dialog.set_choices(key, [(i.code, i.label) for i in items])

    async def _confirm_edit(
        self, dialog: AccountEditDialog, account: Any, changes: dict[str, str]
    ) -> bool:
        names = {
            "account_name": QCoreApplication.translate("AccountsPanel", "Name"),
            "account_phone": QCoreApplication.translate("AccountsPanel", "Phone"),
            "account_remark": QCoreApplication.translate("AccountsPanel", "Remark"),
            "default_language": QCoreApplication.translate("AccountsPanel", "Language"),
            "default_timezone": QCoreApplication.translate("AccountsPanel", "Time zone"),
            "default_country": QCoreApplication.translate("AccountsPanel", "Country"),
        }
        dash = "\u2014"
        lines = [
            fill(
                QCoreApplication.translate("AccountsPanel", "%1: %2 \u2192 %3"),
                names[k],
                getattr(account, k, None) or dash,
                v or dash,
            )
            for k, v in changes.items()
        ]
        return await confirm(
            dialog,
            title=QCoreApplication.translate("AccountsPanel", "Save changes"),
            text=fill(
                QCoreApplication.translate(
                    "AccountsPanel", "Save these changes to the account %1?"
                ),
                account_name(account),
            )
            + "\n\n"
            + "\n".join(lines),
            confirm_text=QCoreApplication.translate("AccountsPanel", "Save changes"),
            profile=self.context.profile,
        )

    async def _save(self, dialog: AccountEditDialog, account: Any, changes: dict[str, str]) -> Any:
        def failed(exc: BaseException) -> bool:
            dialog.show_error(explain(exc))
            return True

        def saved(result: Any) -> None:
            self._own_change = True
            self.model.replace_accounts([result])
            if self.current is not None and self.current.biz_id == result.biz_id:
                self.current = result
                self.detailChanged.emit(result)

        op: Op[Any] = Op(
            run=lambda: before.described(
                before.account_update(account, changes),
                self.client.accounts.update(account.biz_id, **changes),
            ),
            on_success=saved,
            on_failure=failed,
            changes=CHANGES,
            title=fill(
                QCoreApplication.translate("AccountsPanel", "Could not save the account %1"),
                account_name(account),
            ),
            parent=dialog,
        )
        dialog.message.clear()
        dialog.set_busy(True)
        try:
            return await self.runner.run(op)
        finally:
            dialog.set_busy(False)
