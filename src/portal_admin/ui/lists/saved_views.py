"""Saved views of one list: the Views menu, the default view, and the list's last state.

A :class:`ViewKeeper` joins a list (a :class:`ListWithViews`: the program's
:class:`~portal_admin.ui.lists.paged_list.PagedList`, which makes its keeper and passes itself
in, so this module does not import it back) to a
:class:`~portal_admin.files.saved_views.ViewStore`. It restores the state the list was left in
(filters, sort, column order, shown columns and the widths the person chose), keeps it as it
changes (half a second after the last change, and when the list is hidden), and offers the
named views: apply one, save the current state as a view, save changes to the view shown,
delete it, and go back to the list's default. Nothing of it reaches the server.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol, cast

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer, Signal
from PySide6.QtGui import QActionGroup
from PySide6.QtWidgets import QMenu, QTableView

from portal_admin.files.saved_views import View, ViewNameError, ViewStore
from portal_admin.ui.i18n.text import fill
from portal_admin.ui.lists.list_state import FilterKeeper, apply_table_state, table_state
from portal_admin.ui.lists.paged_model import PagedTableModel

log = logging.getLogger(__name__)

#: How long the list must stay unchanged before its state is written.
REMEMBER_MS = 500


class ListWithViews(Protocol):
    """What a list offers its saved views (a QWidget: the keeper is its child and filters its
    events)."""

    widths_chosen: bool

    @property
    def model(self) -> PagedTableModel[Any]: ...

    @property
    def table(self) -> QTableView: ...

    @property
    def filter_default(self) -> dict[str, Any]: ...

    def ensure_filter_keeper(self) -> FilterKeeper: ...

    def fit_columns(self, maximum: int = ...) -> None: ...

    def ask_view_name(self) -> None: ...

    def installEventFilter(self, filter: QObject) -> None: ...


class ViewKeeper(QObject):
    """The saved views and the remembered state of one list."""

    #: The view shown or the list of views changed (the button's text follows).
    viewsChanged = Signal()
    #: Something went wrong that the person should read (a translated sentence).
    problem = Signal(str)

    def __init__(self, view: ListWithViews, store: ViewStore, key: str) -> None:
        widget = cast(QObject, view)
        super().__init__(widget)
        self.view = view
        self._widget = widget
        self.store = store
        self.key = key
        self.active: str | None = None
        self._applying = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(REMEMBER_MS)
        self._timer.timeout.connect(self.remember)
        self.filters = view.ensure_filter_keeper()
        self.default = self.current_state(widths=False)
        self.default["filters"] = dict(view.filter_default)
        self._default_sort = view.model.sort_spec
        header = view.table.horizontalHeader()
        header.sectionMoved.connect(lambda *_a: self._touched())
        header.sortIndicatorChanged.connect(lambda *_a: self._touched())
        header.sectionResized.connect(self._resized)
        header.sectionHandleDoubleClicked.connect(lambda *_a: self._chose_widths())
        header.viewport().installEventFilter(self)
        self._dragging = False
        view.installEventFilter(self)
        self._restore_last()

    # -- state ---------------------------------------------------------------------------------

    def current_state(self, *, widths: bool | None = None) -> View:
        """The list as it is now; column widths only when the person chose them."""
        keep_widths = self.view.widths_chosen if widths is None else widths
        state: View = {
            "filters": self.filters.state(),
            **table_state(self.view.table, self.view.model),
        }
        if not keep_widths:
            for column in state["columns"]:
                column.pop("width", None)
        return state

    def apply(self, state: View, active: str | None) -> None:
        """Show ``state`` (a saved view, the default or the last state) as ``active``."""
        self._applying = True
        try:
            self.filters.restore(state.get("filters") or {})
            chose = apply_table_state(self.view.table, self.view.model, state)
        finally:
            self._applying = False
        self.view.widths_chosen = chose
        if not chose:
            self.view.fit_columns()
        self.active = active
        self.viewsChanged.emit()
        self._touched()

    def modified(self) -> bool:
        """True when the view shown is a saved one and the list no longer matches it (widths
        aside)."""
        if self.active is None:
            return False
        saved = self.store.view(self.key, self.active)
        return saved is not None and _without_widths(saved) != _without_widths(
            self.current_state(widths=False)
        )

    # -- actions -------------------------------------------------------------------------------

    def show_view(self, name: str) -> None:
        """Apply the saved view ``name``."""
        saved = self.store.view(self.key, name)
        if saved is None:
            self.problem.emit(
                fill(
                    QCoreApplication.translate(
                        "SavedViews", "The view \u201c%1\u201d no longer exists."
                    ),
                    name,
                )
            )
            self.viewsChanged.emit()
            return
        self.apply(saved, name)

    def reset(self) -> None:
        """Back to the list's default: no filters, its first sort and columns, fitted widths."""
        if self.view.model.sort_spec != self._default_sort:
            self.view.model.set_sort(self._default_sort)
        self.apply(self.default, None)

    def save_as(self, name: str) -> bool:
        """Keep the current state as the view ``name`` (replacing one of that name)."""
        try:
            self.active = self.store.save(self.key, name, self.current_state())
        except ViewNameError as exc:
            self.problem.emit(_name_problem(str(exc)))
            return False
        except OSError as exc:
            log.warning("saving the view failed: %s", exc)
            self.problem.emit(
                QCoreApplication.translate(
                    "SavedViews", "The view could not be saved: the settings file is not writable."
                )
            )
            return False
        self.viewsChanged.emit()
        self._touched()
        return True

    def save_changes(self) -> bool:
        """Write the current state into the view shown."""
        return self.active is not None and self.save_as(self.active)

    def delete(self, name: str) -> None:
        """Forget the view ``name``; the list stays as it is."""
        try:
            self.store.delete(self.key, name)
        except OSError as exc:
            log.warning("deleting the view failed: %s", exc)
            self.problem.emit(
                QCoreApplication.translate(
                    "SavedViews",
                    "The view could not be deleted: the settings file is not writable.",
                )
            )
            return
        if self.active == name:
            self.active = None
        self.viewsChanged.emit()
        self._touched()

    def remember(self) -> None:
        """Write the list's state now (it is restored at the next start)."""
        self._timer.stop()
        try:
            self.store.remember(self.key, self.current_state(), self.active)
        except OSError as exc:  # the list works on; its state is not kept
            log.warning("the list's state could not be kept: %s", exc)

    def names(self) -> list[str]:
        """The saved views of this list."""
        return self.store.names(self.key)

    def fill_menu(self, menu: QMenu) -> None:
        """The Views menu: the default and each saved view (the one shown checked), then save,
        save changes, delete and reset."""
        menu.clear()
        group = QActionGroup(menu)
        default = menu.addAction(QCoreApplication.translate("SavedViews", "Default view"))
        default.setCheckable(True)
        default.setChecked(self.active is None)
        default.triggered.connect(self.reset)
        group.addAction(default)
        for name in self.names():
            action = menu.addAction(name)
            action.setCheckable(True)
            action.setChecked(name == self.active)
            action.triggered.connect(lambda _on=False, n=name: self.show_view(n))
            group.addAction(action)
        menu.addSeparator()
        save = menu.addAction(QCoreApplication.translate("SavedViews", "Save view as\u2026"))
        save.setObjectName("saveViewAs")
        save.triggered.connect(self.view.ask_view_name)
        if self.active is not None:
            changes = menu.addAction(
                fill(
                    QCoreApplication.translate("SavedViews", "Save changes to \u201c%1\u201d"),
                    self.active,
                )
            )
            changes.setEnabled(self.modified())
            changes.triggered.connect(self.save_changes)
            delete = menu.addAction(
                fill(
                    QCoreApplication.translate("SavedViews", "Delete view \u201c%1\u201d"),
                    self.active,
                )
            )
            delete.triggered.connect(lambda _on=False, n=self.active: self.delete(n))
        reset = menu.addAction(QCoreApplication.translate("SavedViews", "Reset to default"))
        reset.setToolTip(
            QCoreApplication.translate(
                "SavedViews", "No filters, the first sort and columns, widths fitted"
            )
        )
        reset.triggered.connect(self.reset)

    def title(self) -> str:
        """The Views button's text: which view is shown."""
        name = self.active or QCoreApplication.translate("SavedViews", "Default view")
        return fill(QCoreApplication.translate("SavedViews", "View: %1"), name)

    # -- internals -----------------------------------------------------------------------------

    def _restore_last(self) -> None:
        state, active = self.store.last(self.key)
        if active is not None and self.store.view(self.key, active) is None:
            active = None
        if state is not None:
            self.apply(state, active)

    def filters_edited(self) -> None:
        """A filter changed (the list tells)."""
        self._touched()

    def _touched(self) -> None:
        if not self._applying:
            self._timer.start()

    def _resized(self, _section: int, _old: int, _new: int) -> None:
        if self._dragging and not self._applying:
            self._chose_widths()

    def _chose_widths(self) -> None:
        self.view.widths_chosen = True
        self._touched()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if watched is self._widget:
            if kind == QEvent.Type.Hide and self._timer.isActive():
                self.remember()
        elif kind == QEvent.Type.MouseButtonPress:
            self._dragging = True
        elif kind == QEvent.Type.MouseButtonRelease:
            self._dragging = False
        return False


def _without_widths(state: View) -> Any:
    columns = [
        {k: v for k, v in c.items() if k != "width"}
        for c in state.get("columns") or []
        if isinstance(c, dict)
    ]
    return state.get("filters") or {}, state.get("sort"), columns


def _name_problem(why: str) -> str:
    if why == "too many":
        return QCoreApplication.translate(
            "SavedViews", "This list already has 50 saved views; delete one first."
        )
    if why == "too long":
        return QCoreApplication.translate(
            "SavedViews", "A view name can have at most 60 characters."
        )
    return QCoreApplication.translate("SavedViews", "The view needs a name.")
