"""The command line's kept session file is used only while it is as the program wrote it: the
file itself (not a link), a regular file, the current user's, with no group or other bits.
Otherwise no session is taken from it (a new sign-in), said once on standard error, and nothing
blocks. (Red-team findings 20 and 21; the check is ``files.owner_only.read_private``, shared
with the key file.)"""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time
from pathlib import Path

import pytest

from portal_admin.cli import session_file
from portal_admin.cli.main import main
from portal_admin.files import owner_only

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX modes, owners and FIFOs")

QUERY = ["--sandbox", "accounts", "query", "--status", "SUSPENDED"]


def _session(path: Path, token: str) -> None:
    now = time.time()
    data = {"version": 1, "sessions": {"prod|admin@example.test": {
        "token": token, "since": now, "expires": now + 3600}}}  # fmt: skip
    path.write_text(json.dumps(data))


@posix_only
def test_a_session_file_writable_by_others_or_of_another_owner_is_used(tmp_path: Path) -> None:
    """Attack (session fixation): a ``cli-session.json`` the program did not write - mode 0666,
    owned by another user - holding the attacker's refresh token for the administrator's
    profile and email. ``SessionFileStore`` used it: the next command ran signed in as the
    attacker's account (what it uploads, exports or changes goes to / is attributed to that
    account), or a token the program then rewrote to a file others can read. Now it is not
    used (said once), and is not written into."""
    path = tmp_path / "cli-session.json"
    _session(path, "attacker-refresh-token")
    os.chmod(path, 0o666)
    if os.geteuid() == 0:
        os.chown(path, 65534, 65534)
    store = session_file.SessionFileStore(path, keep=False)
    token = asyncio.run(store.load("prod", "admin@example.test"))
    assert token is None, "a session file anyone could have written was used"
    assert not store.persistent


@posix_only
@pytest.mark.parametrize("mode", [0o644, 0o640, 0o620, 0o602], ids=oct)
def test_a_session_file_open_to_its_group_or_others_is_not_used(tmp_path: Path, mode: int) -> None:
    """Readable by others: its token may be known; writable: it may be planted."""
    path = tmp_path / "cli-session.json"
    _session(path, "rt_mine")
    os.chmod(path, 0o600)
    assert asyncio.run(session_file.SessionFileStore(path, keep=False).load(
        "prod", "admin@example.test")) == "rt_mine"  # fmt: skip
    os.chmod(path, mode)
    store = session_file.SessionFileStore(path, keep=False)
    assert asyncio.run(store.load("prod", "admin@example.test")) is None


@posix_only
def test_a_session_file_of_another_user_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Mode 0600, but someone else's (here: the program runs as another user id)."""
    path = tmp_path / "cli-session.json"
    _session(path, "attacker-refresh-token")
    os.chmod(path, 0o600)
    monkeypatch.setattr(owner_only, "_current_uid", lambda: os.geteuid() + 1)
    store = session_file.SessionFileStore(path, keep=False)
    assert asyncio.run(store.load("prod", "admin@example.test")) is None


@posix_only
def test_a_link_in_place_of_the_session_file_is_not_followed(tmp_path: Path) -> None:
    """A link to a session file elsewhere (owner-only, planted): not read; a new session kept
    replaces the link by the program's own file and leaves the other file as it was."""
    theirs = tmp_path / "elsewhere.json"
    _session(theirs, "attacker-refresh-token")
    os.chmod(theirs, 0o600)
    before = theirs.read_bytes()
    path = tmp_path / "cli-session.json"
    path.symlink_to(theirs)
    store = session_file.SessionFileStore(path, keep=True)
    assert asyncio.run(store.load("prod", "admin@example.test")) is None
    asyncio.run(store.save("prod", "admin@example.test", "rt_mine"))
    assert not path.is_symlink() and theirs.read_bytes() == before
    assert (path.stat().st_mode & 0o777) == 0o600
    again = session_file.SessionFileStore(path, keep=False)
    assert asyncio.run(again.load("prod", "admin@example.test")) == "rt_mine"


@posix_only
def test_a_fifo_in_place_of_the_session_file_hangs_every_command(tmp_path: Path) -> None:
    """Attack (denial of service): ``cli-session.json`` is a FIFO. ``_read`` opened it for
    reading, which blocks until a writer comes: every command of the command line hung before
    it signed in (no time limit, no message). Now it is opened non-blocking, without following
    links, and ``fstat`` refuses what is not a regular file."""
    path = tmp_path / "cli-session.json"
    os.mkfifo(path)
    store = session_file.SessionFileStore(path, keep=False)
    done = threading.Event()

    def load() -> None:
        asyncio.run(store.load("prod", "admin@example.test"))
        done.set()

    worker = threading.Thread(target=load, daemon=True)
    worker.start()
    finished = done.wait(3.0)
    if not finished:  # release the reader so the test process is not left with it
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
        worker.join(5.0)
    assert finished, "a FIFO in place of the session file hung the command"


@posix_only
@pytest.mark.usefixtures("no_keyring")
def test_a_command_signs_in_anew_and_says_why_once(
    tmp_path: Path, sent: list[str], caplog: pytest.LogCaptureFixture
) -> None:
    """A kept session whose file became readable by others: the command works (a new sign-in),
    and says once, naming the file, what is wrong and the fix."""
    assert main([*QUERY, "--keep-session", "--out", str(tmp_path / "q1.csv")]) == 0
    path = session_file.session_file_path()
    os.chmod(path, 0o644)
    caplog.clear()
    assert main([*QUERY, "--out", str(tmp_path / "q2.csv")]) == 0
    assert sent.count("auth.login_initiate") == 2  # the kept session was not used
    said = [r.getMessage() for r in caplog.records if "session file" in r.getMessage()]
    assert len(said) == 1, caplog.text
    assert str(path) in said[0] and "mode 0644" in said[0] and "chmod 600" in said[0]
