"""A server that sends account statuses' labels as untranslated keys
(``enum.UserAccountStatus.ACTIVE``, which the specification allows): the accounts list, its
status filter and the account's detail show the program's own label, in the interface's
language, never the key."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import qasync
from panel_support import ADMIN, run, sign_in_as
from pytestqt.qtbot import QtBot

from portal_admin.sandbox.i18n import catalog
from portal_admin.ui.i18n.translators import LanguageManager
from portal_admin.ui.panels.accounts.accounts_panel import AccountsPanel
from portal_admin.ui.panels.constants_cache import ConstantsCache

#: The program's own labels of account statuses, by interface language.
OWN = {
    "en": {"ACTIVE": "Active", "SUSPENDED": "Suspended", "PENDING_INIT": "Pending setup"},
    "ja": {"ACTIVE": "有効", "SUSPENDED": "一時停止", "PENDING_INIT": "初期設定待ち"},
}


@pytest.fixture
def keys_for_statuses(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sandbox answers account statuses with untranslated keys as labels."""
    real = catalog.enum_texts

    def texts(type_name: str, code: str, lang: str) -> tuple[str, str]:
        if type_name == "UserAccountStatus":
            return f"enum.{type_name}.{code}", f"enum.{type_name}.{code}.description"
        return real(type_name, code, lang)

    monkeypatch.setattr(catalog, "enum_texts", texts)


@pytest.fixture
def language() -> Iterator[LanguageManager]:
    languages = LanguageManager()
    try:
        yield languages
    finally:
        languages.set_language("en")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_untranslated_status_keys_show_the_programs_labels(
    loop: qasync.QEventLoop,
    qtbot: QtBot,
    sandbox_app: Any,
    panel_context: Any,
    keys_for_statuses: None,
    language: LanguageManager,
    lang: str,
) -> None:
    language.set_language(lang)
    client = run(loop, sign_in_as(sandbox_app, *ADMIN, language=lang))
    try:
        context = panel_context(client, constants=ConstantsCache(client, lang))
        panel = AccountsPanel(context)
        qtbot.addWidget(panel)
        panel.resize(1180, 660)
        panel.show()
        task = panel.controller.start()
        assert task is not None
        run(loop, task)
        model = panel.controller.model
        rows = model.rows
        assert rows and all(r.account_status.label.startswith("enum.") for r in rows)
        shown = {r.account_status.code: model.index(i, 2).data() for i, r in enumerate(rows)}
        assert not any("enum." in text for text in shown.values())
        expected = OWN[lang]
        assert {code: shown[code] for code in expected if code in shown} == {
            code: text for code, text in expected.items() if code in shown
        }
        assert shown["ACTIVE"] == expected["ACTIVE"]
        # the status filter's choices come from the constants list, as keys too
        choices = run(loop, context.extras["constants"].items("user-account-statuses"))
        assert choices and all(c.label.startswith("enum.") for c in choices)
        status = panel.filters.status
        texts = [status.itemText(i) for i in range(status.count())]
        assert f"{expected['ACTIVE']} (ACTIVE)" in texts
        assert f"{expected['PENDING_INIT']} (PENDING_INIT)" in texts
        assert not any("enum." in text for text in texts)
        panel.close_tasks()
    finally:
        run(loop, client.aclose())
