"""A panel whose id changed keeps what was saved under its old id: the snapshot panel was
``reviews`` (titled Access reviews) before "review" came to mean a campaign; it is
``snapshots`` now."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QT_TRANSLATE_NOOP as N
from PySide6.QtWidgets import QLabel, QWidget

from portal_admin.files.saved_views import VIEWS_FILE, profile_scope
from portal_admin.ui.mainwindow import workspace
from portal_admin.ui.mainwindow.palette_entries import saved_view_entries
from portal_admin.ui.mainwindow.window import MainWindow
from portal_admin.ui.operations import OperationRunner
from portal_admin.ui.panels import register_all
from portal_admin.ui.panels.registry import (
    RENAMED_PANELS,
    PanelContext,
    PanelRegistry,
    PanelSpec,
    current_panel_id,
)
from portal_admin.ui.profiles.store import Profile

PROFILE = Profile("Work", "https://portal.example.com")
OLD_VIEW = {"filters": {"textFilter": "2026"}, "sort": None, "columns": None}


def saved_with_the_old_id(folder: Path) -> Path:
    """A saved-views file as the program wrote it when the panel's id was ``reviews``."""
    path = folder / VIEWS_FILE
    lists = {
        "reviews/snapshotsTable": {
            "views": {"This year": OLD_VIEW},
            "last": OLD_VIEW,
            "active": "This year",
        },
        "accounts/accountsList": {"views": {"Mine": {"filters": {}}}},
    }
    path.write_text(
        json.dumps({"version": 1, "scopes": {profile_scope(PROFILE.name): lists}}),
        encoding="utf-8",
    )
    return path


def test_the_program_knows_the_snapshot_panel_by_its_old_id() -> None:
    ids = {spec.id for spec in register_all(PanelRegistry())}
    assert "snapshots" in ids and "reviews" not in ids
    assert RENAMED_PANELS == {"reviews": "snapshots"}
    assert current_panel_id("reviews") == "snapshots"
    assert current_panel_id("campaigns") == "campaigns"  # the campaigns' own id is untouched
    assert all(new in ids and old not in ids for old, new in RENAMED_PANELS.items())


def test_views_saved_under_the_old_id_are_read_under_the_new(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = saved_with_the_old_id(tmp_path)
    monkeypatch.setattr(workspace, "config_dir", lambda: tmp_path)
    store = workspace.saved_views_store(PROFILE.name, kiosk=False, tour=False)

    assert store.names("snapshots/snapshotsTable") == ["This year"]
    assert store.view("snapshots/snapshotsTable", "This year") == OLD_VIEW
    assert store.last("snapshots/snapshotsTable") == (OLD_VIEW, "This year")
    assert sorted(store.all_views()) == [
        ("accounts/accountsList", "Mine"),
        ("snapshots/snapshotsTable", "This year"),
    ]
    # The next write keeps the list under the new id only, nothing lost.
    store.save("snapshots/snapshotsTable", "Last week", {"filters": {}})
    lists = json.loads(path.read_text(encoding="utf-8"))["scopes"][profile_scope(PROFILE.name)]
    assert "reviews/snapshotsTable" not in lists
    assert list(lists["snapshots/snapshotsTable"]["views"]) == ["This year", "Last week"]
    assert "accounts/accountsList" in lists


def test_a_list_saved_under_the_new_id_wins_over_the_old(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = saved_with_the_old_id(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    newer = {"views": {"Newer": {"filters": {}}}}
    data["scopes"][profile_scope(PROFILE.name)]["snapshots/snapshotsTable"] = newer
    path.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(workspace, "config_dir", lambda: tmp_path)
    store = workspace.saved_views_store(PROFILE.name, kiosk=False, tour=False)
    assert store.names("snapshots/snapshotsTable") == ["Newer"]


def test_the_window_and_its_palette_open_the_panel_by_its_old_id(
    qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    saved_with_the_old_id(tmp_path)
    monkeypatch.setattr(workspace, "config_dir", lambda: tmp_path)
    store = workspace.saved_views_store(PROFILE.name, kiosk=False, tour=False)
    built: list[str] = []

    def factory(name: str):  # type: ignore[no-untyped-def]
        def make(ctx: PanelContext) -> QWidget:
            built.append(name)
            return QLabel(name)

        return make

    registry = PanelRegistry()
    registry.register(PanelSpec("accounts", N("Panels", "Accounts"), factory("accounts"), None, 10))
    registry.register(PanelSpec("snapshots", N("Panels", "Snapshots"), factory("snapshots")))
    runner = OperationRunner()
    context = PanelContext(runner, PROFILE, extras={"saved_views": store})
    window = MainWindow(PROFILE, runner, registry, context=context)
    qtbot.addWidget(window)
    window.show()

    shown = window.show_panel("reviews")  # a caller (or a setting) with the old id
    assert shown is not None and shown is window.current_panel()
    assert built == ["accounts", "snapshots"]
    window.show_panel("accounts")

    entries = {e.title: e for e in saved_view_entries(window)}
    assert "View: This year" in entries
    assert entries["View: This year"].detail == "Snapshots"
    entries["View: This year"].run()
    assert window.current_panel() is shown
