"""The "constants" panel: every public enumeration list, browsed in the current language."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from portal_admin.client.records import ConstantItem
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP, fill
from portal_admin.ui.lists.local_list import LocalList, text_matcher
from portal_admin.ui.lists.paged_list import PagedList
from portal_admin.ui.lists.paged_model import RIGHT, Column, PagedTableModel
from portal_admin.ui.lists.table_actions import TableActions
from portal_admin.ui.panels.constants_cache import LIST_NAMES
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.panels.task_panel import TaskPanel
from portal_admin.ui.widgets.plain import PlainLabel, plain_tooltip

_C = "ConstantColumns"

#: Readable names of the lists (source texts in context "ConstantLists").
LIST_TITLES: dict[str, str] = {
    "countries": QT_TRANSLATE_NOOP("ConstantLists", "Countries"),
    "currency-config-statuses": QT_TRANSLATE_NOOP("ConstantLists", "Currency config statuses"),
    "notification-channel-statuses": QT_TRANSLATE_NOOP(
        "ConstantLists", "Notification channel statuses"
    ),
    "notification-channel-type-statuses": QT_TRANSLATE_NOOP(
        "ConstantLists", "Notification channel type statuses"
    ),
    "notification-channel-types": QT_TRANSLATE_NOOP("ConstantLists", "Notification channel types"),
    "order-statuses": QT_TRANSLATE_NOOP("ConstantLists", "Order statuses"),
    "timezones": QT_TRANSLATE_NOOP("ConstantLists", "Time zones"),
    "transfer-statuses": QT_TRANSLATE_NOOP("ConstantLists", "Transfer statuses"),
    "us-states": QT_TRANSLATE_NOOP("ConstantLists", "US states"),
    "user-account-statuses": QT_TRANSLATE_NOOP("ConstantLists", "Account statuses"),
    "user-institution-statuses": QT_TRANSLATE_NOOP("ConstantLists", "Institution statuses"),
    "user-institution-types": QT_TRANSLATE_NOOP("ConstantLists", "Institution types"),
    "user-invitation-statuses": QT_TRANSLATE_NOOP("ConstantLists", "Invitation statuses"),
    "user-join-sources": QT_TRANSLATE_NOOP("ConstantLists", "Join sources"),
    "user-portal-types": QT_TRANSLATE_NOOP("ConstantLists", "Portal types"),
    "user-workspace-statuses": QT_TRANSLATE_NOOP("ConstantLists", "Workspace statuses"),
}

#: The extra columns each list has (section 2.2); the others are hidden.
EXTRA_COLUMNS: dict[str, tuple[str, ...]] = {
    "countries": ("alpha2Code", "alpha3Code", "numericCode", "phoneCode"),
    "timezones": ("zoneIdCode", "utcOffset"),
    "us-states": ("isoCode",),
}

COLUMNS: list[Column[ConstantItem]] = [
    Column(
        "code",
        QT_TRANSLATE_NOOP("ConstantColumns", "Code"),
        lambda i: i.code,
        sort_field="code",
        context=_C,
    ),
    Column(
        "value",
        QT_TRANSLATE_NOOP("ConstantColumns", "Value"),
        lambda i: i.value,
        sort_field="value",
        alignment=RIGHT,
        context=_C,
    ),
    Column(
        "label",
        QT_TRANSLATE_NOOP("ConstantColumns", "Label"),
        lambda i: i.label,
        sort_field="label",
        context=_C,
    ),
    Column(
        "description",
        QT_TRANSLATE_NOOP("ConstantColumns", "Description"),
        lambda i: i.description,
        sort_field="description",
        context=_C,
    ),
    Column(
        "alpha2Code",
        QT_TRANSLATE_NOOP("ConstantColumns", "Alpha-2"),
        lambda i: i.alpha2_code,
        sort_field="alpha2Code",
        context=_C,
    ),
    Column(
        "alpha3Code",
        QT_TRANSLATE_NOOP("ConstantColumns", "Alpha-3"),
        lambda i: i.alpha3_code,
        sort_field="alpha3Code",
        context=_C,
    ),
    Column(
        "numericCode",
        QT_TRANSLATE_NOOP("ConstantColumns", "Numeric code"),
        lambda i: i.numeric_code,
        sort_field="numericCode",
        alignment=RIGHT,
        context=_C,
    ),
    Column(
        "phoneCode",
        QT_TRANSLATE_NOOP("ConstantColumns", "Phone code"),
        lambda i: i.phone_code,
        sort_field="phoneCode",
        context=_C,
    ),
    Column(
        "zoneIdCode",
        QT_TRANSLATE_NOOP("ConstantColumns", "Zone id"),
        lambda i: i.zone_id_code,
        sort_field="zoneIdCode",
        context=_C,
    ),
    Column(
        "utcOffset",
        QT_TRANSLATE_NOOP("ConstantColumns", "UTC offset"),
        lambda i: i.utc_offset,
        sort_field="utcOffset",
        context=_C,
    ),
    Column(
        "isoCode",
        QT_TRANSLATE_NOOP("ConstantColumns", "ISO code"),
        lambda i: i.iso_code,
        sort_field="isoCode",
        context=_C,
    ),
]
BASE_COLUMNS = ("code", "value", "label", "description")


def list_title(list_name: str) -> str:
    """The translated name of a list."""
    return QCoreApplication.translate("ConstantLists", LIST_TITLES.get(list_name, list_name))


def _searchable(item: ConstantItem) -> tuple[object, ...]:
    return (
        item.code,
        item.value,
        item.label,
        item.description,
        item.alpha2_code,
        item.alpha3_code,
        item.phone_code,
        item.zone_id_code,
        item.utc_offset,
        item.iso_code,
    )


class ConstantsPanel(TaskPanel):
    """A list of the lists on the left; the chosen list's items on the right."""

    def __init__(self, context: PanelContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.setObjectName("constantsPanel")
        self.current_list = LIST_NAMES[0]
        self.source: LocalList[ConstantItem] = LocalList(self._load_current, COLUMNS)
        self.model: PagedTableModel[ConstantItem] = PagedTableModel(
            COLUMNS, self.source.fetch, parent=self
        )
        self.list_view = PagedList(self.model, id_column="code", export_name="constants.csv")
        self.list_view.setObjectName("constantsTable")
        self.list_view.set_multi_select()  # read only: several items may be copied at once
        self.lists = QListWidget(self)
        self.lists.setObjectName("constantLists")
        for name in LIST_NAMES:
            item = QListWidgetItem(self.lists)
            item.setData(Qt.ItemDataRole.UserRole, name)
        self.lists.setCurrentRow(0)
        self.lists.setMinimumWidth(220)
        # The lists: copy their names; Enter goes to the chosen list's items.
        self.lists_actions = TableActions(self.lists)
        self.lists_actions.rowActivated.connect(lambda _row: self.list_view.table.setFocus())
        self.text_filter = QLineEdit(self)
        self.text_filter.setObjectName("constantsFilter")
        self.text_filter.setClearButtonEnabled(True)
        self.title = PlainLabel(self)
        self.title.setObjectName("constantListTitle")
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        filters = QWidget(self)
        row = QHBoxLayout(filters)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.title)
        row.addWidget(self.text_filter, 1)
        self.list_view.set_filter_bar(filters)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.addWidget(self.lists)
        splitter.addWidget(self.list_view)
        splitter.setStretchFactor(1, 1)
        splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)
        self.lists.currentRowChanged.connect(self._list_chosen)
        self.text_filter.textChanged.connect(self._filter_changed)
        self.constants.cleared.connect(self._language_switched)
        self._show_columns()
        self.retranslateUi()

    # -- loading -------------------------------------------------------------------------------

    async def _load_current(self) -> list[ConstantItem]:
        return list(await self.constants.items(self.current_list))

    async def reload(self) -> None:
        """Show the chosen list (from the cache; fetched once per language)."""
        self.source.reload()
        self.model.refresh()
        await self.model.wait_idle()
        self.list_view.fit_columns(360)
        self.loaded = True

    def refresh(self) -> None:
        """F5: fetch the list shown again from the server (not from the cache)."""
        self.constants.forget(self.current_list)
        self.start_reload()

    async def show_list(self, list_name: str) -> None:
        """Choose ``list_name`` and wait until it is shown."""
        self.lists.setCurrentRow(LIST_NAMES.index(list_name))
        await self.wait_idle()
        await self.model.wait_idle()

    def _list_chosen(self, row: int) -> None:
        if not 0 <= row < len(LIST_NAMES):
            return
        self.current_list = LIST_NAMES[row]
        self._show_columns()
        self.retranslateUi()
        self.start_reload()

    def _language_switched(self, _language: str) -> None:
        self.reload_when_shown()

    def _show_columns(self) -> None:
        shown = {*BASE_COLUMNS, *EXTRA_COLUMNS.get(self.current_list, ())}
        for i, column in enumerate(COLUMNS):
            self.list_view.table.setColumnHidden(i, column.key not in shown)

    def visible_columns(self) -> list[str]:
        """Keys of the columns shown for the current list."""
        return [c.key for i, c in enumerate(COLUMNS) if not self.list_view.table.isColumnHidden(i)]

    def _filter_changed(self, text: str) -> None:
        self.source.set_filter(text_matcher(text, _searchable))
        self.requery(self.model)

    # -- language ------------------------------------------------------------------------------

    def retranslateUi(self) -> None:
        for i in range(self.lists.count()):
            item = self.lists.item(i)
            name = str(item.data(Qt.ItemDataRole.UserRole))
            item.setText(list_title(name))
            item.setToolTip(
                plain_tooltip(
                    fill(QCoreApplication.translate("ConstantsPanel", "/constants/%1"), name)
                )
            )
        self.lists.setAccessibleName(QCoreApplication.translate("ConstantsPanel", "Constant lists"))
        self.title.setText(list_title(self.current_list))
        self.title.setAccessibleName(QCoreApplication.translate("ConstantsPanel", "Shown list"))
        self.text_filter.setPlaceholderText(
            QCoreApplication.translate("ConstantsPanel", "Filter by code, label or description")
        )
        self.text_filter.setAccessibleName(
            QCoreApplication.translate("ConstantsPanel", "Text filter")
        )
        self.setAccessibleName(QCoreApplication.translate("ConstantsPanel", "Constants"))
