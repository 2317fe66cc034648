"""files/portable: the program's file rules, on POSIX here; what exists only on Windows is
marked and runs under Wine (packaging/windows/wine.sh tests tests/files)."""

from __future__ import annotations

import os
import sqlite3
import stat
import sys
from pathlib import Path

import pytest

from portal_admin.evidence import checkpoints
from portal_admin.files import paths, portable

windows_only = pytest.mark.skipif(sys.platform != "win32", reason="a Windows DACL or path form")
real_windows_only = pytest.mark.skipif(
    sys.platform != "win32" or portable.under_wine(),
    reason="a DACL read back: Windows only (Wine derives file security from Unix modes and "
    "does not pass a folder's entries on to new files)",
)
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file modes")


def _database(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x)")
    conn.execute("INSERT INTO t VALUES (42)")
    conn.commit()
    conn.close()


NO_QUESTION_MARK = pytest.mark.skipif(sys.platform == "win32", reason="Windows forbids ? in names")


@pytest.mark.parametrize(
    "name",
    ["plain.db", pytest.param("a?b.db", marks=NO_QUESTION_MARK), "a#b.db", "100%.db", "sp ace.db"],
)
def test_a_read_only_uri_opens_any_file_name(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    _database(path)
    conn = sqlite3.connect(portable.sqlite_uri(path), uri=True)
    try:
        assert conn.execute("SELECT x FROM t").fetchone() == (42,)
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            conn.execute("INSERT INTO t VALUES (1)")
    finally:
        conn.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]  # nothing made beside it


def test_a_uri_of_a_relative_path_is_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    _database(tmp_path / "rel.db")
    uri = portable.sqlite_uri("rel.db")
    assert uri.startswith("file:///") and uri.endswith("/rel.db?mode=ro")
    conn = sqlite3.connect(uri, uri=True)
    assert conn.execute("SELECT x FROM t").fetchone() == (42,)
    conn.close()


@windows_only
def test_a_uri_keeps_the_drive_and_the_server() -> None:
    assert portable.sqlite_uri("C:\\Users\\a b\\x.db") == "file:///C:/Users/a%20b/x.db?mode=ro"
    assert portable.sqlite_uri("\\\\server\\share\\x.db").startswith("file:////server/share/")


@pytest.mark.parametrize("without_pread", [False, True])
def test_pread_reads_at_an_offset_and_leaves_the_position(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, without_pread: bool
) -> None:
    if without_pread:  # as on Windows
        monkeypatch.delattr(os, "pread", raising=False)
    path = tmp_path / "f"
    path.write_bytes(b"0123456789")
    fd = os.open(path, os.O_RDONLY | portable.O_BINARY)
    try:
        os.lseek(fd, 2, os.SEEK_SET)
        assert portable.pread(fd, 4, 5) == b"5678"
        assert portable.pread(fd, 40, 8) == b"89"
        assert os.lseek(fd, 0, os.SEEK_CUR) == 2
    finally:
        os.close(fd)


