"""CSV export: content, encoding, delimiters, formula neutralization, cancel, the dialogs."""

from __future__ import annotations

import asyncio
import csv
import io
from pathlib import Path

import pytest
from PySide6.QtCore import QT_TRANSLATE_NOOP as N

from portal_admin.ui.lists.csv_export import export_csv, neutralize
from portal_admin.ui.lists.paged_model import Column, Query

from ..fakes import FakeCollection, Person, people
from .test_paged_model import COLUMNS


def read(path: Path, delimiter: str = ",") -> list[list[str]]:
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    return list(csv.reader(io.StringIO(raw[3:].decode("utf-8"), newline=""), delimiter=delimiter))


def test_exports_every_page(loop, tmp_path: Path) -> None:
    coll = FakeCollection(items=people(1234))
    seen: list[tuple[int, int]] = []
    out = tmp_path / "people.csv"
    n = loop.run_until_complete(
        export_csv(
            out,
            COLUMNS,
            Query(coll.fetch, [("age", "desc")]),
            progress=lambda d, t: seen.append((d, t)),
        )
    )
    assert n == 1234
    rows = read(out)
    assert rows[0] == ["Id", "Name", "Email", "Age"]
    assert len(rows) == 1235
    assert rows[1][3] == "69"
    assert all(c[2] == [("age", "desc")] for c in coll.calls)
    assert seen[-1] == (1234, 1234) and len(seen) == 13
    assert out.read_bytes().count(b"\r\n") == 1235


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_delimiters_and_unicode(loop, tmp_path: Path, delimiter: str) -> None:
    items = [Person("id-1", 'Nguyễn Văn A; "Ann", 王', "a@b.c", 30)]
    out = tmp_path / "x.csv"
    loop.run_until_complete(
        export_csv(out, COLUMNS, Query(FakeCollection(items=items).fetch, []), delimiter=delimiter)
    )
    assert read(out, delimiter)[1] == ["id-1", 'Nguyễn Văn A; "Ann", 王', "a@b.c", "30"]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),
        ("+1+1", "'+1+1"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tcmd", "'\tcmd"),
        ("\rcmd", "'\rcmd"),
        ("a=b", "a=b"),
        # phone numbers are written as they are (files/csv_rules.py says why)
        ("+1 555", "+1 555"),
        ("+1-555-0100", "+1-555-0100"),
        ("+44 (20) 7946 0958", "+44 (20) 7946 0958"),
        ("+33.1.23.45.67.89", "+33.1.23.45.67.89"),
        ("+500", "+500"),
        # ...but not what only starts like one
        ("+1 555 =cmd", "'+1 555 =cmd"),
        ("+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"),
        ("+A1", "'+A1"),
        ("+", "'+"),
        ("+1)", "'+1)"),
        ("-1 555", "'-1 555"),
        ("plain", "plain"),
        ("", ""),
    ],
)
def test_neutralize(value: str, expected: str) -> None:
    assert neutralize(value) == expected


def test_formulas_neutralized_in_file(loop, tmp_path: Path) -> None:
    items = [Person("=1+1", "@cmd", "+x@y.z", -5)]
    columns = [*COLUMNS, Column("calc", N("Columns", "=Header"), lambda p: "-" + p.name)]
    out = tmp_path / "x.csv"
    loop.run_until_complete(export_csv(out, columns, Query(FakeCollection(items=items).fetch, [])))
    rows = read(out)
    assert rows[0][-1] == "'=Header"
    assert rows[1] == ["'=1+1", "'@cmd", "'+x@y.z", "-5", "'-@cmd"]  # numbers stay numbers


def test_cancel_leaves_nothing(loop, tmp_path: Path) -> None:
    out = tmp_path / "x.csv"
    out.write_text("old")
    coll = FakeCollection(items=people(1000), delay=0.01)

    async def scenario() -> None:
        task = asyncio.ensure_future(export_csv(out, COLUMNS, Query(coll.fetch, [])))
        await asyncio.sleep(0.03)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    loop.run_until_complete(scenario())
    assert out.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.csv"]


def test_failure_leaves_nothing(loop, tmp_path: Path) -> None:
    coll = FakeCollection(items=people(300), fail_pages={2})
    out = tmp_path / "x.csv"
    with pytest.raises(Exception, match="boom"):
        loop.run_until_complete(export_csv(out, COLUMNS, Query(coll.fetch, [])))
    assert list(tmp_path.iterdir()) == []


