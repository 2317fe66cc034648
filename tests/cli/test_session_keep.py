"""The command line's sign-in between calls without a keyring: for this command only, or, with
``--keep-session``, in an owner-only file for eight hours; ``logout`` ends it. And the
installation key's one-line note, the first time it is made in a file."""

from __future__ import annotations

import asyncio
import json
import os
import stat
from pathlib import Path

import pytest

from portal_admin.cli import session_file
from portal_admin.cli.main import main
from portal_admin.evidence import keys

pytestmark = pytest.mark.usefixtures("no_keyring")

QUERY = ["--sandbox", "accounts", "query", "--status", "SUSPENDED"]


def _query(tmp_path: Path, *extra: str) -> int:
    return main([*QUERY, *extra, "--out", str(tmp_path / "q.csv")])


def test_without_the_option_nothing_is_kept_and_it_says_so(
    tmp_path: Path, sent: list[str], caplog: pytest.LogCaptureFixture
) -> None:
    assert _query(tmp_path) == 0 and _query(tmp_path) == 0
    assert sent.count("auth.login_initiate") == 2
    assert not session_file.session_file_path().exists()
    assert caplog.text.count("lasts for this command only (--keep-session)") == 2


def test_a_kept_session_serves_the_next_commands_until_logout(
    tmp_path: Path, sent: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert _query(tmp_path, "--keep-session") == 0
    path = session_file.session_file_path()
    if os.name == "posix":
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    first = json.loads(path.read_text(encoding="utf-8"))["sessions"]
    (entry,) = first.values()
    assert entry["expires"] - entry["since"] == session_file.SESSION_SECONDS
    assert _query(tmp_path) == 0 and _query(tmp_path) == 0  # no option needed any more
    assert sent.count("auth.login_initiate") == 1
    assert sent.count("auth.token_refresh") == 2
    later = json.loads(path.read_text(encoding="utf-8"))["sessions"]
    (kept,) = later.values()
    assert kept["token"] != entry["token"] and kept["since"] == entry["since"]  # rotated
    assert "--keep-session" not in capsys.readouterr().err
    assert main(["--sandbox", "logout"]) == 0
    assert "signed out: admin@sandbox.test" in capsys.readouterr().err
    assert not path.exists()
    assert _query(tmp_path) == 0
    assert sent.count("auth.login_initiate") == 2  # signed in anew
    assert sent.count("auth.logout") == 1


def test_the_server_forgets_a_logged_out_session(tmp_path: Path) -> None:
    assert _query(tmp_path, "--keep-session") == 0
    path = session_file.session_file_path()
    copy = path.read_bytes()
    assert main(["--sandbox", "logout"]) == 0
    path.write_bytes(copy)  # a copy taken before the logout is worth nothing
    store = session_file.SessionFileStore(path, keep=False)
    assert asyncio.run(store.load(*_only_user(copy))) is not None
    assert _query(tmp_path) == 0  # refused by the server: a new sign-in, not an error


def _only_user(raw: bytes) -> tuple[str, str]:
    (user,) = json.loads(raw)["sessions"]
    profile, account = user.rsplit("|", 1)
    return profile, account


def test_an_expired_session_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    now = [1_000_000.0]
    store = session_file.SessionFileStore(path, keep=True, clock=lambda: now[0])
    asyncio.run(store.save("p", "a@b.test", "rt_one"))
    now[0] += session_file.SESSION_SECONDS - 1
    asyncio.run(store.save("p", "a@b.test", "rt_two"))  # a refresh does not extend it
    assert asyncio.run(store.load("p", "a@b.test")) == "rt_two"
    now[0] += 2
    later = session_file.SessionFileStore(path, keep=False, clock=lambda: now[0])
    assert asyncio.run(later.load("p", "a@b.test")) is None
    assert not later.persistent


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"not json",
        b"[]",
        b'{"sessions": []}',
        b'{"sessions": {"p|a@b.test": {"token": 5, "since": 0, "expires": 1e12}}}',
        # an expiry beyond eight hours from the sign-in is not ours
        b'{"sessions": {"p|a@b.test": {"token": "rt", "since": 0, "expires": 1e12}}}',
        b"{" * 300_000,
        # valid JSON nested 5,000 deep (10 kB): json.loads raised RecursionError (red team)
        b'{"sessions":' + b"[" * 5000 + b"]" * 5000 + b"}",
    ],
)
def test_a_hostile_session_file_is_not_used(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "s.json"
    path.write_bytes(content)
    store = session_file.SessionFileStore(path, keep=False)
    assert asyncio.run(store.load("p", "a@b.test")) is None


def test_the_key_file_note_is_said_once(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """(On standard error with the command line's log format; here, its records.)"""
    snapshot = str(tmp_path / "one.sqlite")
    assert main(["--sandbox", "evidence", "snapshot", snapshot]) == 0
    for name in ("p1.zip", "p2.zip"):
        assert main(["evidence", "pack", str(tmp_path / name), "--snapshot", snapshot]) == 0
    notes = [r.getMessage() for r in caplog.records if "signing key was made in" in r.getMessage()]
    assert len(notes) == 1, caplog.text
    assert str(keys.key_file_path()) in notes[0]
    assert keys.key_file_path().exists()
