"""The labels a snapshot keeps for the codes it holds, for exports a person reads as well.

A snapshot keeps the server's constant lists (``constants``: list, code, value, label), in the
language it was taken in. An export carries each code and, beside it, its label: the server's
label from the snapshot where it has one that is usable, else the code in words
(``protocol.labels``), never an untranslated key. No Qt: the desktop program adds its own
translated labels on top (``ui.enum_labels``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from typing import Any

from portal_admin.protocol.labels import code_in_words, label_to_show

#: Labels by constant list, then by code.
Labels = Mapping[str, Mapping[str, str]]

#: The snapshot's constant list that labels a field of a kind of row (the diff's kinds).
LISTS: dict[tuple[str, str], str] = {
    ("account", "status"): "user_account_statuses",
    ("account", "portal"): "user_portal_types",
    ("invitation", "status"): "user_invitation_statuses",
    ("channel", "status"): "notification_channel_statuses",
    ("channel type", "status"): "notification_channel_type_statuses",
}
#: The columns a diff's export adds after its own, in order.
LABEL_HEADER = ("field_label", "before_label", "after_label")


def snapshot_labels(snapshot: Any) -> dict[str, dict[str, str]]:
    """The labels a snapshot keeps (empty when it keeps none or cannot be read)."""
    labels: dict[str, dict[str, str]] = {}
    try:
        conn = snapshot.connect()
    except (AttributeError, sqlite3.Error):
        return labels
    try:
        for row in conn.execute("SELECT list, code, label FROM constants"):
            name, code, label = (str(v) if v is not None else "" for v in tuple(row))
            if code and label:
                labels.setdefault(name, {})[code] = label
    except sqlite3.Error:
        return {}
    finally:
        conn.close()
    return labels


def served_label(labels: Labels, kind: str, field: str, code: str) -> str | None:
    """The server's label the snapshot keeps for ``code`` of ``field`` in a ``kind`` row
    (None: none kept, or not a coded field)."""
    name = LISTS.get((kind, field))
    if name is None or not code:
        return None
    return labels.get(name, {}).get(code)


def value_text(labels: Labels, kind: str, field: str, code: str) -> str:
    """A value as a person reads it, without the program's translations: the snapshot's
    label where usable, else the code in words; free text as it is."""
    if (kind, field) not in LISTS:
        return code
    return label_to_show(served_label(labels, kind, field, code), code)


def change_labels(change: Any, old: Labels, new: Labels) -> tuple[str, str, str]:
    """A diff change's field, before and after as a person reads them (before from the old
    snapshot's labels, after from the new one's)."""
    field = str(change.field or "")
    return (
        code_in_words(field) if field else "",
        value_text(old, change.kind, field, change.before),
        value_text(new, change.kind, field, change.after),
    )
