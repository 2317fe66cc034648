"""Test-wide set-up: offscreen Qt, and user folders redirected to a temporary place.

Set before anything imports Qt or platformdirs, so that no test reads or writes the real
user's configuration, data, cache or logs: ``PORTAL_ADMIN_HOME`` for the program's own folders
(honoured on every system; on Windows platformdirs ignores the XDG variables), the XDG
variables for the libraries that follow them.

``tests/`` has no ``__init__.py``: pytest puts it on ``sys.path`` when it loads this file, so
every suite can ``import support`` (``tests/support/``, the helpers several suites share).
"""

from __future__ import annotations

import os
import sys
import tempfile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
_HOME = tempfile.mkdtemp(prefix="portal-admin-tests-")
for _var, _sub in (
    ("XDG_CONFIG_HOME", "config"),
    ("XDG_DATA_HOME", "data"),
    ("XDG_CACHE_HOME", "cache"),
    ("XDG_STATE_HOME", "state"),
):
    os.environ[_var] = os.path.join(_HOME, _sub)
# On Windows platformdirs reads no XDG variable: the program's own override isolates there.
# Not elsewhere: it wins over the XDG variables, which many tests set for a folder of their own.
if sys.platform == "win32":
    os.environ["PORTAL_ADMIN_HOME"] = os.path.join(_HOME, "portal-admin")

import errno  # noqa: E402
import stat  # noqa: E402
from collections.abc import Iterator  # noqa: E402

import pytest  # noqa: E402

from support import operations_record  # noqa: E402

#: Checks the record of every UI test of the session, so it runs after them.
RUNS_LAST = "tests/ui/test_reachability.py::"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Move the reachability check to the end of the run."""
    last = [item for item in items if item.nodeid.startswith(RUNS_LAST)]
    if last:
        items[:] = [item for item in items if not item.nodeid.startswith(RUNS_LAST)] + last


@pytest.fixture(autouse=True)
def _windows_fsync_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """``os.fsync`` refuses a file opened read-only, as Windows' FlushFileBuffers does, so
    that the Linux runs catch what would break there (folders are exempt: POSIX code fsyncs
    them through a read-only descriptor, files/portable skips that on Windows)."""
    if sys.platform == "win32":
        return
    import fcntl

    real = os.fsync

    def fsync(fd: int) -> None:
        if hasattr(fd, "fileno"):
            fd = fd.fileno()
        readonly = fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_RDONLY
        if readonly and not stat.S_ISDIR(os.fstat(fd).st_mode):
            raise OSError(errno.EBADF, "fsync of a read-only handle (refused on Windows)")
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)


@pytest.fixture(autouse=True)
def _tour_state() -> Iterator[None]:
    """A tour run in this process signs its journal's checkpoints with a key of its own
    (``recorder.SIGNER``) and keeps its files in a folder of its own (``paths.use_stand_in``),
    both set by ``ui/app.py``: set back after each test, so that a later test's checkpoints
    are signed by the key it verifies them with, and its files are where it looks."""
    from portal_admin.evidence import recorder
    from portal_admin.files import paths

    signer, stand_in = recorder.SIGNER, paths.stand_in()
    yield
    recorder.SIGNER = signer
    paths.use_stand_in(stand_in)


@pytest.fixture(autouse=True, scope="session")
def _record_operations(request: pytest.FixtureRequest) -> Iterator[None]:
    """Record the operations UI code sends, when the reachability check will read them: this
    session runs every UI test, or PORTAL_ADMIN_RECORD_OPS names the file of its own run."""
    to_file = os.environ.get("PORTAL_ADMIN_RECORD_OPS")
    if not to_file and not operations_record.whole_ui_suites_run(request.session):
        yield
        return
    with operations_record.recording(to_file):
        yield
