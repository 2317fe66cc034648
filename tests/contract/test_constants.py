"""The public constant lists (spec 2.2, 3, 4.5)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from ._support import CONSTANT_LISTS, LANGUAGES, SYS, Api, is_enum_item, ok

pytestmark = pytest.mark.http

# Code = value pairs the specification states (section 3); either listing where it gives two.
STATED: dict[str, list[dict[str, set[int]]]] = {
    "user-invitation-statuses": [
        {"PENDING": {10050301}, "ACCEPTED": {10050302}, "EXPIRED": {10050304}}
    ],
    "user-institution-statuses": [{"PENDING": {10010401}, "REVIEWING": {10010402}}],
    "user-institution-types": [{"PLATFORM": {10010601}, "TENANT": {10010602}}],
    "user-workspace-statuses": [{"ACTIVE": {35010501}, "SUSPENDED": {35010502}}],
    "notification-channel-statuses": [{"ACTIVE": {80010201}, "INACTIVE": {80010202}}],
    "notification-channel-type-statuses": [{"ENABLED": {80010301}, "DISABLED": {80010302}}],
    "order-statuses": [{"PROCESSING": {30010101}, "AUDITING": {30010102}}],
    "transfer-statuses": [{"PENDING": {35010701}, "PROCESSING": {35010702}}],
    "user-account-statuses": [
        {
            "ACTIVE": {35010101},
            "SUSPENDED": {35010102},
            "PENDING_INIT": {35010103},
            "REJECTED": {35010104},
        },
        {"REGISTERED": {10010201}, "ACTIVE": {10010202}},
    ],
    "currency-config-statuses": [
        {"ENABLED": {55010101}, "DISABLED": {55010102}},
        {"ACTIVE": {34010101}, "INACTIVE": {34010102}},
    ],
    "user-portal-types": [
        {
            "SYSTEM": {10010101, 35010201},
            "TENANT": {35010202, 10010102},
            "PARTNER": {10010103},
            "CONSUMER": {10010104},
        }
    ],
}


_CACHE: dict[tuple[str, str, str], list[dict[str, Any]]] = {}


def _list(api: Api, name: str, language: str = "en") -> list[dict[str, Any]]:
    """One list in one language, fetched once per server (the lists are read-only)."""
    key = (api.base_url, name, language)
    if key not in _CACHE:
        data = ok(api.get(f"{SYS}/constants/{name}", headers={"Accept-Language": language}))
        assert isinstance(data, list), data
        _CACHE[key] = data
    return _CACHE[key]


@pytest.mark.parametrize("name", CONSTANT_LISTS)
def test_constant_list_answers_enum_items(api: Api, name: str) -> None:
    data = ok(api.get(f"{SYS}/constants/{name}"))
    assert isinstance(data, list), data
    items = _list(api, name)
    assert data == items
    if name != "user-join-sources":
        assert items, f"{name} is empty"
    codes = set()
    for item in items:
        is_enum_item(item)
        assert 10_000_000 <= item["value"] <= 99_999_999, f"value not 8 digits: {item}"
        codes.add(item["code"])
    assert len(codes) == len(items), f"duplicate codes in {name}"


@pytest.mark.parametrize("name", CONSTANT_LISTS)
def test_constant_list_needs_no_token(api: Api, name: str) -> None:
    resp = api.get(f"{SYS}/constants/{name}", headers={"Authorization": "Bearer not-a-token"})
    ok(resp)


@pytest.mark.parametrize("name", sorted(STATED))
def test_stated_members(api: Api, name: str) -> None:
    served = {item["code"]: item["value"] for item in _list(api, name)}
    matches = []
    for listing in STATED[name]:
        matches.append(all(served.get(code) in values for code, values in listing.items()))
    assert any(matches), f"{name} serves {served}; stated: {STATED[name]}"


def test_countries_extra_fields(api: Api) -> None:
    items = _list(api, "countries")
    for item in items:
        assert re.fullmatch(r"[A-Z]{2}", item["alpha2Code"]), item
        assert re.fullmatch(r"[A-Z]{3}", item["alpha3Code"]), item
        assert isinstance(item["numericCode"], int) and not isinstance(item["numericCode"], bool)
        assert isinstance(item["phoneCode"], str), item
    by_alpha2 = {item["alpha2Code"]: item for item in items}
    assert {"US", "CN", "JP"} <= set(by_alpha2)
    assert by_alpha2["US"]["alpha3Code"] == "USA"
    assert by_alpha2["US"]["numericCode"] == 840
    assert by_alpha2["JP"]["numericCode"] == 392


def test_timezones_extra_fields(api: Api) -> None:
    items = _list(api, "timezones")
    for item in items:
        assert isinstance(item["zoneIdCode"], str) and item["zoneIdCode"], item
        assert re.fullmatch(r"UTC([+-]\d{1,2}(:\d{2})?)?", item["utcOffset"]), item
    offsets = {item["utcOffset"] for item in items}
    assert "UTC+8" in offsets, "the form UTC+8 of the specification"


def test_us_states_extra_fields(api: Api) -> None:
    items = _list(api, "us-states")
    for item in items:
        assert re.fullmatch(r"US-[A-Z]{2}", item["isoCode"]), item
    codes = {item["isoCode"] for item in items}
    assert {"US-CA", "US-NY", "US-TX"} <= codes
    assert len(codes) >= 50


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", CONSTANT_LISTS)
def test_codes_and_values_do_not_depend_on_language(api: Api, name: str, language: str) -> None:
    english = [(i["code"], i["value"]) for i in _list(api, name, "en")]
    other = [(i["code"], i["value"]) for i in _list(api, name, language)]
    assert other == english


@pytest.mark.parametrize("language", ["zh", "zh-Hant", "ja", "vi"])
@pytest.mark.parametrize(
    "name", ["user-account-statuses", "user-invitation-statuses", "order-statuses"]
)
def test_labels_and_descriptions_are_localized(api: Api, name: str, language: str) -> None:
    english = {i["code"]: i for i in _list(api, name, "en")}
    other = {i["code"]: i for i in _list(api, name, language)}
    assert any(other[c]["label"] != english[c]["label"] for c in english), (name, language)
    described = [c for c in english if "description" in english[c]]
    if described:
        assert any(other[c].get("description") != english[c]["description"] for c in described), (
            name,
            language,
        )
