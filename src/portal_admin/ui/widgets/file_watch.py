"""Noticing that files on disk changed: this program's other windows, or the command line beside
it, may append to the journal, run a job or take a snapshot while a panel shows them.

:class:`FileWatch` asks the system to be told (``QFileSystemWatcher``) and emits ``changed``
once a burst of changes has settled; :func:`stamp` is the cheap check for when a watch cannot
be relied on (network folders, a file replaced by renaming): what a list of paths looks like
now (sizes and modification times, a folder's entries too), to compare with what was read.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal

#: How long changes must pause before ``changed`` is emitted (ms).
SETTLE_MS = 250

Stamp = tuple[tuple[str, int, int], ...]


def _entry(path: Path) -> tuple[str, int, int]:
    try:
        info = os.stat(path)
    except OSError:
        return (str(path), -1, -1)
    return (str(path), info.st_mtime_ns, info.st_size)


def stamp(paths: Sequence[Path]) -> Stamp:
    """What ``paths`` look like now: each one's modification time and size, and for a folder
    those of each entry in it (a few stat calls; run it in a worker thread)."""
    found: list[tuple[str, int, int]] = []
    for path in paths:
        found.append(_entry(path))
        if path.is_dir():
            try:
                names = sorted(os.listdir(path))
            except OSError:
                continue
            found.extend(_entry(path / name) for name in names)
    return tuple(found)


class FileWatch(QObject):
    """Emits ``changed`` when one of the watched files or folders changes (settled).

    A path that does not exist yet is watched through the nearest folder above it that does,
    and watched itself once it appears; a file replaced by renaming is watched again.
    """

    changed = Signal()

    def __init__(
        self,
        paths: Callable[[], Sequence[Path]],
        parent: QObject | None = None,
        settle_ms: int = SETTLE_MS,
    ) -> None:
        super().__init__(parent)
        self._paths = paths
        self._watcher = QFileSystemWatcher(self)
        self._watcher.fileChanged.connect(self._touched)
        self._watcher.directoryChanged.connect(self._touched)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(settle_ms)
        self._timer.timeout.connect(self.changed)
        self.rewatch()

    def rewatch(self) -> None:
        """Watch the paths (or the folders that will hold them) as they are now."""
        wanted: set[str] = set()
        for path in self._paths():
            candidate = path
            while not candidate.exists() and candidate.parent != candidate:
                candidate = candidate.parent
            wanted.add(str(candidate))
            if candidate == path and path.is_file():
                wanted.add(str(path.parent))  # a file replaced by renaming is seen there
        watched = set(self._watcher.files()) | set(self._watcher.directories())
        stale = sorted(watched - wanted)
        if stale:
            self._watcher.removePaths(stale)
        new = sorted(wanted - watched)
        if new:
            self._watcher.addPaths(new)

    def _touched(self, _path: str) -> None:
        self.rewatch()
        self._timer.start()
