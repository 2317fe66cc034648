"""The portals panel: create an institution portal (limits checked as you type), show the
created record, and list the portals created in this session (the API has no list).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from portal_admin.ui.i18n.dates import format_datetime
from portal_admin.ui.i18n.text import fill
from portal_admin.ui.lists.paged_model import RowRole
from portal_admin.ui.lists.table_actions import TableActions
from portal_admin.ui.panels.base import PanelBase, async_slot
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.theme.tones import set_tone
from portal_admin.ui.widgets.message_bar import MessageBar
from portal_admin.ui.widgets.plain import PlainLabel, plain_tooltip

from .picker import Picker
from .portals_controller import MAX_LENGTH, PortalsController, status_text


class LengthCounter(QLabel):
    """ "n / 255" beside a field; red when over the limit."""

    def __init__(self, field: QLineEdit, limit: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self._field = field
        self.limit = limit
        self.setMinimumWidth(72)
        self.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        field.textChanged.connect(self.update_count)
        self.update_count()

    @property
    def over(self) -> bool:
        """True when the field holds more than the limit."""
        return len(self._field.text()) > self.limit

    def update_count(self, *_args: object) -> None:
        """Show the current length."""
        count = len(self._field.text())
        self.setText(f"{count} / {self.limit}")
        set_tone(self, "error" if self.over else "muted")
        self.setStyleSheet("font-weight: bold;" if self.over else "")
        self.setAccessibleName(
            fill(
                QCoreApplication.translate("PortalsPanel", "%1 of at most %2 characters"),
                count,
                self.limit,
            )
        )


class PortalsPanel(PanelBase):
    """Create institution portals."""

    #: Shown, the controller starts loading (``controller.start()``).
    LOAD_ON_SHOW = False

    def __init__(self, context: PanelContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.setObjectName("portalsPanel")
        self.controller = PortalsController(context, self)
        self.controller.dialog_parent = self
        self.intro = PlainLabel(self)
        self.intro.setObjectName("portalsIntro")
        self.intro.setWordWrap(True)
        self.message = MessageBar(self)

        self.form_box = QGroupBox(self)
        self.form_box.setMaximumWidth(720)
        self.type = Picker(self.form_box)
        self.type.setObjectName("portalType")
        self.domain = QLineEdit(self.form_box)
        self.domain.setObjectName("portalDomain")
        self.domain_counter = LengthCounter(self.domain, MAX_LENGTH, self.form_box)
        self.domain_counter.setObjectName("portalDomainCounter")
        self.remark = QLineEdit(self.form_box)
        self.remark.setObjectName("portalRemark")
        self.remark_counter = LengthCounter(self.remark, MAX_LENGTH, self.form_box)
        self.remark_counter.setObjectName("portalRemarkCounter")
        self.institution = QLineEdit(self.form_box)
        self.institution.setObjectName("portalInstitution")
        self.create_button = QPushButton(self.form_box)
        self.create_button.setObjectName("portalCreate")
        self.problems = PlainLabel(self.form_box)
        self.problems.setObjectName("portalProblems")
        self.problems.setWordWrap(True)
        set_tone(self.problems, "muted")
        self.type_label, self.domain_label = PlainLabel(self), PlainLabel(self)
        self.remark_label, self.institution_label = PlainLabel(self), PlainLabel(self)
        form = QFormLayout(self.form_box)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        for label, field, counter in (
            (self.type_label, self.type, None),
            (self.domain_label, self.domain, self.domain_counter),
            (self.remark_label, self.remark, self.remark_counter),
            (self.institution_label, self.institution, None),
        ):
            label.setBuddy(field)
            row = QHBoxLayout()
            row.addWidget(field, 1)
            if counter is not None:
                row.addWidget(counter)
            form.addRow(label, row)
        buttons = QHBoxLayout()
        buttons.addWidget(self.create_button)
        buttons.addWidget(self.problems, 1)
        form.addRow(buttons)

        self.created_box = QGroupBox(self)
        self.created_box.setObjectName("portalCreated")
        created_form = QFormLayout(self.created_box)
        self.created_labels: dict[str, QLabel] = {}
        self.created_values: dict[str, QLabel] = {}
        for key in ("id", "type", "domain", "status", "remark", "created", "institution"):
            label, value = PlainLabel(self), PlainLabel(self)
            value.setObjectName(f"created-{key}")
            value.setTextFormat(Qt.TextFormat.PlainText)
            value.setWordWrap(True)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            label.setBuddy(value)
            self.created_labels[key], self.created_values[key] = label, value
            created_form.addRow(label, value)
        self.created_box.setVisible(False)

        self.session_label = PlainLabel(self)
        self.table = QTableView(self)
        self.table.setObjectName("portalsTable")
        self.table.setModel(self.controller.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(24)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        for number, width in enumerate((60, 170, 200, 120, 180, 150)):
            header.resizeSection(number, width)
        self.session_label.setBuddy(self.table)
        # Portals cannot be changed or deleted (the API has no such operation): the menu
        # copies, and Enter shows the portal in the "Created portal" box.
        self.table_actions = TableActions(
            self.table,
            id_column="id",
            row_of=lambda r: self.controller.model.index(r, 0).data(RowRole),
        )
        self.table_actions.set_multi_select()
        self.table_actions.rowActivated.connect(self.show_portal)

        top = QHBoxLayout()
        top.addWidget(self.form_box, 3)
        top.addWidget(self.created_box, 2)
        top.addStretch(0)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.intro)
        layout.addWidget(self.message)
        layout.addLayout(top)
        layout.addWidget(self.session_label)
        layout.addWidget(self.table, 1)

        c = self.controller
        c.typesChanged.connect(self._types)
        c.created.connect(self._created)
        c.errorShown.connect(self.message.show_error)
        c.busyChanged.connect(self.validate)
        for edit in (self.domain, self.remark):
            edit.textChanged.connect(self.validate)
        self.type.currentIndexChanged.connect(self.validate)
        self.type.editTextChanged.connect(self.validate)
        self.create_button.clicked.connect(self._on_create)
        self.retranslateUi()

    @async_slot()
    async def _on_create(self) -> None:
        await self.submit()

    async def submit(self) -> Any:
        """Create the portal the form describes (the button's action)."""
        self.message.clear()
        return await self.controller.create(
            self.type.code() or "",
            self.domain.text(),
            self.remark.text(),
            self.institution.text(),
        )

    def current_problems(self) -> list[str]:
        """Why Create is disabled now."""
        return self.controller.problems(self.type.code(), self.domain.text(), self.remark.text())

    def apply_permissions(self) -> None:
        """Create enabled (or disabled with the reasons) as the account may."""
        self.validate()

    def validate(self, *_args: object) -> None:
        """Enable Create only for a complete form within the limits."""
        problems = self.current_problems()
        self.create_button.setEnabled(not problems and not self.controller.busy)
        self.create_button.setToolTip(plain_tooltip("\n".join(problems)))
        self.problems.setText("\n".join(problems))

    def _types(self, pairs: list[tuple[str, str]]) -> None:
        self.type.set_items(pairs)
        if self.type.code() is None and pairs:
            self.type.set_code(None)
        self.validate()

    def _created(self, record: Any) -> None:
        self.show_portal(record)
        self.message.show_notice(
            fill(
                QCoreApplication.translate("PortalsPanel", "The portal %1 was created."),
                record.domain or "",
            )
        )
        self.domain.clear()
        self.remark.clear()
        self.table.selectRow(0)

    def show_portal(self, record: Any) -> None:
        """Show ``record`` in the "Created portal" box."""
        values = {
            "id": str(record.id),
            "type": self.controller.type_label(record.portal_type),
            "domain": record.domain or "",
            "status": status_text(record.portal_status),
            "remark": record.remark or "",
            "created": format_datetime(record.created_at),
            "institution": record.institution_biz_id or "",
        }
        for key, value in values.items():
            self.created_values[key].setText(value)
        self.created_box.setVisible(True)

    def refresh(self) -> None:
        """Reload the portal types (F5); the server has no portal list to reload."""
        self.spawn(self.controller.load_types())

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        self.controller.start()

    def retranslateUi(self) -> None:
        """Texts in the current language."""
        self.intro.setText(
            QCoreApplication.translate(
                "PortalsPanel",
                "Create a portal for an institution. The server offers no way to list "
                "portals: the table below shows only the portals created in this session.",
            )
        )
        self.form_box.setTitle(QCoreApplication.translate("PortalsPanel", "New portal"))
        self.created_box.setTitle(QCoreApplication.translate("PortalsPanel", "Created portal"))
        self.type_label.setText(QCoreApplication.translate("PortalsPanel", "&Type:"))
        self.domain_label.setText(QCoreApplication.translate("PortalsPanel", "&Domain:"))
        self.remark_label.setText(QCoreApplication.translate("PortalsPanel", "&Remark:"))
        self.institution_label.setText(QCoreApplication.translate("PortalsPanel", "&Institution:"))
        self.domain.setPlaceholderText(
            QCoreApplication.translate("PortalsPanel", "e.g. portal.example.com (required)")
        )
        self.remark.setPlaceholderText(QCoreApplication.translate("PortalsPanel", "Optional"))
        self.institution.setPlaceholderText(
            QCoreApplication.translate("PortalsPanel", "Optional: empty means your own institution")
        )
        self.create_button.setText(QCoreApplication.translate("PortalsPanel", "Create portal"))
        line = self.type.lineEdit()
        if line is not None:
            line.setPlaceholderText(
                QCoreApplication.translate("PortalsPanel", "Choose a portal type\u2026")
            )
        self.type.setAccessibleName(QCoreApplication.translate("PortalsPanel", "Portal type"))
        self.domain.setAccessibleName(QCoreApplication.translate("PortalsPanel", "Domain"))
        self.remark.setAccessibleName(QCoreApplication.translate("PortalsPanel", "Remark"))
        self.institution.setAccessibleName(
            QCoreApplication.translate("PortalsPanel", "Institution id")
        )
        self.create_button.setAccessibleName(
            QCoreApplication.translate("PortalsPanel", "Create the portal")
        )
        self.problems.setAccessibleName(
            QCoreApplication.translate("PortalsPanel", "Why the portal cannot be created yet")
        )
        self.table.setAccessibleName(
            QCoreApplication.translate("PortalsPanel", "Portals created in this session")
        )
        self.session_label.setText(
            QCoreApplication.translate("PortalsPanel", "Portals created in this &session:")
        )
        titles = {
            "id": QCoreApplication.translate("PortalsPanel", "Id:"),
            "type": QCoreApplication.translate("PortalsPanel", "Type:"),
            "domain": QCoreApplication.translate("PortalsPanel", "Domain:"),
            "status": QCoreApplication.translate("PortalsPanel", "Status:"),
            "remark": QCoreApplication.translate("PortalsPanel", "Remark:"),
            "created": QCoreApplication.translate("PortalsPanel", "Created:"),
            "institution": QCoreApplication.translate("PortalsPanel", "Institution:"),
        }
        for key, text in titles.items():
            self.created_labels[key].setText(text)
            self.created_values[key].setAccessibleName(text.rstrip(":"))
        self.domain_counter.update_count()
        self.remark_counter.update_count()
        self.controller.model.retranslate()
        self.setAccessibleName(QCoreApplication.translate("PortalsPanel", "Portals"))
        self.validate()
