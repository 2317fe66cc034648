"""The main window shell, idle lock, panel registry; languages and themes."""

from __future__ import annotations

import asyncio
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP as N
from PySide6.QtCore import QCoreApplication, QLocale, Qt
from PySide6.QtGui import QGuiApplication, QPalette
from PySide6.QtWidgets import QLabel, QWidget

from portal_admin.ui.i18n.translators import LanguageManager, accept_language, language_for_locale
from portal_admin.ui.mainwindow.status_bar import ChannelState, ConnectionState
from portal_admin.ui.mainwindow.window import MainWindow
from portal_admin.ui.operations import OperationRunner
from portal_admin.ui.panels.registry import PanelContext, PanelRegistry, PanelSpec
from portal_admin.ui.profiles.store import EnvironmentType, Profile
from portal_admin.ui.theme.tones import ThemeManager, ThemeMode
from support.qt import show_active

PROD = Profile("Prod", "https://portal.example.com", environment=EnvironmentType.PRODUCTION)


class Panel(QLabel):
    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.refreshed = 0
        self.tasks_closed = 0

    def refresh(self) -> None:
        self.refreshed += 1

    def close_tasks(self) -> None:
        self.tasks_closed += 1


def registry(built: list[str]) -> PanelRegistry:
    reg = PanelRegistry()

    def factory(name: str):  # type: ignore[no-untyped-def]
        def make(ctx: PanelContext) -> QWidget:
            built.append(name)
            assert ctx.profile is PROD
            return Panel(name)

        return make

    reg.register(
        PanelSpec("accounts", N("Panels", "Accounts"), factory("accounts"), "SP_DirIcon", 10)
    )
    reg.register(PanelSpec("roles", N("Panels", "Roles"), factory("roles"), None, 20))
    return reg


def make_window(qtbot, built: list[str] | None = None) -> MainWindow:  # type: ignore[no-untyped-def]
    window = MainWindow(PROD, OperationRunner(), registry(built if built is not None else []))
    qtbot.addWidget(window)
    show_active(qtbot, window)  # shortcuts need an active window
    return window


def test_shell(qtbot, shots: Path) -> None:
    built: list[str] = []
    window = make_window(qtbot, built)
    assert built == ["accounts"]  # built lazily, on selection
    assert window.banner.isVisible() and "PRODUCTION" in window.banner.text()
    window.set_account("Ann Admin", "ann@example.com")
    window.set_connection_state(ConnectionState.CONNECTED)
    window.set_channel_state(ChannelState.ESTABLISHED)
    window.runner.note_request_id("6c1d8a52-77aa-4f5e-9d3e-0d3c2b1a0f99")
    assert window.account_label.text() == "Ann Admin <ann@example.com>"
    assert window.request_id.text().startswith("6c1d8a52") and window.request_id.isReadOnly()
    window.grab().save(str(shots / "main-window.png"))
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    assert built == ["accounts", "roles"]
    panel = window.current_panel()
    assert isinstance(panel, Panel) and panel.text() == "roles"
    qtbot.keyClick(window, Qt.Key.Key_F5)
    assert panel.refreshed == 1
    qtbot.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    assert window.nav.currentRow() == 0 and built == ["accounts", "roles"]


def test_every_control_has_an_accessible_name(qtbot) -> None:
    window = make_window(qtbot)
    window.set_account("A", "a@b.c")
    unnamed = [
        f"{type(w).__name__}:{w.objectName()}"
        for w in window.findChildren(QWidget)
        if w.focusPolicy() != Qt.FocusPolicy.NoFocus
        and w.isVisibleTo(window)
        and not w.accessibleName()
        and type(w).__name__ not in {"QScrollBar", "QSplitterHandle", "QMenuBar", "QMenu"}
        and w.parent() is not None
        and type(w.parent()).__name__ not in {"QAbstractScrollArea"}
        and "qt_" not in w.objectName()
    ]
    assert unnamed == []


