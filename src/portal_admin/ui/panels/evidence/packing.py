"""Writing evidence packs and other files from the evidence panels (in a worker thread)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QLocale

from portal_admin.evidence import keys, pack
from portal_admin.ui.enum_labels import field_kind, field_label, value_label
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP, fill
from portal_admin.ui.operation_titles import OUTCOMES, operation_title

from ...error_info import ErrorInfo
from ...file_work import FileWork, file_error, in_worker

#: Builds (kind, tables, summary) for a pack, in the worker thread.
PackSource = Callable[[], tuple[str, dict[str, pack.Table], dict[str, Any]]]


def _tr(text: str) -> str:
    return QCoreApplication.translate("EvidencePack", text)


#: The names a pack's report shows (its kind, summary keys, tables and columns) that the
#: program's field labels (``enum_labels.field_label``) do not already name.
REPORT_NAMES = {
    # kinds
    "snapshot": QT_TRANSLATE_NOOP("EvidenceReport", "Snapshot"),
    "diff": QT_TRANSLATE_NOOP("EvidenceReport", "Comparison of two snapshots"),
    "journal": QT_TRANSLATE_NOOP("EvidenceReport", "Journal"),
    # summary
    "records": QT_TRANSLATE_NOOP("EvidenceReport", "Records"),
    "since": QT_TRANSLATE_NOOP("EvidenceReport", "Since"),
    "until": QT_TRANSLATE_NOOP("EvidenceReport", "Until"),
    "filter": QT_TRANSLATE_NOOP("EvidenceReport", "Filter"),
    "journal head": QT_TRANSLATE_NOOP("EvidenceReport", "Journal head"),
    "journal intact": QT_TRANSLATE_NOOP("EvidenceReport", "Journal intact"),
    "checkpoints": QT_TRANSLATE_NOOP("EvidenceReport", "Signed checkpoints"),
    "snapshot of": QT_TRANSLATE_NOOP("EvidenceReport", "Snapshot of"),
    "profile": QT_TRANSLATE_NOOP("EvidenceReport", "Connection profile"),
    "taken by": QT_TRANSLATE_NOOP("EvidenceReport", "Taken by"),
    "started": QT_TRANSLATE_NOOP("EvidenceReport", "Started"),
    "finished": QT_TRANSLATE_NOOP("EvidenceReport", "Finished"),
    "program": QT_TRANSLATE_NOOP("EvidenceReport", "Program version"),
    "old snapshot": QT_TRANSLATE_NOOP("EvidenceReport", "Older snapshot"),
    "new snapshot": QT_TRANSLATE_NOOP("EvidenceReport", "Newer snapshot"),
    "signing key": QT_TRANSLATE_NOOP("EvidenceReport", "Signing key"),
    # tables
    "accounts": QT_TRANSLATE_NOOP("EvidenceReport", "Accounts"),
    "roles": QT_TRANSLATE_NOOP("EvidenceReport", "Roles"),
    "invitations": QT_TRANSLATE_NOOP("EvidenceReport", "Invitations"),
    "whitelist": QT_TRANSLATE_NOOP("EvidenceReport", "IP whitelist"),
    "mfa": QT_TRANSLATE_NOOP("EvidenceReport", "Multi-factor authentication"),
    "channel_types": QT_TRANSLATE_NOOP("EvidenceReport", "Channel types"),
    "channels": QT_TRANSLATE_NOOP("EvidenceReport", "Notification channels"),
    "constants": QT_TRANSLATE_NOOP("EvidenceReport", "Constants"),
    "changes": QT_TRANSLATE_NOOP("EvidenceReport", "Changes"),
    # columns
    "id": QT_TRANSLATE_NOOP("EvidenceReport", "Id"),
    "seq": QT_TRANSLATE_NOOP("EvidenceReport", "Number"),
    "segment": QT_TRANSLATE_NOOP("EvidenceReport", "Segment"),
    "kind": QT_TRANSLATE_NOOP("EvidenceReport", "Kind"),
    "time": QT_TRANSLATE_NOOP("EvidenceReport", "Time"),
    "server_time": QT_TRANSLATE_NOOP("EvidenceReport", "Server time"),
    "server": QT_TRANSLATE_NOOP("EvidenceReport", "Server"),
    "operation": QT_TRANSLATE_NOOP("EvidenceReport", "Operation"),
    "targets": QT_TRANSLATE_NOOP("EvidenceReport", "Targets"),
    "fields": QT_TRANSLATE_NOOP("EvidenceReport", "Fields"),
    "before": QT_TRANSLATE_NOOP("EvidenceReport", "Before"),
    "after": QT_TRANSLATE_NOOP("EvidenceReport", "After"),
    "outcome": QT_TRANSLATE_NOOP("EvidenceReport", "Outcome"),
    "request_id": QT_TRANSLATE_NOOP("EvidenceReport", "Request id"),
    "http_status": QT_TRANSLATE_NOOP("EvidenceReport", "HTTP status"),
    "intent_seq": QT_TRANSLATE_NOOP("EvidenceReport", "Intent number"),
    "hash": QT_TRANSLATE_NOOP("EvidenceReport", "Hash"),
    "prev": QT_TRANSLATE_NOOP("EvidenceReport", "Previous hash"),
    "key": QT_TRANSLATE_NOOP("EvidenceReport", "Key"),
    "public_key": QT_TRANSLATE_NOOP("EvidenceReport", "Public key"),
    "signature": QT_TRANSLATE_NOOP("EvidenceReport", "Signature"),
    "format": QT_TRANSLATE_NOOP("EvidenceReport", "Format"),
    "created": QT_TRANSLATE_NOOP("EvidenceReport", "Created"),
    "updated": QT_TRANSLATE_NOOP("EvidenceReport", "Updated"),
    "inviter": QT_TRANSLATE_NOOP("EvidenceReport", "Inviter"),
    "workspace": QT_TRANSLATE_NOOP("EvidenceReport", "Workspace"),
    "entry": QT_TRANSLATE_NOOP("EvidenceReport", "Entry"),
    "list": QT_TRANSLATE_NOOP("EvidenceReport", "List"),
    "value": QT_TRANSLATE_NOOP("EvidenceReport", "Value"),
    "label": QT_TRANSLATE_NOOP("EvidenceReport", "Label"),
    "change": QT_TRANSLATE_NOOP("EvidenceReport", "Change"),
    "field": QT_TRANSLATE_NOOP("EvidenceReport", "Field"),
    "field_label": QT_TRANSLATE_NOOP("EvidenceReport", "Field (label)"),
    "before_label": QT_TRANSLATE_NOOP("EvidenceReport", "Before (label)"),
    "after_label": QT_TRANSLATE_NOOP("EvidenceReport", "After (label)"),
}
#: The names the program's field labels already name (translated in ``enum_labels``).
FIELD_NAMES = (
    *("email", "name", "status", "portal", "institution", "language", "timezone", "country"),
    *("remark", "type", "description", "permissions", "member_count", "expires", "code"),
    *("enabled", "category", "active", "is_default", "is_primary", "verified", "method"),
    *("account", "reason"),
)
#: Columns of the snapshot tables whose codes the program labels, by the kind of row.
ROW_KINDS = {"accounts": "account", "invitations": "invitation", "roles": "role"}
ROW_KINDS.update({"channels": "channel", "channel_types": "channel type"})
#: The summary keys and columns whose values are not labelled (free text, hashes, times).
UNLABELLED = frozenset({"id", "email", "name", "hash", "prev", "request_id", "targets", "key"})


def _report_value(table: str, column: str, code: str) -> str | None:
    """A code's label in a pack's report (called in the worker thread: translate is
    thread-safe): an operation's title, a journal outcome, an enumeration's label."""

    if column in UNLABELLED:
        return None
    if column == "operation":
        return operation_title(code)
    if column == "outcome" and code in OUTCOMES:
        return QCoreApplication.translate("JournalPanel", OUTCOMES[code])
    row_kind = ROW_KINDS.get(table)
    if field_kind(column, row_kind) is None:
        return None
    return value_label(column, code, row_kind=row_kind)


def report_words() -> pack.ReportWords:
    """The pack report's words in the program's language (made on the GUI thread)."""
    names = {
        name: QCoreApplication.translate("EvidenceReport", t) for name, t in REPORT_NAMES.items()
    }
    names.update({name: field_label(name) for name in FIELD_NAMES})
    locale = QLocale()
    return pack.ReportWords(
        language=locale.bcp47Name() or "en",
        title=QCoreApplication.translate("EvidenceReport", "Evidence pack: %1"),
        rows=QCoreApplication.translate("EvidenceReport", "%1 rows"),
        first_shown=QCoreApplication.translate("EvidenceReport", "the first %1 shown, all in %2"),
        yes=QCoreApplication.translate("EvidenceReport", "yes"),
        no=QCoreApplication.translate("EvidenceReport", "no"),
        names=names,
        value=_report_value,
        number=locale.toString,
    )


def _write(
    path: Path, source: PackSource, store: keys.SecretStore | None, words: pack.ReportWords
) -> dict[str, Any]:
    kind, tables, summary = source()
    return pack.write_pack(path, kind, tables, summary, keys.signing_key(store), words)


async def write_pack(
    path: Path, source: PackSource, store: keys.SecretStore | None = None
) -> dict[str, Any]:
    """Build and sign a pack at ``path``, its report in the program's language; its manifest
    (raises ``keys.KeyUnavailable``)."""
    return await in_worker(_write, path, source, store, report_words())


def pack_work(
    path: Path,
    source: PackSource,
    store: keys.SecretStore | None,
    show: Callable[[ErrorInfo], object],
) -> FileWork[dict[str, Any]]:
    """Building and signing a pack at ``path`` as file work: its manifest, or its failure
    said through ``show``."""
    words = report_words()  # on the GUI thread: the translators are read here
    return FileWork(partial(_write, path, source, store, words), show, what="evidence pack")


def written(path: Path, manifest: dict[str, Any]) -> str:
    """What the panel says once a pack is written."""
    return fill(
        QCoreApplication.translate(
            "EvidencePack", "Evidence pack written to %1, signed by the key %2."
        ),
        str(path),
        str(manifest.get("fingerprint", "")),
    )


def failure(exc: BaseException) -> ErrorInfo:
    """A pack or file that could not be written, said plainly (:func:`file_error`)."""
    return file_error(exc)
