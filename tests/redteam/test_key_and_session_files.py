"""Red-team attacks on the key file and the command line's kept session (branch
h/keys-everywhere): ``evidence/keys.py`` (``FileStore``), ``cli/session_file.py``
(``SessionFileStore``). Both files are "owner-only" when the program writes them; the attacks
are files the program did not write: too open, owned by someone else, a link elsewhere, a
FIFO. Each test is one attack the current code accepts.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import threading
import time
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from portal_admin.evidence import keys

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX modes and owners")


def _pem(key: Ed25519PrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def _raw_b64(key: Ed25519PrivateKey) -> str:
    raw = key.private_bytes(
        serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
    )
    return base64.b64encode(raw).decode("ascii")


@posix_only
def test_a_world_readable_key_file_is_used_as_is(tmp_path: Path) -> None:
    """Attack/mistake: the key file is (or becomes: a restore from backup, a copy with ``cp``)
    mode 0644. ``FileStore.get`` reads and uses it, says nothing, and leaves it readable by
    every local user, any of whom can then sign packs, checkpoints and sign-offs as this
    installation. ssh refuses such a key ("UNPROTECTED PRIVATE KEY FILE"). Class of fix: on
    read, ``fstat`` the open file: refuse (KeyUnavailable naming the mode) or repair to 0600
    with a warning when group/other bits are set."""
    path = tmp_path / "signing-key.pem"
    key = Ed25519PrivateKey.generate()
    path.write_bytes(_pem(key))
    os.chmod(path, 0o644)
    try:
        keys.FileStore(path).get()
    except keys.KeyUnavailable:
        return  # refused: fine
    assert path.stat().st_mode & 0o077 == 0, "a key file every user can read was used as is"


@posix_only
def test_a_key_file_that_is_a_link_to_a_file_of_another_user_is_trusted(tmp_path: Path) -> None:
    """Attack: whoever could write the data folder once (or a folder made group-writable)
    replaces ``signing-key.pem`` with a symbolic link to a key file THEY own and know. The
    keyring not holding a key (no keyring, or it fails for a moment), the installation signs
    with the attacker's key, and ``trust.own_fingerprint`` calls the attacker's key "own": their
    forged checkpoints and sign-offs verify as this installation's. Class of fix: open the key
    file without following links (``O_NOFOLLOW``) and ``fstat`` it: owned by the current user,
    a regular file, no group/other bits (Windows: the owner SID/ACL of the file)."""
    theirs = tmp_path / "elsewhere" / "their-key.pem"
    theirs.parent.mkdir()
    attacker_key = Ed25519PrivateKey.generate()
    theirs.write_bytes(_pem(attacker_key))
    os.chmod(theirs, 0o600)
    if os.geteuid() == 0:
        os.chown(theirs, 65534, 65534)  # another user's file (running as root: chown works)
    path = tmp_path / "data" / "signing-key.pem"
    path.parent.mkdir()
    path.symlink_to(theirs)
    try:
        got = keys.FileStore(path).get()
    except keys.KeyUnavailable:
        return
    assert got != _raw_b64(attacker_key), "a key reached through a link elsewhere was taken"


def _session(path: Path, token: str) -> None:
    now = time.time()
    data = {"version": 1, "sessions": {"prod|admin@example.test": {
        "token": token, "since": now, "expires": now + 3600}}}  # fmt: skip
    path.write_text(json.dumps(data))


@posix_only
def test_a_session_file_writable_by_others_or_of_another_owner_is_used(tmp_path: Path) -> None:
    """Attack (session fixation): a ``cli-session.json`` the program did not write - mode 0666,
    owned by another user - holding the attacker's refresh token for the administrator's
    profile and email. ``SessionFileStore`` uses it: the next command runs signed in as the
    attacker's account (what it uploads, exports or changes goes to / is attributed to that
    account), or a token the program then rewrites to a file others can read. Class of fix:
    as for the key file - ``fstat`` after an ``O_NOFOLLOW`` open: the current user's, a
    regular file, 0600; otherwise it is not used (said once) and not rewritten in place."""
    from portal_admin.cli.session_file import SessionFileStore

    path = tmp_path / "cli-session.json"
    _session(path, "attacker-refresh-token")
    os.chmod(path, 0o666)
    if os.geteuid() == 0:
        os.chown(path, 65534, 65534)
    store = SessionFileStore(path, keep=False)
    token = asyncio.run(store.load("prod", "admin@example.test"))
    assert token is None, "a session file anyone could have written was used"


@posix_only
def test_a_fifo_in_place_of_the_session_file_hangs_every_command(tmp_path: Path) -> None:
    """Attack (denial of service): ``cli-session.json`` is a FIFO. ``_read`` opens it for
    reading, which blocks until a writer comes: every command of the command line hangs before
    it signs in (no time limit, no message). Class of fix: open non-blocking / refuse what is
    not a regular file (``O_NOFOLLOW | O_NONBLOCK`` then ``fstat``; ``S_ISREG``)."""
    from portal_admin.cli.session_file import SessionFileStore

    path = tmp_path / "cli-session.json"
    os.mkfifo(path)
    store = SessionFileStore(path, keep=False)
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
