"""The bridge to the localization package (:mod:`portal_admin.sandbox.i18n`)."""

from __future__ import annotations

from typing import Any

from portal_admin.protocol.enums import EnumListing

from . import i18n


def error_message(code: str, lang: str) -> str:
    """The localized message of an error code."""
    return i18n.error_message(code, lang)


def enum_item(
    listing: EnumListing, code: str, lang: str, value: int | None = None
) -> dict[str, Any]:
    """The enum item ``{code, value, label, description}``, localized."""
    return i18n.enum_item(listing, code, lang, value)


def language(header: str | None) -> str:
    """The language an Accept-Language header asks for (one of the five; default en)."""
    return i18n.normalize_language(header)
