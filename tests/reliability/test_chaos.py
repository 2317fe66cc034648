"""Chaos: a seeded random walk of UI actions across every panel against a faulty sandbox.

The real program (every registered panel) signed in as the administrator on an in-process
sandbox with latency, 5xx answers, dropped connections, malformed envelopes and HTML gateway
pages. It passes only with no unhandled exception (``sys.excepthook``, the loop's exception
handler, ERROR log records), no Qt warning (pytest-qt), no event-loop stall over 100 ms (a
10 ms QTimer heartbeat), every shown failure carrying its code and request id, and no typed
input lost when a submit fails.

Quick form: ``PORTAL_ADMIN_CHAOS_ACTIONS`` actions (default 300);
``PORTAL_ADMIN_CHAOS_SEED`` picks the walk (default 20260101). Figures are printed and, with
``PORTAL_ADMIN_CHAOS_REPORT=path``, written as JSON (docs/security.md records a full run).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import sys
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

import pytest
import qasync
from PySide6.QtCore import QAbstractItemModel, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QDialog,
    QLineEdit,
    QMessageBox,
    QTableView,
    QTreeView,
    QWidget,
)
from pytestqt.qtbot import QtBot

from portal_admin.sandbox import SandboxConfig, create_app
from portal_admin.sandbox.faults import FaultConfig, FaultInjector
from portal_admin.ui.app import Application
from portal_admin.ui.error_info import ErrorInfo
from portal_admin.ui.panels.registry import wait_idle
from portal_admin.ui.signin.change_password import ChangePasswordDialog
from portal_admin.ui.startup.options import StartOptions
from portal_admin.ui.widgets.error_dialog import ErrorDialog
from support.program import make_program, sign_in_otp

ACTIONS = int(os.environ.get("PORTAL_ADMIN_CHAOS_ACTIONS", "300"))
SEED = int(os.environ.get("PORTAL_ADMIN_CHAOS_SEED", "20260101"))
REPORT = os.environ.get("PORTAL_ADMIN_CHAOS_REPORT")
#: The longest gap allowed between two heartbeats (``PORTAL_ADMIN_CHAOS_STALL_MS`` changes it
#: for a study; docs/security.md has the figures).
STALL_LIMIT_MS = float(os.environ.get("PORTAL_ADMIN_CHAOS_STALL_MS", "100"))
#: Program bugs found by this walk, each pinned by a strict xfail test in test_known_bugs.py;
#: they are counted (figures: known_bugs) instead of failing the walk until they are fixed.
KNOWN_BUGS: tuple[str, ...] = ()
FAULTS = FaultConfig(
    latency_ms=2,
    latency_jitter_ms=25,
    error_5xx_rate=0.05,
    drop_rate=0.03,
    malformed_rate=0.03,
    html_rate=0.03,
    seed=SEED,
)
#: Typed into filters and dialogs: prefixes that match, nothing, scripts, quotes, long text.
TEXTS = ("a", "adm", "zz", "", "ngu", "王", "é'\";--", "x" * 300, "admin@sandbox.test", " ")
#: Buttons the walk does not press: they end the session the walk runs in.
AVOID = ("logout", "log out", "lock", "quit", "revoke", "terminate", "end session", "sign out")


@dataclass
class Watch:
    """Everything the walk must not produce, and its figures."""

    errors: list[str] = field(default_factory=list)
    shown: list[ErrorInfo] = field(default_factory=list)
    gaps: list[float] = field(default_factory=list)
    actions: Counter[str] = field(default_factory=Counter)
    sandbox_errors: list[str] = field(default_factory=list)
    known: list[str] = field(default_factory=list)
    #: The action running now, and the stalls over the limit with the action they came in.
    doing: str = ""
    stalls: list[tuple[float, str]] = field(default_factory=list)
    last: float = 0.0

    def beat(self) -> None:
        now = time.perf_counter()
        if self.last:
            gap = (now - self.last) * 1000
            self.gaps.append(gap)
            if gap >= STALL_LIMIT_MS:
                self.stalls.append((round(gap, 1), self.doing))
        self.last = now

    @property
    def max_gap(self) -> float:
        return max(self.gaps, default=0.0)


class StallSampler:
    """A watchdog thread: while a heartbeat is late by more than 80 % of the limit, it takes
    the main thread's stack once, so a stall over the limit comes with where the time went."""

    def __init__(self, watch: Watch) -> None:
        self.watch = watch
        self.main = threading.main_thread().ident
        self.stacks: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="stall-sampler", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)

    def _run(self) -> None:
        sampled_for = 0.0
        while not self._stop.wait(0.01):
            last = self.watch.last
            late = (time.perf_counter() - last) * 1000 if last else 0.0
            if late > STALL_LIMIT_MS * 0.8 and last != sampled_for:
                sampled_for = last
                frame = sys._current_frames().get(self.main or 0)
                if frame is not None:
                    stack = "".join(traceback.format_stack(frame)[-12:])
                    self.stacks.append(f"{self.watch.doing} (late {late:.0f} ms):\n{stack}")


