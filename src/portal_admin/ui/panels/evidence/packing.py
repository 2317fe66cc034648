"""Writing evidence packs and other files from the evidence panels (in a worker thread)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QWidget

from portal_admin.evidence import keys, pack
from portal_admin.ui.i18n.text import fill

from ...error_info import ErrorInfo

#: Builds (kind, tables, summary) for a pack, in the worker thread.
PackSource = Callable[[], tuple[str, dict[str, pack.Table], dict[str, Any]]]


def _tr(text: str) -> str:
    return QCoreApplication.translate("EvidencePack", text)


def ask_save(parent: QWidget, name: str, suffix: str, chosen: Callable[[Path], object]) -> None:
    """A save dialog (not modal: no nested event loop) that calls ``chosen`` with the path."""
    dialog = QFileDialog(parent)
    dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    dialog.setDefaultSuffix(suffix)
    dialog.selectFile(name)
    dialog.fileSelected.connect(lambda path: chosen(Path(path)))
    dialog.open()


def ask_open(parent: QWidget, name_filter: str, chosen: Callable[[Path], object]) -> None:
    """An open dialog for an existing file (not modal) that calls ``chosen`` with the path."""
    dialog = QFileDialog(parent)
    dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
    dialog.setNameFilter(name_filter)
    dialog.fileSelected.connect(lambda path: chosen(Path(path)))
    dialog.open()


def _write(path: Path, source: PackSource, store: keys.SecretStore | None) -> dict[str, Any]:
    kind, tables, summary = source()
    return pack.write_pack(path, kind, tables, summary, keys.signing_key(store))


async def write_pack(
    path: Path, source: PackSource, store: keys.SecretStore | None = None
) -> dict[str, Any]:
    """Build and sign a pack at ``path``; its manifest (raises ``keys.KeyUnavailable``)."""
    return await asyncio.to_thread(_write, path, source, store)


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
    """A pack or file that could not be written, said plainly."""
    if isinstance(exc, keys.KeyUnavailable):
        return ErrorInfo(
            QCoreApplication.translate(
                "EvidencePack",
                "Nothing can be signed: this installation's signing key cannot be read.",
            ),
            QCoreApplication.translate(
                "EvidencePack",
                "The key is kept in the system keyring or, without one, in a key file only you"
                " can read. If that file has a passphrase, start the program with"
                " PORTAL_ADMIN_KEY_PASSPHRASE set. Help > About says where the key is.",
            ),
        )
    return ErrorInfo(
        QCoreApplication.translate("EvidencePack", "The file could not be written."),
        str(exc.strerror if isinstance(exc, OSError) and exc.strerror else exc),
    )
