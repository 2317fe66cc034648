"""The file dialogs every area asks for a file with: opened with ``open()`` (not modal, so no
nested event loop), calling back with the path chosen. Reading or writing the file is the
caller's (in a worker thread)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QWidget


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