class ErrorLogs(logging.Handler):
    """Records ERROR log records (unexpected failures are logged at that level)."""

    def __init__(self, watch: Watch) -> None:
        super().__init__(logging.ERROR)
        self.watch = watch

    def emit(self, record: logging.LogRecord) -> None:
        text = f"log {record.name}: {record.getMessage()}"
        if record.name.startswith("portal_admin.sandbox"):
            # the server's own trouble (answered 500): the program must cope, so it is counted
            self.watch.sandbox_errors.append(text)
        else:
            self.watch.errors.append(text)


@pytest.fixture
def watch(loop: qasync.QEventLoop, monkeypatch: pytest.MonkeyPatch) -> Iterator[Watch]:
    found = Watch()

    def hook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        found.errors.append(f"excepthook: {kind.__name__}: {exc}")

    def loop_handler(_loop: Any, context: dict[str, Any]) -> None:
        where = context.get("future") or context.get("handle") or ""
        found.errors.append(
            f"asyncio: {context.get('message')}: {context.get('exception')!r} in {where!r}"[:1500]
        )

    monkeypatch.setattr(sys, "excepthook", hook)
    loop.set_exception_handler(loop_handler)
    handler = ErrorLogs(found)
    logging.getLogger().addHandler(handler)
    try:
        yield found
    finally:
        logging.getLogger().removeHandler(handler)


