"""One revert of a job, or of a journal record, at a time, across processes.

Two reverts of the same job planned at once would both find every target as the job left it,
and both set each one back. A revert therefore holds an OS lock (``filelock``, as the journal
and the trust file do; on Windows too) for each job and each record it reverts, from before
it is planned until its job file is closed (run, discarded or the program stops): a second
revert of any of them is refused, ``UNDER_WAY``, with nothing read or sent.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

import filelock

from .revert_journal import RevertError
from .store import FILE_MODE, jobs_dir


def _lock_path(folder: Path, name: str) -> Path:
    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:32]
    return folder / f".revert-{digest}.lock"


def hold(names: Iterable[str], folder: Path | None = None) -> list[filelock.BaseFileLock]:
    """Take the lock of each name (``job ID``, ``record SEQ``), in one order so that two
    reverts cannot each wait on the other; RevertError ``UNDER_WAY`` (none kept) when
    another revert holds one."""
    place = folder or jobs_dir()
    place.mkdir(mode=0o700, parents=True, exist_ok=True)
    taken: list[filelock.BaseFileLock] = []
    try:
        for name in sorted(set(names)):
            lock = filelock.FileLock(_lock_path(place, name), timeout=0, mode=FILE_MODE)
            try:
                lock.acquire()
            except filelock.Timeout:
                raise RevertError(
                    "UNDER_WAY",
                    f"a revert of {name} is being planned or run by another window or program:"
                    " wait for it to end (then nothing may be left to set back)",
                ) from None
            taken.append(lock)
    except BaseException:
        release(taken)
        raise
    return taken


def release(locks: Iterable[filelock.BaseFileLock]) -> None:
    """Let the locks go."""
    for lock in locks:
        lock.release()
