"""The typed confirmation (``ui/widgets/typed_confirm.py``) the revert window and the bulk
window ask through: hidden when nothing is to be typed, the number with separators accepted,
any other number refused."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from portal_admin.ui.profiles.store import EnvironmentType, sandbox_profile
from portal_admin.ui.widgets.typed_confirm import TypedConfirm, typed_number


def test_the_number_typed_is_read_with_its_separators() -> None:
    assert typed_number("1,234") == typed_number(" 1 234 ") == typed_number("1.234") == 1234
    assert typed_number("") is None
    assert typed_number("12a") is None
    assert typed_number("-3") is None
    assert typed_number("\u0661\u0662") is None  # digits of another script are not taken


def test_nothing_to_type_then_a_number(qtbot: QtBot) -> None:
    window = QWidget()
    qtbot.addWidget(window)
    widget = TypedConfirm(window)
    window.show()
    assert not widget.isVisible() and widget.confirmed()
    production = sandbox_profile().replace(environment=EnvironmentType.PRODUCTION)
    with qtbot.waitSignal(widget.changed):
        widget.require(120, production)
    assert widget.isVisible() and not widget.confirmed()
    assert "type 120 to confirm" in widget.label.text() and production.name in widget.label.text()
    widget.field.setText("119")
    assert widget.wrong() and not widget.confirmed()
    assert widget.field.toolTip() == "That is not the number of targets."
    widget.field.setText("120")
    assert widget.confirmed() and not widget.wrong() and widget.field.toolTip() == ""
    widget.require(101)  # off production: a revert over the threshold
    assert widget.field.text() == "" and not widget.confirmed()
    assert widget.label.text() == "101 targets will change: type 101 to confirm:"
    widget.require(None)
    assert not widget.isVisible() and widget.confirmed()
