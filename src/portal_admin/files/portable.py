"""The file rules the program lives by, on POSIX and on Windows alike.

Each function says what it does on both (docs/security.md, "Files on Windows"):

- owner-only files and folders: mode 0600/0700 on POSIX; on Windows a protected DACL (the
  parent's entries no longer inherited) with two entries, full control for the current user
  and for SYSTEM (the operating system itself, which reads every file anyway; backup and
  indexing run as SYSTEM), inherited by what a folder will hold; set through the standard
  library's ``ctypes`` (no pywin32, no ``icacls``);
- fsync: of a handle opened for writing (Windows' ``FlushFileBuffers`` refuses a read-only one);
  of a folder on POSIX, nothing on Windows (a folder cannot be flushed there: NTFS makes the
  rename durable with its own journal);
- ``pread``: ``os.pread`` where it exists, else a seek and a read that put the offset back;
- an atomic rename: ``os.replace``, retried briefly on Windows, where a virus scanner or the
  search indexer may hold the target open for a moment;
- SQLite URIs from a path: ``Path.as_uri()`` (percent-encoded, drive letters and UNC paths),
  never a path pasted after ``file:``; a connection that attaches one is itself opened by URI;
- an OS lock: ``filelock.FileLock``, which is ``fcntl.flock`` on POSIX and ``msvcrt.locking``
  on Windows.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import filelock

if TYPE_CHECKING:
    import sqlite3

WINDOWS = sys.platform == "win32"
#: Add to every ``os.open`` flag set: on Windows a descriptor is text mode without it, and
#: ``os.write`` would turn each ``\n`` into ``\r\n``. 0 on POSIX.
O_BINARY: int = getattr(os, "O_BINARY", 0)
FILE_MODE = 0o600
DIR_MODE = 0o700
#: How long :func:`replace` keeps trying when Windows says the target is in use.
REPLACE_PATIENCE_S = 1.0


def sqlite_uri(path: str | os.PathLike[str], mode: str = "ro") -> str:
    """A ``file:`` URI opening ``path`` with ``?mode=...`` (for ``uri=True`` and ``ATTACH``).

    ``?``, ``#`` and ``%`` in a name are percent-encoded, a drive letter becomes ``/C:/``, and a
    UNC path keeps its server (``file:////server/share/...``, the form SQLite reads)."""
    uri = Path(os.path.abspath(path)).as_uri()
    if uri.startswith("file://") and not uri.startswith("file:///"):
        uri = "file:////" + uri[len("file://") :]  # \\server\share\x: SQLite refuses a host
    return f"{uri}?mode={mode}"


def sqlite_connect(
    path: str | os.PathLike[str], *, read_only: bool = False, **kwargs: Any
) -> sqlite3.Connection:
    """``sqlite3.connect`` through a URI (``mode=ro`` or ``rwc``; ``:memory:`` stays one), so
    that ``ATTACH`` on the connection takes :func:`sqlite_uri` too: Windows' SQLite is built
    without ``SQLITE_USE_URI``, and there a connection opened by a plain name reads an
    attached ``file:`` URI as a file name."""
    import sqlite3

    if os.fspath(path) == ":memory:":
        conn: sqlite3.Connection = sqlite3.connect("file::memory:", uri=True, **kwargs)
    else:
        uri = sqlite_uri(path, "ro" if read_only else "rwc")
        conn = sqlite3.connect(uri, uri=True, **kwargs)
    return conn


def pread(fd: int, size: int, offset: int) -> bytes:
    """Up to ``size`` bytes at ``offset`` of ``fd``, the file offset unchanged afterwards.

    Windows has no ``os.pread``: there it seeks, reads and seeks back, so the caller must be
    the only one using ``fd`` meanwhile (the journal's callers hold its lock)."""
    if hasattr(os, "pread"):
        return os.pread(fd, size, offset)
    here = os.lseek(fd, 0, os.SEEK_CUR)
    try:
        os.lseek(fd, offset, os.SEEK_SET)
        parts: list[bytes] = []
        left = size
        while left > 0:
            chunk = os.read(fd, left)
            if not chunk:
                break
            parts.append(chunk)
            left -= len(chunk)
        return b"".join(parts)
    finally:
        os.lseek(fd, here, os.SEEK_SET)


def fsync_path(path: str | os.PathLike[str]) -> None:
    """Flush a closed file's data to the disk, through a handle opened for writing (a
    read-only one is refused by Windows)."""
    fd = os.open(path, os.O_RDWR | O_BINARY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_dir(folder: str | os.PathLike[str]) -> None:
    """Make a rename or a new file in ``folder`` durable; nothing on Windows (see the module)."""
    if WINDOWS:
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def replace(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
    """``os.replace``; on Windows retried for up to :data:`REPLACE_PATIENCE_S` while the
    target is held open by another process (a scanner, the indexer), then raised."""
    deadline = time.monotonic() + REPLACE_PATIENCE_S
    while True:
        try:
            os.replace(src, dst)
            return
        except PermissionError:
            if not WINDOWS or time.monotonic() >= deadline:
                raise
            time.sleep(0.05)


def make_private(path: str | os.PathLike[str]) -> None:
    """Make an existing file or folder readable and writable by its owner only. A path, never
    a file descriptor (``fh.name`` of an ``os.fdopen`` file): Windows sets a DACL by name."""
    if not isinstance(path, str | os.PathLike):
        raise TypeError(f"make_private needs a path, not {type(path).__name__}")
    if WINDOWS:
        _windows_owner_only(os.fspath(path), os.path.isdir(path))
    else:
        os.chmod(path, DIR_MODE if os.path.isdir(path) else FILE_MODE)


def create_private(path: str | os.PathLike[str]) -> None:
    """Create ``path`` empty and owner-only (whatever the umask); fails if it exists."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | O_BINARY, FILE_MODE)
    try:
        if not WINDOWS:
            os.fchmod(fd, FILE_MODE)
    finally:
        os.close(fd)
    if WINDOWS:
        _windows_owner_only(os.fspath(path), False)


def private_dir(folder: Path) -> None:
    """Create ``folder`` (and its parents) if needed; a folder it creates is owner-only, and
    on Windows what is created in it later inherits that."""
    if folder.is_dir():
        return
    folder.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
    if WINDOWS:
        _windows_owner_only(str(folder), True)


def file_lock(path: str | os.PathLike[str]) -> filelock.BaseFileLock:
    """An OS lock held through the file ``path`` (created owner-only)."""
    return filelock.FileLock(os.fspath(path), mode=FILE_MODE)


# --- Windows: an owner-only DACL through advapi32 ---------------------------------------------

#: The operating system's own account (LocalSystem), the one entry beside the owner.
SYSTEM_SID = "S-1-5-18"
_TOKEN_QUERY = 0x0008
_TOKEN_USER = 1
_ACL_REVISION = 2
_FILE_ALL_ACCESS = 0x001F01FF
_OBJECT_INHERIT_ACE = 0x1
_CONTAINER_INHERIT_ACE = 0x2
_SE_FILE_OBJECT = 1
_DACL_SECURITY_INFORMATION = 0x00000004
_PROTECTED_DACL_SECURITY_INFORMATION = 0x80000000


def _windows_owner_only(path: str, directory: bool) -> None:  # pragma: no cover - Windows
    """Replace the DACL of ``path`` by two entries, full control for the current user and for
    SYSTEM; protected, so the parent's entries are no longer inherited. Raises OSError when
    Windows refuses."""
    import ctypes
    from ctypes import wintypes

    advapi32 = ctypes.WinDLL("advapi32", use_last_error=True)  # type: ignore[attr-defined]
    kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]
    kernel32.GetCurrentProcess.restype = wintypes.HANDLE
    kernel32.CloseHandle.argtypes = [wintypes.HANDLE]
    advapi32.OpenProcessToken.argtypes = [
        wintypes.HANDLE,
        wintypes.DWORD,
        ctypes.POINTER(wintypes.HANDLE),
    ]
    advapi32.GetTokenInformation.argtypes = [
        wintypes.HANDLE, ctypes.c_int, ctypes.c_void_p, wintypes.DWORD,
        ctypes.POINTER(wintypes.DWORD),
    ]  # fmt: skip
    advapi32.GetLengthSid.argtypes = [ctypes.c_void_p]
    advapi32.GetLengthSid.restype = wintypes.DWORD
    advapi32.InitializeAcl.argtypes = [ctypes.c_void_p, wintypes.DWORD, wintypes.DWORD]
    advapi32.AddAccessAllowedAceEx.argtypes = [
        ctypes.c_void_p, wintypes.DWORD, wintypes.DWORD, wintypes.DWORD, ctypes.c_void_p
    ]  # fmt: skip
    advapi32.ConvertStringSidToSidW.argtypes = [wintypes.LPCWSTR, ctypes.POINTER(ctypes.c_void_p)]
    kernel32.LocalFree.argtypes = [ctypes.c_void_p]
    advapi32.SetNamedSecurityInfoW.argtypes = [
        wintypes.LPWSTR, ctypes.c_int, wintypes.DWORD,
        ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
    ]  # fmt: skip
    advapi32.SetNamedSecurityInfoW.restype = wintypes.DWORD

    def fail() -> OSError:
        error: OSError = ctypes.WinError(ctypes.get_last_error())  # type: ignore[attr-defined]
        return error

    token = wintypes.HANDLE()
    if not advapi32.OpenProcessToken(
        kernel32.GetCurrentProcess(), _TOKEN_QUERY, ctypes.byref(token)
    ):
        raise fail()
    try:
        needed = wintypes.DWORD()
        advapi32.GetTokenInformation(token, _TOKEN_USER, None, 0, ctypes.byref(needed))
        info = ctypes.create_string_buffer(needed.value)
        if not advapi32.GetTokenInformation(token, _TOKEN_USER, info, needed, ctypes.byref(needed)):
            raise fail()
    finally:
        kernel32.CloseHandle(token)
    user = ctypes.cast(info, ctypes.POINTER(ctypes.c_void_p))[0]  # TOKEN_USER.User.Sid
    system = ctypes.c_void_p()
    if not advapi32.ConvertStringSidToSidW(SYSTEM_SID, ctypes.byref(system)):
        raise fail()
    try:
        sids = (user, system.value)
        # ACL header, then per entry: ACE header and mask (8 bytes) and the SID
        size = (8 + sum(8 + advapi32.GetLengthSid(sid) for sid in sids) + 3) & ~3
        acl = ctypes.create_string_buffer(size)
        if not advapi32.InitializeAcl(acl, size, _ACL_REVISION):
            raise fail()
        inherit = _OBJECT_INHERIT_ACE | _CONTAINER_INHERIT_ACE if directory else 0
        for sid in sids:
            if not advapi32.AddAccessAllowedAceEx(
                acl, _ACL_REVISION, inherit, _FILE_ALL_ACCESS, sid
            ):
                raise fail()
        flags = _DACL_SECURITY_INFORMATION | _PROTECTED_DACL_SECURITY_INFORMATION
        err = advapi32.SetNamedSecurityInfoW(path, _SE_FILE_OBJECT, flags, None, None, acl, None)
    finally:
        kernel32.LocalFree(system)
    if err:
        raise ctypes.WinError(err)  # type: ignore[attr-defined]


def under_wine() -> bool:  # pragma: no cover - Windows
    """Whether this Windows is Wine (its ntdll exports ``wine_get_version``). Wine derives a
    file's security from Unix modes, so a DACL read back there says little of Windows'."""
    if not WINDOWS:
        return False
    import ctypes

    try:
        return hasattr(ctypes.WinDLL("ntdll"), "wine_get_version")  # type: ignore[attr-defined]
    except OSError:
        return False


def windows_dacl(path: str | os.PathLike[str]) -> list[tuple[str, int, int]]:  # pragma: no cover
    """The DACL of ``path`` on Windows as (SID string, ACE type, access mask) per entry; for
    checks (the tests, ``--self-check``)."""
    import ctypes
    from ctypes import wintypes

    advapi32 = ctypes.WinDLL("advapi32", use_last_error=True)  # type: ignore[attr-defined]
    kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]
    advapi32.GetNamedSecurityInfoW.argtypes = [
        wintypes.LPCWSTR, ctypes.c_int, wintypes.DWORD, ctypes.c_void_p, ctypes.c_void_p,
        ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p),
    ]  # fmt: skip
    advapi32.GetNamedSecurityInfoW.restype = wintypes.DWORD
    advapi32.GetAce.argtypes = [ctypes.c_void_p, wintypes.DWORD, ctypes.POINTER(ctypes.c_void_p)]
    advapi32.ConvertSidToStringSidW.argtypes = [ctypes.c_void_p, ctypes.POINTER(wintypes.LPWSTR)]
    kernel32.LocalFree.argtypes = [ctypes.c_void_p]
    dacl = ctypes.c_void_p()
    sd = ctypes.c_void_p()
    err = advapi32.GetNamedSecurityInfoW(
        os.fspath(path), _SE_FILE_OBJECT, _DACL_SECURITY_INFORMATION,
        None, None, ctypes.byref(dacl), None, ctypes.byref(sd),
    )  # fmt: skip
    if err:
        raise ctypes.WinError(err)  # type: ignore[attr-defined]
    try:
        count = ctypes.cast(dacl, ctypes.POINTER(ctypes.c_uint16))[2]  # ACL.AceCount
        entries = []
        for index in range(count):
            ace = ctypes.c_void_p()
            if not advapi32.GetAce(dacl, index, ctypes.byref(ace)):
                raise ctypes.WinError(ctypes.get_last_error())  # type: ignore[attr-defined]
            assert ace.value is not None
            kind = ctypes.cast(ace, ctypes.POINTER(ctypes.c_ubyte))[0]
            mask = ctypes.cast(ace.value + 4, ctypes.POINTER(ctypes.c_uint32))[0]
            text = wintypes.LPWSTR()
            if not advapi32.ConvertSidToStringSidW(ace.value + 8, ctypes.byref(text)):
                raise ctypes.WinError(ctypes.get_last_error())  # type: ignore[attr-defined]
            entries.append((str(text.value), int(kind), int(mask)))
            kernel32.LocalFree(text)
        return entries
    finally:
        kernel32.LocalFree(sd)


def self_test(folder: Path) -> list[str]:
    """Each rule above tried once in ``folder`` (empty, the caller's to remove); the problems
    found, none when all hold. For ``--self-check``: an installed program proves its file
    layer works on the system it was installed on."""
    import sqlite3

    problems: list[str] = []

    def attempt(name: str, check: Callable[[], bool]) -> None:
        try:
            if not check():
                problems.append(f"{name}: wrong result")
        except Exception as exc:  # a finding, not a crash
            problems.append(f"{name}: {type(exc).__name__}: {exc}")

    private = folder / "private #1"

    def owner_only() -> bool:
        create_private(private)
        if WINDOWS and under_wine():
            return True  # set without error; what Wine reads back is not Windows' DACL
        if WINDOWS:
            sids = {sid for sid, _, _ in windows_dacl(private)}
            return len(sids - {SYSTEM_SID}) == 1  # the user's, and SYSTEM at most
        return (os.stat(private).st_mode & 0o777) == FILE_MODE

    def durable_rename() -> bool:
        partial = folder / "partial"
        with open(partial, "wb") as fh:
            fh.write(b"0123456789")
        fsync_path(partial)
        replace(partial, private)
        fsync_dir(folder)
        return private.read_bytes() == b"0123456789"

    def offset_read() -> bool:
        fd = os.open(private, os.O_RDONLY | O_BINARY)
        try:
            return pread(fd, 3, 4) == b"456" and os.lseek(fd, 0, os.SEEK_CUR) == 0
        finally:
            os.close(fd)

    def read_only_uri() -> bool:
        path = folder / "data #?%.sqlite3" if not WINDOWS else folder / "data #%.sqlite3"
        conn = sqlite3.connect(path)
        conn.execute("CREATE TABLE t (x)")
        conn.commit()
        conn.close()
        ro = sqlite3.connect(sqlite_uri(path), uri=True)
        try:
            return bool(ro.execute("SELECT count(*) FROM t").fetchone() == (0,))
        finally:
            ro.close()

    def os_lock() -> bool:
        with file_lock(folder / "lock"):
            return True

    attempt("owner-only file", owner_only)
    attempt("durable rename", durable_rename)
    attempt("read at an offset", offset_read)
    attempt("read-only SQLite URI", read_only_uri)
    attempt("OS lock", os_lock)
    return problems
