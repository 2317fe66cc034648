"""An id the client refused (CLIENT.INVALID_ID, #27) is said in words, in every language."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from PySide6.QtWidgets import QApplication

from portal_admin.client import InvalidIdError, PortalClient
from portal_admin.ui.error_info import describe_error
from portal_admin.ui.i18n.translators import LanguageManager


async def test_a_refused_id_gets_its_own_sentence() -> None:
    client = PortalClient("https://portal.example.com")
    try:
        with pytest.raises(InvalidIdError) as caught:
            await client.accounts.get("../../../sandbox/mailbox")
    finally:
        await client.aclose()
    info = describe_error(caught.value)
    assert "cannot be used" in info.summary and "Nothing was sent" in info.summary
    assert info.code == "CLIENT.INVALID_ID"
    assert not info.unexpected and info.request_id is None


def test_the_sentence_is_translated(qapp: QApplication) -> None:
    english = describe_error(InvalidIdError("x")).summary
    languages = LanguageManager()
    try:
        for code in ("zh", "zh-Hant", "ja", "vi"):
            languages.set_language(code)
            summary = describe_error(InvalidIdError("x")).summary
            assert summary and summary != english, code
            assert "ID" in summary, code
    finally:
        languages.set_language("en")


async def test_the_palette_finds_by_name_what_cannot_be_an_id() -> None:
    """Text typed in the palette that cannot be an id ("50%", "a/b") is looked up by name only:
    the refused id is no match, not an error."""
    from portal_admin.ui.mainwindow.command_palette import find_accounts

    client = PortalClient("https://portal.example.com")
    named: list[str] = []

    async def query(**kwargs: object) -> object:
        named.append(str(kwargs.get("name")))
        return SimpleNamespace(items=[SimpleNamespace(biz_id="ACC1")])

    client.accounts.query = query  # type: ignore[method-assign]
    try:
        for text in ("50%", "a/b", "../x"):
            assert [a.biz_id for a in await find_accounts(client, text)] == ["ACC1"]
    finally:
        await client.aclose()
    assert named == ["50%", "a/b", "../x"]
