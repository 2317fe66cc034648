"""The read-only marking of CSV exports and screenshots; the generic hiding of mutating
controls (``Permissions.bind`` and the kiosk guard's walker)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import qasync
from PySide6.QtGui import QAction, QImage
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from portal_admin.protocol.pages import Page
from portal_admin.ui.kiosk import marking
from portal_admin.ui.kiosk.guard import KioskGuard
from portal_admin.ui.kiosk.marking import STRIP_HEIGHT, ReadOnlyMarking
from portal_admin.ui.lists.csv_export import export_csv
from portal_admin.ui.lists.paged_model import Column, Query
from portal_admin.ui.permissions import Permissions
from portal_admin.ui.tour.screenshots import save_screenshot

WHEN = "2026-03-02T14:05:09+01:00"
COLUMNS: list[Column[tuple[str, int]]] = [
    Column("name", "Name", lambda r: r[0]),
    Column("age", "Age", lambda r: r[1]),
]


async def _fetch(number: int, size: int, sort: object) -> Page[tuple[str, int]]:
    rows = [("Ann", 31), ("=cmd", 40)]
    return Page(tuple(rows), number, size, len(rows), 1)


def test_csv_footer_row_after_an_empty_row(loop: qasync.QEventLoop, tmp_path: Path) -> None:
    footer = marking.csv_footer(ReadOnlyMarking("auditor@sandbox.test"), WHEN)
    assert footer == f"READ-ONLY EXPORT \u2014 {WHEN} \u2014 auditor@sandbox.test"
    out = tmp_path / "x.csv"
    written = loop.run_until_complete(
        export_csv(out, COLUMNS, Query(_fetch, []), delimiter=";", footer=footer)
    )
    assert written == 2
    text = out.read_bytes().decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=";"))
    assert rows[0] == ["Name", "Age"]  # the header stays first: spreadsheets find it
    assert rows[1:3] == [["Ann", "31"], ["'=cmd", "40"]]
    assert rows[3] == [] and rows[4] == [footer]
    assert len(rows) == 5


def test_screenshots_get_the_watermark_strip(qtbot: object, tmp_path: Path) -> None:
    widget = QLabel("content")
    widget.resize(640, 200)
    plain = save_screenshot(widget, tmp_path / "plain.png")
    marking.set_current(ReadOnlyMarking("auditor@sandbox.test", clock=lambda: WHEN))
    try:
        marked = save_screenshot(widget, tmp_path / "marked.png")
        assert marking.watermark_text(marking.current() or ReadOnlyMarking("")) == (
            f"Read-only \u00b7 {WHEN}"
        )
    finally:
        marking.set_current(None)
    before, after = QImage(str(plain)), QImage(str(marked))
    assert after.width() == before.width()
    ratio = after.devicePixelRatio()
    assert after.height() - before.height() == round(STRIP_HEIGHT * ratio)
    # the strip is dark with light text in it
    row = after.height() - round(STRIP_HEIGHT * ratio / 2)
    colours = {after.pixelColor(x, row).lightness() for x in range(after.width())}
    assert min(colours) < 80 and max(colours) > 200


def test_bind_disables_with_reason_or_hides_in_kiosk(qtbot: object) -> None:
    root = QWidget()
    button, action = QPushButton("Invite", root), QAction("Cancel", root)
    reads = QPushButton("Refresh", root)
    root.show()
    normal = Permissions(["workspace:invitation:read"])
    reason = normal.bind(button, "invitations.create")
    assert reason and not button.isEnabled() and button.toolTip() == reason
    assert button.isVisible()
    assert button.property("operationId") == "invitations.create"
    assert Permissions(None).bind(button, "invitations.create") is None and button.isEnabled()
    kiosk = Permissions(None, read_only=True)
    kiosk.bind(button, "invitations.create")
    kiosk.bind(action, "invitations.cancel")
    assert not button.isVisible() and not action.isVisible()
    assert kiosk.bind(reads, "invitations.list") is None
    assert reads.isEnabled() and reads.isVisible()
    root.close()


def test_guard_walker_hides_tagged_and_known_controls_for_good(qtbot: object) -> None:
    root = QWidget()
    layout = QVBoxLayout(root)
    tagged, known, reading = QPushButton("Delete"), QPushButton("Save"), QPushButton("Open")
    tagged.setProperty("operationId", "roles.delete")
    known.setObjectName("saveWhitelist")  # an untagged panel's control, known by name
    reading.setProperty("operationId", "roles.get")
    unknown = QPushButton("?")
    unknown.setProperty("operationId", "no.such_operation")  # unknown counts as mutating
    for w in (tagged, known, reading, unknown):
        layout.addWidget(w)
    action = QAction("Revoke", root)
    action.setProperty("operationId", "security.otp_revoke")
    root.addAction(action)
    guard = KioskGuard()
    guard.install()
    try:
        hidden = guard.walk(root)
        root.show()
        assert set(hidden) == {tagged, known, unknown, action}
        assert reading.isVisible()
        assert not any(w.isVisible() for w in (tagged, known, unknown))
        tagged.show()  # a panel showing its button again: hidden again at once
        assert not tagged.isVisible()
        action.setVisible(True)
        action.setEnabled(True)
        assert not action.isVisible() and not action.isEnabled()
        late = QPushButton("Generate", root)  # added later, shown: hidden on show
        late.setObjectName("generateCodes")
        layout.addWidget(late)
        late.show()
        assert not late.isVisible()
    finally:
        guard.remove()
        root.close()
