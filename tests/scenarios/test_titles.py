"""What the scenarios' pictures showed cut off, checked in every language without the walk:
the snapshot diff's column titles."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from portal_admin.ui.i18n.translators import LanguageManager
from portal_admin.ui.panels.evidence.diff_view import DiffView

from .driver import headers_cut


@pytest.mark.parametrize("language", ["en", "ja", "zh", "zh-Hant", "vi"])
def test_the_snapshot_diffs_titles_are_whole(qtbot: QtBot, language: str) -> None:
    languages = LanguageManager()
    languages.set_language(language)
    try:
        view = DiffView()
        qtbot.addWidget(view)
        view.resize(1000, 400)
        view.show()
        assert not headers_cut(view.table)
    finally:
        languages.set_language("en")