@pytest.fixture
def _no_files_outside_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """CSV exports typed as relative names land in tmp, not in the working tree."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))


@pytest.fixture
def faulty_app() -> Any:
    config = SandboxConfig(seed_accounts=80, test_clock=True, faults=FAULTS.specs())
    return create_app(config)


@pytest.fixture
def program(
    qapp: QApplication,
    loop: qasync.QEventLoop,
    qtbot: QtBot,
    tmp_path: Path,
    faulty_app: Any,
    _no_files_outside_tmp: None,
) -> Iterator[Application]:
    app = make_program(qapp, StartOptions(sandbox=True, lang="en"), faulty_app, tmp_path)
    app.start()
    yield app
    loop.run_until_complete(app.close())
    app.languages.set_language("en")


def _usable(widget: QWidget) -> bool:
    return widget.isVisible() and widget.isEnabled()


class Walk:
    """The random walk: one method per kind of action."""

    def __init__(self, app: Application, rng: random.Random, watch: Watch) -> None:
        assert app.workspace is not None
        self.app = app
        self.window = app.workspace.window
        self.rng = rng
        self.watch = watch
        self.panel_ids = [spec.id for spec in app.registry]

    def panel(self) -> QWidget | None:
        return self.window.current_panel()

    def views(self) -> list[QAbstractItemView]:
        panel = self.panel()
        if panel is None:
            return []
        return [
            v
            for v in panel.findChildren(QAbstractItemView)
            if _usable(v) and v.model() and v.window() is self.window
        ]

    def select_panel(self) -> None:
        panel_id = self.rng.choice(self.panel_ids)
        self.watch.doing = f"select_panel {panel_id}"
        self.window.show_panel(panel_id)

    def refresh(self) -> None:
        self.window.refresh_action.trigger()

    def scroll(self) -> None:
        for view in self.views():
            bar = view.verticalScrollBar()
            bar.setValue(self.rng.randint(0, max(bar.maximum(), 0)))

    def sort(self) -> None:
        views = [
            v
            for v in self.views()
            if isinstance(v, QTableView | QTreeView) and v.isSortingEnabled()
        ]
        if views:
            view = self.rng.choice(views)
            columns = view.model().columnCount()
            if columns:
                order = self.rng.choice((Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder))
                view.sortByColumn(self.rng.randrange(columns), order)

    def type_filter(self) -> None:
        panel = self.panel()
        if panel is None:
            return
        # The panel's own fields: not those of a dialog it opened (a file dialog is the panel's
        # child; Return in its name field with no such file opens a modal "not found" box).
        edits = [
            e
            for e in panel.findChildren(QLineEdit)
            if _usable(e) and not e.isReadOnly() and e.window() is self.window
        ]
        combos = [
            c
            for c in panel.findChildren(QComboBox)
            if _usable(c) and c.count() and c.window() is self.window
        ]
        if edits and (not combos or self.rng.random() < 0.7):
            edit = self.rng.choice(edits)
            edit.setText(self.rng.choice(TEXTS))
            edit.returnPressed.emit()
        elif combos:
            combo = self.rng.choice(combos)
            combo.setCurrentIndex(self.rng.randrange(combo.count()))

    def open_detail(self) -> None:
        views = self.views()
        if not views:
            return
        view = self.rng.choice(views)
        model: QAbstractItemModel = view.model()
        rows = model.rowCount()
        if rows:
            index = model.index(self.rng.randrange(rows), 0)
            view.setCurrentIndex(index)
            view.activated.emit(index)
            if self.rng.random() < 0.5:
                view.doubleClicked.emit(index)

    def press_button(self) -> None:
        """Open a dialog (or run an action) from a button of the panel; dialogs get cancelled."""
        panel = self.panel()
        if panel is None:
            return
        buttons = [
            b
            for b in panel.findChildren(QAbstractButton)
            if _usable(b)
            and b.window() is self.window  # dialogs are tidied by tidy_dialogs
            and not b.isCheckable()
            and not any(word in (b.text() + b.objectName()).lower() for word in AVOID)
        ]
        if buttons:
            button = self.rng.choice(buttons)
            self.watch.doing = f"press_button {button.objectName() or button.text()!r}"
            button.click()

    def switch_language(self) -> None:
        codes = list(self.window.language_actions)
        self.window.language_actions[self.rng.choice(codes)].trigger()

    def tidy_dialogs(self) -> None:
        """Type into open dialogs, then cancel them; close error windows (after checking)."""
        for widget in QApplication.topLevelWidgets() + self.window.findChildren(QDialog):
            if not isinstance(widget, QDialog) or not widget.isVisible():
                continue
            if isinstance(widget, ErrorDialog):
                widget.close()
                continue
            for edit in widget.findChildren(QLineEdit):
                if _usable(edit) and not edit.isReadOnly() and self.rng.random() < 0.5:
                    edit.setText(self.rng.choice(TEXTS))
            if isinstance(widget, QMessageBox):
                widget.reject()
            else:
                widget.reject()

    def choose(self) -> Callable[[], None]:
        actions: list[tuple[Callable[[], None], int]] = [
            (self.select_panel, 14),
            (self.refresh, 10),
            (self.scroll, 12),
            (self.sort, 10),
            (self.type_filter, 14),
            (self.open_detail, 12),
            (self.press_button, 12),
            (self.tidy_dialogs, 10),
            (self.switch_language, 2),
        ]
        return self.rng.choices([a for a, _ in actions], weights=[w for _, w in actions])[0]


async def typed_input_survives_a_failed_submit(app: Application, faults: FaultInjector) -> None:
    """The change-password dialog keeps what was typed when the server fails."""
    assert app.workspace is not None
    dialog = app.workspace.open_change_password()
    assert isinstance(dialog, ChangePasswordDialog)
    typed = ("Sandbox-Admin-2026!", "Chaos-New-Password-1!", "Chaos-New-Password-1!")
    for edit, text in zip((dialog.current, dialog.new, dialog.repeat), typed, strict=True):
        edit.setText(text)
    saved = faults.config
    faults.update(
        error_5xx_rate=0.0, drop_rate=1.0, malformed_rate=0.0, html_rate=0.0, latency_ms=0
    )
    try:
        assert not await dialog.submit()
    finally:
        faults.configure(saved)
    assert (dialog.current.text(), dialog.new.text(), dialog.repeat.text()) == typed
    info = dialog.error.info if hasattr(dialog, "error") else None
    assert info is not None and info.code and info.request_id, info
    dialog.reject()


# Known bug (test_known_bugs.py): F5 on "my-invitations" drops a coroutine.
@pytest.mark.filterwarnings(
    "ignore:coroutine 'OwnInvitationsWidget.refresh' was never awaited:RuntimeWarning"
)
@pytest.mark.filterwarnings(
    "ignore:Exception ignored in. <coroutine object OwnInvitationsWidget.refresh"
    ":pytest.PytestUnraisableExceptionWarning"
)
def test_random_walk_across_every_panel(
    program: Application, loop: qasync.QEventLoop, faulty_app: Any, watch: Watch
) -> None:
    faults: FaultInjector = faulty_app.state.faults
    faults.enabled = False
    loop.run_until_complete(asyncio.wait_for(sign_in_otp(program), 60))
    assert program.workspace is not None
    program.runner.failed.connect(watch.shown.append)
    rng = random.Random(SEED)
    walk = Walk(program, rng, watch)
    assert len(walk.panel_ids) >= 5, walk.panel_ids

    async def warm_up() -> None:
        """Build every panel once (imports and first layout are not what is measured)."""
        for panel_id in walk.panel_ids:
            walk.window.show_panel(panel_id)
            await asyncio.sleep(0.05)
        await wait_idle(program.runner, 30)

    loop.run_until_complete(warm_up())
    faults.enabled = True
    sampler = StallSampler(watch)
    heartbeat = QTimer()
    heartbeat.setInterval(10)
    heartbeat.timeout.connect(watch.beat)

    async def run_walk() -> None:
        heartbeat.start()
        sampler.start()
        started = time.perf_counter()
        for number in range(ACTIONS):
            action = walk.choose()
            watch.actions[action.__name__] += 1
            watch.doing = action.__name__
            try:
                action()
            except Exception as exc:  # the walk's own step failing is a program failure too
                watch.errors.append(f"action {action.__name__} #{number}: {exc!r}")
            await asyncio.sleep(rng.uniform(0.002, 0.03))
            watch.doing = "(between actions)"
        heartbeat.stop()
        sampler.stop()
        watch.actions["_seconds"] = round(time.perf_counter() - started)
        faults.enabled = False
        await wait_idle(program.runner, 60)
        walk.tidy_dialogs()
        faults.enabled = True
        await typed_input_survives_a_failed_submit(program, faults)
        faults.enabled = False

    loop.run_until_complete(asyncio.wait_for(run_walk(), 600))
    figures = {
        "seed": SEED,
        "actions": ACTIONS,
        "panels": len(walk.panel_ids),
        "kinds": dict(watch.actions),
        "faults": dict(faults.counts),
        "failures_shown": len(watch.shown),
        "stalls_over_limit": watch.stalls,
        "stall_stacks": sampler.stacks[:5],
        "sandbox_errors": watch.sandbox_errors[:5],
        "known_bugs": sorted({b for e in watch.errors for b in KNOWN_BUGS if b in e}),
        "max_stall_ms": round(watch.max_gap, 1),
        "p99_gap_ms": round(sorted(watch.gaps)[int(len(watch.gaps) * 0.99)], 1)
        if watch.gaps
        else 0.0,
    }
    print("chaos figures:", json.dumps(figures))
    if REPORT:
        Path(REPORT).write_text(json.dumps(figures, indent=2), encoding="utf-8")
    known = [e for e in watch.errors if any(bug in e for bug in KNOWN_BUGS)]
    errors = [e for e in watch.errors if e not in known]
    assert not errors, "\n".join(errors[:20])
    unexpected = [i for i in watch.shown if i.unexpected]
    assert not unexpected, [i.message for i in unexpected]
    without_ids = [i for i in watch.shown if not (i.code and i.request_id)]
    assert not without_ids, [(i.summary, i.code, i.http_status) for i in without_ids]
    assert sum(faults.counts[k] for k in ("5xx", "drop", "malformed", "html")) > 0
    assert watch.max_gap < STALL_LIMIT_MS, figures
