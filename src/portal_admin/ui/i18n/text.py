"""Small helpers for translated text."""

from __future__ import annotations


def fill(template: str, *args: object) -> str:
    """Replace Qt-style ``%1``..``%9`` placeholders in a translated ``template``."""
    for number in range(len(args), 0, -1):
        template = template.replace(f"%{number}", str(args[number - 1]))
    return template


def QT_TRANSLATE_NOOP(context: str, source: str) -> str:
    """Mark ``source`` for translation in ``context`` (typed: PySide6's returns object)."""
    del context
    return source
