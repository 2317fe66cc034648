"""Operations by name, and their changes as sentences: what the journal and jobs show.

Every operation that changes something (``protocol.operations``, ``mutating``) has a
translated title ("Change account status"); a journal record's change reads as a sentence
("Suspended, reason: left", "Language: en → fr"), its values labelled as everywhere else
(``enum_labels.value_label``). The codes stay available to the caller (tooltips, exports).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import QCoreApplication

from portal_admin.protocol.labels import code_in_words

from .enum_labels import field_label, own_label, value_label
from .i18n.text import QT_TRANSLATE_NOOP, fill

#: A journal record's outcome, by its code (the Journal panel's words, its packs' too).
OUTCOMES = {
    "ok": QT_TRANSLATE_NOOP("JournalPanel", "Succeeded"),
    "failed": QT_TRANSLATE_NOOP("JournalPanel", "Refused"),
    "unknown": QT_TRANSLATE_NOOP("JournalPanel", "Unknown"),
}

CTX = "OperationTitles"

#: The title of every mutating operation, by id.
TITLES: dict[str, str] = {
    "auth.password_forgot": QT_TRANSLATE_NOOP("OperationTitles", "Ask for a password reset"),
    "auth.password_reset": QT_TRANSLATE_NOOP("OperationTitles", "Reset the password"),
    "auth.password_change": QT_TRANSLATE_NOOP("OperationTitles", "Change own password"),
    "auth.password_init": QT_TRANSLATE_NOOP("OperationTitles", "Set the first password"),
    "security.ip_whitelist_set": QT_TRANSLATE_NOOP("OperationTitles", "Set the IP whitelist"),
    "security.ip_whitelist_enable": QT_TRANSLATE_NOOP(
        "OperationTitles", "Enforce the IP whitelist"
    ),
    "security.ip_whitelist_disable": QT_TRANSLATE_NOOP(
        "OperationTitles", "Stop enforcing the IP whitelist"
    ),
    "security.backup_codes_generate": QT_TRANSLATE_NOOP("OperationTitles", "Generate backup codes"),
    "security.otp_revoke": QT_TRANSLATE_NOOP("OperationTitles", "Remove the authenticator app"),
    "accounts.password_reset": QT_TRANSLATE_NOOP("OperationTitles", "Mail a password reset link"),
    "accounts.status": QT_TRANSLATE_NOOP("OperationTitles", "Change account status"),
    "accounts.update": QT_TRANSLATE_NOOP("OperationTitles", "Edit an account"),
    "invitations.create": QT_TRANSLATE_NOOP("OperationTitles", "Invite someone"),
    "invitations.cancel": QT_TRANSLATE_NOOP("OperationTitles", "Cancel an invitation"),
    "notifications.channel_types_create": QT_TRANSLATE_NOOP(
        "OperationTitles", "Create a channel type"
    ),
    "notifications.channel_types_delete": QT_TRANSLATE_NOOP(
        "OperationTitles", "Delete a channel type"
    ),
    "notifications.channel_types_disable": QT_TRANSLATE_NOOP(
        "OperationTitles", "Disable a channel type"
    ),
    "notifications.channel_types_enable": QT_TRANSLATE_NOOP(
        "OperationTitles", "Enable a channel type"
    ),
    "notifications.channel_types_update": QT_TRANSLATE_NOOP(
        "OperationTitles", "Edit a channel type"
    ),
    "notifications.channels_activate": QT_TRANSLATE_NOOP("OperationTitles", "Activate a channel"),
    "notifications.channels_create": QT_TRANSLATE_NOOP("OperationTitles", "Create a channel"),
    "notifications.channels_deactivate": QT_TRANSLATE_NOOP(
        "OperationTitles", "Deactivate a channel"
    ),
    "notifications.channels_delete": QT_TRANSLATE_NOOP("OperationTitles", "Delete a channel"),
    "notifications.channels_update": QT_TRANSLATE_NOOP("OperationTitles", "Edit a channel"),
    "notifications.validate_imap": QT_TRANSLATE_NOOP(
        "OperationTitles", "Check the incoming mail settings"
    ),
    "notifications.validate_smtp": QT_TRANSLATE_NOOP(
        "OperationTitles", "Check the outgoing mail settings"
    ),
    "roles.delete": QT_TRANSLATE_NOOP("OperationTitles", "Delete a role"),
    "portals.create": QT_TRANSLATE_NOOP("OperationTitles", "Create a portal"),
}
#: The kind of row an operation's ``status`` belongs to, by the id's prefix.
_ROW_KINDS = (
    ("accounts.", "account"),
    ("invitations.", "invitation"),
    ("notifications.channel_types_", "channel type"),
    ("notifications.channels_", "channel"),
)


def _tr(text: str) -> str:
    return QCoreApplication.translate(CTX, text)


def operation_title(operation_id: object) -> str:
    """An operation's title, translated; one the program does not know, in words."""
    code = str(operation_id or "")
    title = TITLES.get(code)
    if title:
        return _tr(title)
    return code_in_words(code.rsplit(".", 1)[-1]) if code else ""