def test_export_flow_with_dialogs(loop, qtbot, tmp_path: Path, shots: Path) -> None:
    """The ListView's export: options dialog, progress dialog, cancel and success."""
    from PySide6.QtWidgets import QApplication

    from portal_admin.ui.lists.export_dialog import ExportOptionsDialog, ExportProgressDialog
    from portal_admin.ui.lists.paged_list import PagedList
    from portal_admin.ui.lists.paged_model import PagedTableModel

    coll = FakeCollection(items=people(500), delay=0.005)
    view = PagedList(PagedTableModel(COLUMNS, coll.fetch), export_name="people.csv")
    qtbot.addWidget(view)
    view.show()
    out = tmp_path / "out.csv"

    def find(kind: type) -> object:
        found = [w for w in QApplication.topLevelWidgets() if isinstance(w, kind) and w.isVisible()]
        return found[0] if found else None

    async def scenario() -> object:
        task = asyncio.ensure_future(view.export())
        await asyncio.sleep(0.02)
        options = find(ExportOptionsDialog)
        assert isinstance(options, ExportOptionsDialog)
        options.path_edit.setText(str(out))
        options.delimiter.setCurrentIndex(1)
        options.grab().save(str(shots / "export-options.png"))
        options.buttons.accepted.emit()
        await asyncio.sleep(0.02)
        progress = find(ExportProgressDialog)
        assert isinstance(progress, ExportProgressDialog)
        progress.grab().save(str(shots / "export-progress.png"))
        return await task

    assert loop.run_until_complete(scenario()) == out
    assert len(read(out, ";")) == 501

    async def cancel() -> object:
        task = asyncio.ensure_future(view.export())
        await asyncio.sleep(0.02)
        options = find(ExportOptionsDialog)
        assert isinstance(options, ExportOptionsDialog)
        options.path_edit.setText(str(tmp_path / "cancelled.csv"))
        options.buttons.accepted.emit()
        await asyncio.sleep(0.02)
        progress = find(ExportProgressDialog)
        assert isinstance(progress, ExportProgressDialog)
        progress.buttons.rejected.emit()
        return await task

    assert loop.run_until_complete(cancel()) is None
    assert not (tmp_path / "cancelled.csv").exists()


def test_the_file_is_written_off_the_gui_thread(
    loop, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opening, every row, the fsync and the rename run in worker threads (#38)."""
    from PySide6.QtCore import QThread
    from PySide6.QtWidgets import QApplication

    from portal_admin.ui.lists import csv_export

    threads: list[tuple[str, bool]] = []

    def note(what: str) -> None:
        threads.append((what, QThread.currentThread() is QApplication.instance().thread()))

    real_open, real_writer = csv_export.atomic_open, csv_export.writer

    class Watched:
        def __init__(self, inner: object) -> None:
            self.inner = inner

        def __enter__(self) -> object:
            note("open")
            return self.inner.__enter__()  # type: ignore[attr-defined]

        def __exit__(self, *exc: object) -> object:
            note("close")
            return self.inner.__exit__(*exc)  # type: ignore[attr-defined]

    class Rows:
        def __init__(self, inner: object) -> None:
            self.inner = inner

        def writerow(self, row: list[str]) -> object:
            note("row")
            return self.inner.writerow(row)  # type: ignore[attr-defined]

        def writerows(self, rows: list[list[str]]) -> object:
            note("rows")
            return self.inner.writerows(rows)  # type: ignore[attr-defined]

    monkeypatch.setattr(csv_export, "atomic_open", lambda *a, **k: Watched(real_open(*a, **k)))
    monkeypatch.setattr(csv_export, "writer", lambda fh, d: Rows(real_writer(fh, d)))
    out = tmp_path / "people.csv"
    query = Query(FakeCollection(items=people(250)).fetch, [])
    n = loop.run_until_complete(export_csv(out, COLUMNS, query, page_size=100, footer="MARK"))
    assert n == 250 and len(read(out)) == 1 + 250 + 2
    assert {what for what, _ in threads} == {"open", "row", "rows", "close"}
    assert [what for what, on_gui in threads if on_gui] == []


def test_a_file_that_cannot_be_written_is_said_clearly(loop, qtbot, tmp_path: Path) -> None:
    """The list's export into a "folder" that is a file: the error window names the reason and
    the file in words (not a traceback), and nothing is left behind."""
    from PySide6.QtWidgets import QApplication

    from portal_admin.ui.lists.export_dialog import ExportOptionsDialog
    from portal_admin.ui.lists.paged_list import PagedList
    from portal_admin.ui.lists.paged_model import PagedTableModel
    from portal_admin.ui.widgets.error_dialog import ErrorDialog

    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    view = PagedList(PagedTableModel(COLUMNS, FakeCollection(items=people(20)).fetch))
    qtbot.addWidget(view)
    view.show()

    def find(kind: type) -> object:
        found = [w for w in QApplication.topLevelWidgets() if isinstance(w, kind) and w.isVisible()]
        return found[0] if found else None

    async def scenario() -> object:
        view.start_export()
        await asyncio.sleep(0.02)
        options = find(ExportOptionsDialog)
        assert isinstance(options, ExportOptionsDialog)
        options.path_edit.setText(str(blocker / "people.csv"))
        options.buttons.accepted.emit()
        for _ in range(300):
            await asyncio.sleep(0.01)
            if find(ErrorDialog) is not None:
                break
        return find(ErrorDialog)

    dialog = loop.run_until_complete(scenario())
    assert isinstance(dialog, ErrorDialog)
    text = dialog.info.as_text()
    assert text.startswith("A file or folder on this computer could not be used.\n")
    assert str(blocker) in text and not dialog.info.unexpected
    assert "Traceback" not in text and "[Errno" not in text  # the reason in words
    assert sorted(p.name for p in tmp_path.iterdir()) == ["not-a-folder"]
    dialog.close()
