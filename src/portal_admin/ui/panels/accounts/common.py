"""Helpers shared by the accounts, roles and portals panels: dates, enum labels, and the
clearer summaries of the errors they meet (the rest comes from ``ui/panels/base.py``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from PySide6.QtCore import QCoreApplication

from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP

from ...enum_labels import Kind, shown
from ...error_info import ErrorInfo, describe_error

ERRORS_CONTEXT = "AdminErrors"

#: Clearer summaries for the codes these panels meet (per-panel overrides win).
ERROR_TEXT: dict[str, str] = {
    "ACCESS.PERMISSION_DENIED": QT_TRANSLATE_NOOP(
        "AdminErrors",
        "The server refused: your role does not allow this action. Ask a workspace owner "
        "for the permission.",
    ),
    "RESOURCE.NOT_FOUND": QT_TRANSLATE_NOOP(
        "AdminErrors", "Not found: the item does not exist (any more), or the id is wrong."
    ),
    "VALIDATION.INVALID_PARAMETER": QT_TRANSLATE_NOOP(
        "AdminErrors", "The server did not accept the input. Check the fields and try again."
    ),
    "4000": QT_TRANSLATE_NOOP(
        "AdminErrors", "The server did not accept the input. Check the fields and try again."
    ),
    "4010": QT_TRANSLATE_NOOP(
        "AdminErrors", "Your sign-in is no longer valid (code 4010). Sign in again."
    ),
    "ACCESS.TOKEN_MISSING": QT_TRANSLATE_NOOP(
        "AdminErrors", "You are not signed in. Sign in again."
    ),
    "4040": QT_TRANSLATE_NOOP("AdminErrors", "Not found (code 4040)."),
}


def tr_error(text: str) -> str:
    """Translate a text of the AdminErrors context."""
    return QCoreApplication.translate(ERRORS_CONTEXT, text)


def explain(exc: BaseException, overrides: Mapping[str, str] | None = None) -> ErrorInfo:
    """``describe_error`` with a clearer summary for the codes these panels know."""
    info = describe_error(exc)
    code = info.code or ""
    text = (overrides or {}).get(code) or ERROR_TEXT.get(code)
    if text:
        info = dataclasses.replace(info, summary=tr_error(text))
    return info


def enum_text(item: object, kind: Kind = None) -> str:
    """An enum item's label: the server's, else the program's own for its code (``kind``: the
    enumeration, see ``ui.enum_labels``), else its code in words, never an untranslated key;
    empty for None."""
    return shown(item, kind)


def enum_code(item: object) -> str | None:
    """An enum item's code, or None."""
    code = getattr(item, "code", None)
    return str(code) if code else None
