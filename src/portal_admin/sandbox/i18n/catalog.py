"""Localized texts: enum labels and descriptions, error messages and reference lists.

The texts live in compact JSON files under ``data/`` and are read lazily, the first time they
are needed, then cached. Missing translations fall back on English, then on a generated text.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from portal_admin.protocol.enums import EnumListing
from portal_admin.protocol.errors import CATALOGUE

from .language import DEFAULT_LANGUAGE, LANGUAGES

REFERENCE_LISTS: tuple[str, ...] = ("countries", "timezones", "us-states")


@cache
def _load(name: str) -> Any:
    """The parsed JSON data file ``name`` (cached; {} when the file is absent)."""
    path = resources.files("portal_admin.sandbox.i18n").joinpath("data", name)
    if not path.is_file():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def _pick(texts: Any, lang: str) -> str | None:
    """The text for ``lang`` from a {lang: text} mapping, falling back on English."""
    if not isinstance(texts, dict):
        return None
    text = texts.get(lang) or texts.get(DEFAULT_LANGUAGE)
    return text if isinstance(text, str) else None


def _lang(lang: str) -> str:
    return lang if lang in LANGUAGES else DEFAULT_LANGUAGE


def error_message(code: str, lang: str) -> str:
    """A human message for an error code, in ``lang``."""
    message = _pick(_load("errors.json").get(code), _lang(lang))
    if message is not None:
        return message
    spec = CATALOGUE.get(code)
    if spec is not None:
        return spec.meaning[:1].upper() + spec.meaning[1:] + "."
    return code


@cache
def enum_texts(type_name: str, code: str, lang: str) -> tuple[str, str]:
    """The label and description of one enum member, in ``lang``."""
    entry = _load("enums.json").get(type_name, {}).get(code, {})
    lang = _lang(lang)
    label = _pick(entry.get("label"), lang)
    description = _pick(entry.get("description"), lang)
    if label is None:
        label = code.replace("_", " ").title()
    if description is None:
        description = label
    return label, description


def enum_item(
    listing: EnumListing, code: str, lang: str, value: int | None = None
) -> dict[str, Any]:
    """The enum item ``{code, value, label, description}`` of section 2.2."""
    label, description = enum_texts(listing.type_name, code, lang)
    return {
        "code": code,
        "value": listing.value_of(code) if value is None else value,
        "label": label,
        "description": description,
    }


def reference_items(list_name: str, lang: str) -> list[dict[str, Any]]:
    """The items of a reference list (countries, timezones, us-states), in ``lang``.

    Raises KeyError for a list that is not a reference list.
    """
    if list_name not in REFERENCE_LISTS:
        raise KeyError(list_name)
    return [dict(item) for item in _localized_reference(list_name, _lang(lang))]


@cache
def _localized_reference(list_name: str, lang: str) -> tuple[dict[str, Any], ...]:
    data = _load(list_name.replace("-", "_") + ".json")
    items: list[dict[str, Any]] = []
    for row in data.get("items", []):
        item = {k: v for k, v in row.items() if k not in ("label", "description")}
        item["label"] = _pick(row.get("label"), lang) or row.get("code", "")
        item["description"] = _pick(row.get("description"), lang) or item["label"]
        items.append(item)
    return tuple(items)
