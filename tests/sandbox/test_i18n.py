"""The sandbox's localization: language negotiation, enum texts, errors, reference lists."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from importlib import resources

import pytest

from portal_admin.protocol import enums
from portal_admin.protocol.errors import CATALOGUE
from portal_admin.sandbox.i18n import (
    LANGUAGES,
    enum_item,
    error_message,
    normalize_language,
    reference_items,
)


def _data(name: str) -> dict:  # type: ignore[type-arg]
    text = resources.files("portal_admin.sandbox.i18n").joinpath("data", name).read_text("utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (None, "en"),
        ("", "en"),
        ("en", "en"),
        ("EN-us", "en"),
        ("zh", "zh"),
        ("zh-CN", "zh"),
        ("zh-Hans", "zh"),
        ("zh_hans_CN", "zh"),
        ("zh-SG", "zh"),
        ("zh-Hant", "zh-Hant"),
        ("ZH-HANT", "zh-Hant"),
        ("zh-TW", "zh-Hant"),
        ("zh-HK", "zh-Hant"),
        ("zh-MO", "zh-Hant"),
        ("zh-Hant-HK", "zh-Hant"),
        ("ja-JP", "ja"),
        ("vi", "vi"),
        ("fr-FR", "en"),
        ("*", "en"),
        ("fr;q=1, ja;q=0.5", "ja"),
        ("en;q=0.4, vi;q=0.9", "vi"),
        ("ja;q=0, vi", "vi"),
        ("ja;q=abc, zh-TW", "zh-Hant"),
        ("de, zh-TW;q=0.8, ja;q=0.8", "zh-Hant"),
        (" ja ; q=0.7 ,  zh ", "zh"),
        (";;,,", "en"),
        ("x" * 5000, "en"),
    ],
)
def test_normalize_language(header: str | None, expected: str) -> None:
    assert normalize_language(header) == expected


ALL_MEMBERS = [
    (listing, code)
    for listing in enums.ALL_LISTINGS
    for code in dict.fromkeys(i.code for i in (*listing.items, *listing.alternate))
]


@pytest.mark.parametrize(
    ("listing", "code"), ALL_MEMBERS, ids=[f"{lst.type_name}.{c}" for lst, c in ALL_MEMBERS]
)
def test_every_enum_member_is_translated(listing: enums.EnumListing, code: str) -> None:
    entry = _data("enums.json")[listing.type_name][code]
    for field in ("label", "description"):
        assert set(entry[field]) == set(LANGUAGES)
        assert all(text.strip() for text in entry[field].values())
    # Real translations, not the untranslated key form the spec tolerates.
    for lang in LANGUAGES:
        item = enum_item(listing, code, lang)
        assert not item["label"].startswith("enum.")
        assert item["label"] == entry["label"][lang]
        assert item["description"] == entry["description"][lang]
    assert (
        enum_item(listing, code, "zh")["description"]
        != enum_item(listing, code, "en")["description"]
    )


def test_enum_item_shape_and_value() -> None:
    item = enum_item(enums.INVITATION_STATUS, "PENDING", "ja")
    assert item == {
        "code": "PENDING",
        "value": 10050301,
        "label": "保留中",
        "description": "招待は回答を待っています。",
    }
    # value defaults to the served listing; an explicit value wins.
    assert enum_item(enums.PORTAL_TYPE, "SYSTEM", "en")["value"] == 35010201
    assert enum_item(enums.PORTAL_TYPE, "SYSTEM", "en", 10010101)["value"] == 10010101
    # an unknown language falls back on English
    assert enum_item(enums.MFA_METHOD, "OTP", "xx")["label"] == "Authenticator app"


def test_enum_item_unknown_code_raises() -> None:
    with pytest.raises(KeyError):
        enum_item(enums.ROLE_TYPE, "NOPE", "en")


@pytest.mark.parametrize("code", sorted(CATALOGUE))
def test_every_error_code_has_five_messages(code: str) -> None:
    messages = {lang: error_message(code, lang) for lang in LANGUAGES}
    assert all(m.strip() for m in messages.values())
    assert len(set(messages.values())) == len(LANGUAGES)  # five distinct texts


def test_error_message_fallbacks() -> None:
    assert error_message("ACCESS.PERMISSION_DENIED", "xx") == error_message(
        "ACCESS.PERMISSION_DENIED", "en"
    )
    assert error_message("NOT.A.CODE", "en") == "NOT.A.CODE"


def test_countries() -> None:
    items = reference_items("countries", "en")
    assert len(items) == 249
    codes = [i["alpha2Code"] for i in items]
    assert len(set(codes)) == len(codes)
    values = [i["value"] for i in items]
    assert len(set(values)) == len(values)
    for item in items:
        assert set(item) == {
            "code",
            "value",
            "label",
            "description",
            "alpha2Code",
            "alpha3Code",
            "numericCode",
            "phoneCode",
        }
        assert re.fullmatch(r"[A-Z]{2}", item["alpha2Code"])
        assert re.fullmatch(r"[A-Z]{3}", item["alpha3Code"])
        assert isinstance(item["numericCode"], int)
        assert item["value"] == 90010000 + item["numericCode"]
        assert re.fullmatch(r"(\+\d{1,4})?", item["phoneCode"])
    china = next(i for i in items if i["code"] == "CN")
    assert china["alpha3Code"] == "CHN"
    assert china["numericCode"] == 156
    assert china["phoneCode"] == "+86"
    assert china["label"] == "China"
    names = {
        lang: next(i for i in reference_items("countries", lang) if i["code"] == "DE")
        for lang in LANGUAGES
    }
    assert {lang: n["label"] for lang, n in names.items()} == {
        "en": "Germany",
        "zh": "德国",
        "zh-Hant": "德國",
        "ja": "ドイツ",
        "vi": "Đức",
    }


def test_timezones() -> None:
    items = reference_items("timezones", "en")
    assert len(items) > 300
    zones = {i["zoneIdCode"]: i for i in items}
    assert len(zones) == len(items)
    for item in items:
        assert re.fullmatch(r"UTC[+-]\d{1,2}(:\d{2})?", item["utcOffset"]), item
        assert re.fullmatch(r"9002\d{4}", str(item["value"]))
        assert item["label"].startswith("(UTC")
    assert zones["Asia/Shanghai"]["utcOffset"] == "UTC+8"
    assert zones["Asia/Shanghai"]["label"] == "(UTC+08:00) Shanghai"
    assert zones["Asia/Kolkata"]["utcOffset"] == "UTC+5:30"
    assert zones["America/Sao_Paulo"]["utcOffset"] == "UTC-3"
    assert zones["America/New_York"]["utcOffset"] == "UTC-5"  # standard time, not summer time
    assert zones["UTC"]["utcOffset"] == "UTC+0"
    zh = {i["zoneIdCode"]: i for i in reference_items("timezones", "zh")}
    assert zh["Asia/Shanghai"]["label"] == "(UTC+08:00) 上海"
    # sorted by offset, west to east
    assert items[0]["label"].startswith("(UTC-11:00)")
    assert items[-1]["label"].startswith("(UTC+14:00)")


def test_us_states() -> None:
    items = reference_items("us-states", "en")
    by_iso = {i["isoCode"]: i for i in items}
    assert len(items) >= 51
    assert by_iso["US-CA"]["label"] == "California"
    assert by_iso["US-CA"]["value"] == 90030052
    assert by_iso["US-DC"]["code"] == "DC"
    for item in items:
        assert re.fullmatch(r"US-[A-Z]{2}", item["isoCode"])
        assert item["code"] == item["isoCode"][3:]
    values = [i["value"] for i in items]
    assert len(set(values)) == len(values)
    labels = {
        lang: {i["isoCode"]: i["label"] for i in reference_items("us-states", lang)}["US-CA"]
        for lang in LANGUAGES
    }
    assert labels == {
        "en": "California",
        "zh": "加利福尼亚州",
        "zh-Hant": "加利福尼亞州",
        "ja": "カリフォルニア州",
        "vi": "California",
    }


def test_reference_items_are_copies_and_unknown_list_raises() -> None:
    first = reference_items("countries", "en")
    first[0]["label"] = "changed"
    assert reference_items("countries", "en")[0]["label"] != "changed"
    with pytest.raises(KeyError):
        reference_items("planets", "en")


@pytest.mark.parametrize("name", ["countries", "timezones", "us-states"])
def test_every_reference_label_is_in_five_languages(name: str) -> None:
    for row in _data(name.replace("-", "_") + ".json")["items"]:
        assert set(row["label"]) == set(LANGUAGES)
        assert all(text.strip() for text in row["label"].values())


def test_data_is_loaded_lazily_and_without_dev_libraries() -> None:
    script = (
        "import sys\n"
        "from portal_admin.sandbox.i18n import catalog, reference_items\n"
        "assert catalog._load.cache_info().currsize == 0, 'read at import'\n"
        "reference_items('timezones', 'ja')\n"
        "assert catalog._load.cache_info().currsize == 1\n"
        "reference_items('timezones', 'vi')\n"
        "assert catalog._load.cache_info().misses == 1, 'read twice'\n"
        "bad = {'babel', 'pycountry', 'phonenumbers'} & set(sys.modules)\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)
