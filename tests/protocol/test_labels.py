"""The label rule: the server's label unless missing or an untranslated key
(``enum.<Type>.<NAME>``), else the program's own label, else the code in words."""

from __future__ import annotations

import pytest

from portal_admin.protocol.labels import (
    code_in_words,
    is_untranslated_key,
    item_label,
    label_to_show,
)
from portal_admin.protocol.records import EnumItem


@pytest.mark.parametrize(
    "text",
    [
        "enum.AccountStatus.ACTIVE",
        "enum.UserAccountStatus.PENDING_INIT",
        " enum.UserPortalType.TENANT\n",
        "enum.a.b.C",
    ],
)
def test_untranslated_keys(text: str) -> None:
    assert is_untranslated_key(text)


@pytest.mark.parametrize(
    "text",
    [
        "Active",
        "正常",
        "enum",
        "enum.",
        "enum.AccountStatus",
        "enum.AccountStatus.",
        "enum..ACTIVE",
        "enum.Account Status.ACTIVE",
        "Enumerated: enum.AccountStatus.ACTIVE",
        "enum.AccountStatus.ACTIVE and more",
        "",
        None,
        42,
        "enum." + "A." * 200 + "B",
    ],
)
def test_not_untranslated_keys(text: object) -> None:
    assert not is_untranslated_key(text)


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("PENDING_INIT", "Pending init"),
        ("ACTIVE", "Active"),
        ("NOT_A__CODE_", "Not a code"),
        ("in-review", "In review"),
        ("OTP", "OTP"),
        ("VN", "VN"),
        ("", ""),
        ("  ", ""),
    ],
)
def test_code_in_words(code: str, words: str) -> None:
    assert code_in_words(code) == words


def test_the_servers_label_wins_when_it_is_usable() -> None:
    assert label_to_show("Đang hoạt động", "ACTIVE", "Active") == "Đang hoạt động"


def test_an_untranslated_key_gives_way_to_the_programs_label_then_the_code() -> None:
    key = "enum.AccountStatus.ACTIVE"
    assert label_to_show(key, "ACTIVE", "有効") == "有効"
    assert label_to_show(key, "ACTIVE") == "Active"
    assert label_to_show(key, None) == "Active"  # no code: the key's own last part
    assert label_to_show("enum.UserAccountStatus.PENDING_INIT", "") == "Pending init"
    for missing in (None, "", "   "):
        assert label_to_show(missing, "PENDING_INIT", None) == "Pending init"
        assert label_to_show(missing, "PENDING_INIT", "Pending setup") == "Pending setup"
    assert label_to_show(None, None) == ""


def test_items_and_the_own_lookup() -> None:
    asked: list[str] = []

    def own(code: str) -> str | None:
        asked.append(code)
        return {"ACTIVE": "Active (own)"}.get(code)

    assert item_label(EnumItem(code="ACTIVE", label="Aktiv"), own) == "Aktiv"
    assert asked == []  # not looked up when the server's label is usable
    assert item_label(EnumItem(code="ACTIVE", label="enum.AccountStatus.ACTIVE"), own) == (
        "Active (own)"
    )
    assert item_label(EnumItem(code="SUSPENDED", label="enum.X.SUSPENDED"), own) == "Suspended"
    assert item_label(EnumItem(code="SUSPENDED"), None) == "Suspended"
    assert item_label(None) == ""
    assert item_label("enum.AccountStatus.PENDING_INIT") == "Pending init"  # a bare value
    assert item_label("Plain text") == "Plain text"


def test_an_enum_items_text_is_never_the_key() -> None:
    assert str(EnumItem(code="ACTIVE", label="enum.AccountStatus.ACTIVE")) == "ACTIVE"
    assert str(EnumItem(code="ACTIVE", label="Active")) == "Active"
    assert str(EnumItem(code="ACTIVE")) == "ACTIVE"