def _row_kind(operation_id: str) -> str | None:
    return next((kind for prefix, kind in _ROW_KINDS if operation_id.startswith(prefix)), None)


def change_sentence(record: Mapping[str, Any]) -> str:
    """A journal record's change as a sentence: an account action as its result with its
    reason ("Suspended, reason: left"), every other field as "Field: before → after" (or
    "Field: value" when the value before is not known)."""
    operation = str(record.get("operation") or "")
    row_kind = _row_kind(operation)
    fields = _mapping(record.get("fields"))
    before = dict(_mapping(record.get("before")))
    after = dict(_mapping(record.get("after")))
    none = QCoreApplication.translate("OperationTitles", "(none)")
    parts: list[str] = []
    action = fields.get("action")
    job, reverts = after.pop("job", None), after.pop("reverts", None)
    # A bulk job records the one value it changes as "value": named for what it is.
    named = "status" if action else next((k for k in fields if k not in ("action", "reason")), "")
    for values in (before, after):
        if "value" in values and named:
            values[named] = values.pop("value")
    if isinstance(action, str) and action:
        done = own_label("AccountAction", action) or code_in_words(action)
        if "status" in before:
            was = value_label("status", before["status"])
            done = fill(QCoreApplication.translate("OperationTitles", "%1 (was %2)"), done, was)
        parts.append(done)
    shown = {"action", "reason"} | ({"status"} if action else set())
    for name in dict.fromkeys([*after, *fields, *before]):
        if name in shown:
            continue
        label = field_label(str(name))
        new = value_label(str(name), after.get(name, fields.get(name)), row_kind=row_kind)
        if name in before:
            old = value_label(str(name), before[name], row_kind=row_kind)
            text = fill(
                QCoreApplication.translate("OperationTitles", "%1: %2 → %3"),
                label,
                old or none,
                new or none,
            )
        else:
            text = fill(QCoreApplication.translate("OperationTitles", "%1: %2"), label, new)
        parts.append(text)
    if job:
        parts.append(fill(QCoreApplication.translate("OperationTitles", "bulk job %1"), job))
    if isinstance(reverts, list) and reverts:
        seqs = ", ".join(str(n) for n in reverts)
        parts.append(fill(QCoreApplication.translate("OperationTitles", "reverts %1"), seqs))
    reason = fields.get("reason")
    if isinstance(reason, str) and reason.strip():
        template = (
            QCoreApplication.translate("OperationTitles", "reason: %1")
            if parts
            else QCoreApplication.translate("OperationTitles", "Reason: %1")
        )
        parts.append(fill(template, reason.strip()))
    return QCoreApplication.translate("OperationTitles", ", ").join(parts)


def _mapping(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}