def test_checkpoints_append_without_pread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The journal's checkpoint file, appended to where ``os.pread`` does not exist (Windows),
    after a kill left a torn last line."""
    monkeypatch.delattr(os, "pread", raising=False)
    path = tmp_path / "checkpoints.jsonl"
    checkpoints.append(path, {"n": 1})
    with path.open("ab") as fh:
        fh.write(b'{"n": 2, "torn')
    checkpoints.append(path, {"n": 3})
    assert path.read_bytes().splitlines() == [b'{"n":1}', b'{"n":3}']


def test_fsync_path_uses_a_handle_open_for_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"x")
    seen: list[int] = []

    def fsync(fd: int) -> None:
        seen.append(fd)
        # what Windows' FlushFileBuffers checks: the handle may write
        assert os.write(fd, b"") == 0

    monkeypatch.setattr(os, "fsync", fsync)
    portable.fsync_path(path)
    assert len(seen) == 1 and path.read_bytes() == b"x"


def test_fsync_dir_does_nothing_on_windows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    monkeypatch.setattr(os, "fsync", calls.append)
    monkeypatch.setattr(portable, "WINDOWS", True)
    portable.fsync_dir(tmp_path)
    assert calls == []
    monkeypatch.setattr(portable, "WINDOWS", False)
    if sys.platform != "win32":
        portable.fsync_dir(tmp_path)
        assert len(calls) == 1


def test_replace_waits_for_a_target_held_open_on_windows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src, dst = tmp_path / "src", tmp_path / "dst"
    src.write_text("new")
    dst.write_text("old")
    real = os.replace
    refusals = [PermissionError(13, "in use"), PermissionError(13, "in use")]

    def flaky(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> None:
        if refusals:
            raise refusals.pop()
        real(a, b)

    monkeypatch.setattr(os, "replace", flaky)
    monkeypatch.setattr(portable, "WINDOWS", True)
    portable.replace(src, dst)
    assert dst.read_text() == "new" and not src.exists()
    # On POSIX a refusal is an answer: raised at once.
    src.write_text("newer")
    refusals.append(PermissionError(13, "denied"))
    monkeypatch.setattr(portable, "WINDOWS", False)
    with pytest.raises(PermissionError):
        portable.replace(src, dst)


def test_replace_gives_up_after_its_patience(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(a: object, b: object) -> None:
        raise PermissionError(13, "in use")

    monkeypatch.setattr(os, "replace", refuse)
    monkeypatch.setattr(portable, "WINDOWS", True)
    monkeypatch.setattr(portable, "REPLACE_PATIENCE_S", 0.1)
    with pytest.raises(PermissionError):
        portable.replace(tmp_path / "a", tmp_path / "b")


@posix_only
def test_private_files_and_folders_are_owner_only_whatever_the_umask(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        portable.create_private(tmp_path / "f")
        portable.private_dir(tmp_path / "d" / "e")
        (tmp_path / "g").write_text("x")
        portable.make_private(tmp_path / "g")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "f").stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "d" / "e").stat().st_mode) == 0o700
    assert stat.S_IMODE((tmp_path / "g").stat().st_mode) == 0o600
    with pytest.raises(FileExistsError):
        portable.create_private(tmp_path / "f")


def test_make_private_takes_a_path_not_a_descriptor(tmp_path: Path) -> None:
    """``fh.name`` of an ``os.fdopen`` file is its descriptor: chmod takes it on POSIX, a DACL
    is set by name on Windows; refused on every system so that Linux runs catch it."""
    with open(tmp_path / "f", "w") as fh, pytest.raises(TypeError, match="needs a path"):
        portable.make_private(fh.fileno())


def test_an_atomic_private_file_is_private_before_it_is_written(tmp_path: Path) -> None:
    from portal_admin.files.atomic import atomic_open

    with atomic_open(tmp_path / "secret.txt", private=True) as fh:
        fh.write("x")
        partial = next(p for p in tmp_path.iterdir() if p.name.endswith(".tmp"))
        if sys.platform != "win32":
            assert stat.S_IMODE(partial.stat().st_mode) == 0o600
    assert (tmp_path / "secret.txt").read_text() == "x"


#: Windows' well-known SIDs that must not be left on an owner-only file.
OTHERS = {"S-1-1-0": "Everyone", "S-1-5-32-545": "Users", "S-1-5-11": "Authenticated Users"}


@windows_only
def test_the_dacl_calls_succeed_and_the_owner_keeps_using_the_files(tmp_path: Path) -> None:
    """Runs under Wine too: the advapi32 calls (their ctypes signatures, 64-bit handles) work
    and the person can still write, read, rename and remove what was made owner-only."""
    portable.create_private(tmp_path / "f")
    portable.private_dir(tmp_path / "d")
    (tmp_path / "d" / "inside").write_text("x")
    portable.make_private(tmp_path / "d" / "inside")
    portable.make_private(tmp_path / "d")
    (tmp_path / "f").write_text("secret")
    portable.replace(tmp_path / "f", tmp_path / "d" / "g")
    assert (tmp_path / "d" / "g").read_text() == "secret"
    assert [sid for sid, _, _ in portable.windows_dacl(tmp_path / "d" / "g")]
    (tmp_path / "d" / "g").unlink()
    assert portable.self_test(tmp_path / "d") == []


@real_windows_only
def test_private_files_are_the_users_and_the_systems_only(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("x")
    before = {sid for sid, _, _ in portable.windows_dacl(tmp_path / "plain")}
    portable.create_private(tmp_path / "f")
    portable.private_dir(tmp_path / "d")
    (tmp_path / "d" / "inside").write_text("x")
    (tmp_path / "g").write_text("x")
    portable.make_private(tmp_path / "g")
    for each in ("f", "d", "d/inside", "g"):
        entries = portable.windows_dacl(tmp_path / each)
        sids = {sid for sid, _, _ in entries}
        users = sids - {portable.SYSTEM_SID}
        assert len(users) == 1 and users.pop().startswith("S-1-5-21-"), (each, entries)
        assert all(kind == 0 and mask & 0x001F01FF == 0x001F01FF for _, kind, mask in entries)
        assert not sids & set(OTHERS), (each, entries)
    assert before & set(OTHERS) or len(before) > 2  # a plain file was open to more


def test_portal_admin_home_moves_every_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(paths.HOME_ENV, str(tmp_path / "h"))
    assert paths.config_dir() == tmp_path / "h" / "config"
    assert paths.data_dir() == tmp_path / "h" / "data"
    assert paths.log_dir() == tmp_path / "h" / "log"
    from portal_admin.client import fingerprint
    from portal_admin.sandbox.cli import default_db_path

    assert default_db_path().parent == tmp_path / "h" / "data"
    assert fingerprint._default_path().parent == tmp_path / "h" / "data"


def test_a_relative_home_is_made_absolute_and_an_empty_one_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(paths.HOME_ENV, "rel")
    assert paths.data_dir() == tmp_path / "rel" / "data"
    monkeypatch.setenv(paths.HOME_ENV, " ")
    assert paths.home_override() is None
    assert paths.data_dir().name == paths.APP_NAME or paths.APP_NAME in str(paths.data_dir())


def test_the_tests_never_use_the_persons_folders() -> None:
    """The program's folders are the tests' own: through PORTAL_ADMIN_HOME on Windows (where
    the XDG variables, which platformdirs reads on Linux only, isolate nothing), through the
    XDG variables elsewhere (conftest.py sets both for the whole run)."""
    for folder in (paths.data_dir(), paths.config_dir(), paths.log_dir()):
        assert "portal-admin-tests-" in str(folder), folder


def test_the_self_test_passes_here_and_names_what_breaks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a").mkdir()
    assert portable.self_test(tmp_path / "a") == []
    monkeypatch.setattr(portable, "sqlite_uri", lambda path, mode="ro": f"file:{path}?mode=ro")
    (tmp_path / "b").mkdir()
    problems = portable.self_test(tmp_path / "b")
    assert len(problems) == 1 and problems[0].startswith("read-only SQLite URI: ")


@pytest.mark.parametrize("read_only", [False, True])
def test_a_connection_by_uri_attaches_by_uri(tmp_path: Path, read_only: bool) -> None:
    """The main file opened through sqlite_connect, another attached by sqlite_uri, in folders
    whose names a pasted URI would misread: what diff, create, merge and close do."""
    main, other = tmp_path / "main #1.db", tmp_path / "other 50%.db"
    _database(main)
    _database(other)
    conn = portable.sqlite_connect(main, read_only=read_only)
    try:
        conn.execute("ATTACH DATABASE ? AS o", (portable.sqlite_uri(other),))
        assert conn.execute("SELECT x FROM t UNION ALL SELECT x FROM o.t").fetchall() == [
            (42,),
            (42,),
        ]
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            conn.execute("INSERT INTO o.t VALUES (1)")
    finally:
        conn.close()
    memory = portable.sqlite_connect(":memory:")
    memory.execute("ATTACH DATABASE ? AS o", (portable.sqlite_uri(other),))
    assert memory.execute("SELECT x FROM o.t").fetchone() == (42,)
    memory.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["main #1.db", "other 50%.db"]