def test_lock_and_unlock_keep_state(loop, qtbot, shots: Path) -> None:
    window = make_window(qtbot)
    window.show_panel("roles")
    asked: list[bool] = []

    async def hook() -> bool:
        asked.append(True)
        return len(asked) > 1  # the first sign-in attempt fails

    window.unlock_hook = hook
    qtbot.keyClick(window, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    assert window.locked and window.lock_overlay.isVisible() and not window.body.isVisible()
    assert window.banner.isVisible()
    window.grab().save(str(shots / "locked.png"))
    assert loop.run_until_complete(window.try_unlock()) is False
    assert window.locked
    assert loop.run_until_complete(window.try_unlock()) is True
    assert not window.locked and window.body.isVisible()
    panel = window.current_panel()
    assert isinstance(panel, Panel) and panel.text() == "roles"


def test_idle_lock(loop, qtbot) -> None:
    window = make_window(qtbot)
    window.idle.set_interval_ms(50)

    async def scenario() -> None:
        for _ in range(5):  # input keeps it awake
            await asyncio.sleep(0.02)
            qtbot.mouseMove(window.nav, window.nav.rect().center())
            qtbot.keyClick(window.nav, Qt.Key.Key_Down)
        assert not window.locked
        await asyncio.sleep(0.15)
        assert window.locked

    loop.run_until_complete(scenario())
    window.idle.set_minutes(0)
    assert window.idle.interval_ms == 0


def test_closing_emits_closed(qtbot) -> None:
    window = make_window(qtbot)
    with qtbot.waitSignal(window.closed, timeout=1000):
        qtbot.keyClick(window, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)


def test_closing_and_logging_out_stop_the_panels_tasks(qtbot) -> None:
    window = make_window(qtbot)
    window.show_panel("roles")
    panels = [window._panels["accounts"], window._panels["roles"]]
    assert all(isinstance(p, Panel) and p.tasks_closed == 0 for p in panels)
    window.logout_action.trigger()  # the program then closes the window
    assert [p.tasks_closed for p in panels] == [1, 1]  # type: ignore[attr-defined]
    with qtbot.waitSignal(window.closed, timeout=1000):
        window.close()
    assert [p.tasks_closed for p in panels] == [2, 2]  # type: ignore[attr-defined]


def test_kiosk_refused_close_keeps_the_panels_tasks_the_idle_sign_out_stops_them(qtbot) -> None:
    from portal_admin.ui.kiosk.policy import KioskSettings

    window = MainWindow(PROD, OperationRunner(), registry([]), kiosk=KioskSettings())
    qtbot.addWidget(window)
    window.show()
    panel = window.current_panel()
    assert isinstance(panel, Panel)
    window.close()  # refused in kiosk mode
    assert window.isVisible() and panel.tasks_closed == 0
    window.idleSignOut.emit()
    assert panel.tasks_closed == 1
    window.allow_close()
    window.close()
    assert panel.tasks_closed == 2


def test_language_switch_retranslates(qtbot, tmp_path: Path) -> None:
    """A translator installed at run time reaches the window through LanguageChange."""
    from PySide6.QtCore import QTranslator

    window = make_window(qtbot)
    assert window.lock_action.text() == "&Lock"

    class Fake(QTranslator):
        def translate(self, context, source, disambiguation=None, n=-1):  # type: ignore[no-untyped-def]
            return f"[{source}]" if context in {"MainWindow", "Panels"} else ""

        def isEmpty(self) -> bool:
            return False

    fake = Fake()
    QCoreApplication.installTranslator(fake)
    try:
        qtbot.wait(20)  # LanguageChange is delivered through the event queue
        assert window.lock_action.text() == "[&Lock]"
        assert window.nav.item(0).text() == "[Accounts]"
    finally:
        QCoreApplication.removeTranslator(fake)
    qtbot.wait(20)
    assert window.lock_action.text() == "&Lock"


def test_language_manager(qapp, tmp_path: Path) -> None:
    manager = LanguageManager(i18n_dir=tmp_path)
    seen: list[str] = []
    manager.languageChanged.connect(seen.append)
    lang = manager.set_language("zh-Hant")
    assert lang.locale_name == "zh_TW" and manager.accept_language == "zh-Hant"
    assert QLocale().name() == "zh_TW"
    assert manager.qm_path(lang) == tmp_path / "portal_admin_zh_TW.qm"
    manager.set_language("ja")
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "キャンセル"  # qtbase
    manager.set_language("en")
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "Cancel"
    assert seen == ["zh-Hant", "ja", "en"]


def test_language_mapping() -> None:
    assert accept_language("zh_CN") == "zh"
    assert accept_language("zh_TW") == "zh-Hant"
    assert accept_language("zh_HK") == "zh-Hant"
    assert accept_language("vi") == "vi"
    assert accept_language("de_DE") == "en"
    assert language_for_locale(QLocale("ja_JP")).code == "ja"


def test_theme(qapp) -> None:
    theme = ThemeManager(qapp, ThemeMode.DARK)
    assert theme.is_dark
    assert qapp.palette().color(QPalette.ColorRole.Window).lightness() < 100
    theme.set_mode(ThemeMode.LIGHT)
    assert not theme.is_dark
    assert qapp.palette().color(QPalette.ColorRole.Window).lightness() > 150
    theme.set_mode(ThemeMode.SYSTEM)
    assert theme.is_dark == (QGuiApplication.styleHints().colorScheme() == Qt.ColorScheme.Dark)


def test_dark_screenshot(qapp, qtbot, shots: Path) -> None:
    theme = ThemeManager(qapp, ThemeMode.DARK)
    try:
        window = make_window(qtbot)
        window.set_account("Ann Admin", "ann@example.com")
        window.grab().save(str(shots / "main-window-dark.png"))
    finally:
        theme.set_mode(ThemeMode.LIGHT)


def test_a_panel_is_built_when_first_shown_not_with_the_window(qtbot) -> None:  # type: ignore[no-untyped-def]
    built: list[str] = []
    window = MainWindow(PROD, OperationRunner(), registry(built))
    qtbot.addWidget(window)
    assert built == []  # building the window builds no panel
    assert window.stack.currentWidget() is window.placeholder
    window.show()
    assert built == ["accounts"]  # the first, when the window is first shown
    assert window.current_panel() is window._panels["accounts"]
    window.show_panel("roles")
    window.show_panel("accounts")
    assert built == ["accounts", "roles"]  # each once


def test_the_first_panel_is_built_when_asked_for_before_the_window_shows(qtbot) -> None:  # type: ignore[no-untyped-def]
    built: list[str] = []
    window = MainWindow(PROD, OperationRunner(), registry(built))
    qtbot.addWidget(window)
    panel = window.current_panel()
    assert built == ["accounts"] and panel is window._panels["accounts"]
