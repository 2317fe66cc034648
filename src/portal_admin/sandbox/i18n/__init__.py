"""Localization for the sandbox: languages, enum texts, error messages, reference lists.

Everything is read lazily from the JSON files in ``data/`` and cached; the files are written by
``tools/gen_reference_data.py`` (reference lists) and kept by hand (enum and error texts).
"""

from __future__ import annotations

from .catalog import REFERENCE_LISTS, enum_item, enum_texts, error_message, reference_items
from .language import DEFAULT_LANGUAGE, LANGUAGES, normalize_language

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "REFERENCE_LISTS",
    "enum_item",
    "enum_texts",
    "error_message",
    "normalize_language",
    "reference_items",
]
