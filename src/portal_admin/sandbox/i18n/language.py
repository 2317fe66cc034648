"""Accept-Language negotiation onto the five languages the sandbox speaks."""

from __future__ import annotations

LANGUAGES: tuple[str, ...] = ("en", "zh", "zh-Hant", "ja", "vi")
DEFAULT_LANGUAGE = "en"

_TRADITIONAL_REGIONS = frozenset({"tw", "hk", "mo"})


def _match(tag: str) -> str | None:
    """The supported language a single language tag means, or None."""
    parts = tag.replace("_", "-").lower().split("-")
    primary = parts[0]
    if primary == "zh":
        rest = set(parts[1:])
        if "hant" in rest:
            return "zh-Hant"
        if "hans" in rest:
            return "zh"
        return "zh-Hant" if rest & _TRADITIONAL_REGIONS else "zh"
    if primary in ("en", "ja", "vi"):
        return primary
    return None


def normalize_language(header: str | None) -> str:
    """Map an Accept-Language header (q-values, case and regions tolerated) to a language.

    The acceptable tag with the highest q-value wins; among equals, the first listed. Tags that
    name no supported language (and ``*``) are skipped; nothing acceptable gives ``en``.
    """
    if not header:
        return DEFAULT_LANGUAGE
    best: tuple[float, int, str] | None = None
    for index, part in enumerate(header.split(",")):
        pieces = [p.strip() for p in part.split(";")]
        tag, q = pieces[0], 1.0
        for param in pieces[1:]:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value.strip())
                except ValueError:
                    q = 0.0
        if not tag or q <= 0:
            continue
        lang = _match(tag)
        if lang is None:
            continue
        key = (-q, index, lang)
        if best is None or key < best:
            best = key
    return best[2] if best is not None else DEFAULT_LANGUAGE
