"""The refresh token, the installation key and the command line's session through a real
Secret Service (gnome-keyring in a private dbus session), and memory-only storage with a
visible notice when no keyring is usable."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from portal_admin.client import KeyringTokenStore

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent(
    """
    import asyncio, os, sys
    from pathlib import Path
    import httpx, keyring
    from keyring.backends import SecretService
    from portal_admin.client import ClientOptions, KeyringTokenStore, PortalClient
    from portal_admin.sandbox import SandboxConfig, create_app

    assert isinstance(keyring.get_keyring(), SecretService.Keyring), keyring.get_keyring()
    EMAIL, PASSWORD = "admin@sandbox.test", "Sandbox-Admin-2026!"
    app = create_app(SandboxConfig(seed_accounts=2, test_clock=True))

    def client():
        return PortalClient("http://sandbox.test", ClientOptions(access_code="SANDBOX"),
                            transport=httpx.ASGITransport(app=app),
                            token_store=KeyringTokenStore())

    async def main():
        async with client() as first:
            await first.auth.start(EMAIL, PASSWORD)
            code = (await first.http.get("/sandbox/totp", params={"email": EMAIL})).json()
            await first.auth.complete("OTP", code["data"]["code"])
            assert first.auth.tokens_persistent
        stored = keyring.get_password("portal-admin", f"http://sandbox.test|{EMAIL}")
        assert stored and stored.startswith("rt_"), stored
        # plain text nowhere on disk (the keyring file is encrypted)
        for path in Path(os.environ["HOME"]).rglob("*"):
            if path.is_file():
                assert stored.encode() not in path.read_bytes(), path
        async with client() as second:  # a restart: the token comes back from the keyring
            assert await second.auth.resume(EMAIL) is not None
            assert second.signed_in
            profile = await second.auth.profile()
            assert profile.account_email == EMAIL
            rotated = keyring.get_password("portal-admin", f"http://sandbox.test|{EMAIL}")
            assert rotated and rotated != stored  # refresh tokens are single use
            await second.auth.logout()
            assert not second.signed_in
        assert keyring.get_password("portal-admin", f"http://sandbox.test|{EMAIL}") is None
        print("KEYRING-OK")

    asyncio.run(main())
    """
)


KEYS_SCRIPT = textwrap.dedent(
    """
    import os, sys
    from pathlib import Path
    import keyring
    from keyring.backends import SecretService
    from portal_admin.cli.main import main
    from portal_admin.cli.session_file import session_file_path
    from portal_admin.evidence import keys

    assert isinstance(keyring.get_keyring(), SecretService.Keyring), keyring.get_keyring()
    key = keys.signing_key()
    stored = keyring.get_password(keys.SERVICE, keys.USERNAME)
    assert stored, "the key is not in the keyring"
    assert keys.place_of().kind == "keyring"
    assert not keys.key_file_path().exists()
    again = keys.signing_key()
    assert keys.fingerprint(again.public_key()) == keys.fingerprint(key.public_key())
    # The command line keeps its sign-in in the keyring: no session file, no option needed.
    out = Path(os.environ["HOME"]) / "q.csv"
    argv = ["--sandbox", "accounts", "query", "--status", "SUSPENDED", "--out", str(out)]
    assert main(argv) == 0
    token_user = "Sandbox|admin@sandbox.test"
    assert keyring.get_password("portal-admin", token_user), "no token kept"
    assert main(argv) == 0 and main(argv) == 0
    assert not session_file_path().exists()
    assert main(["--sandbox", "logout"]) == 0
    assert keyring.get_password("portal-admin", token_user) is None
    # plain text of neither the key nor a token anywhere under the home folder
    for path in Path(os.environ["HOME"]).rglob("*"):
        if path.is_file():
            assert stored.encode() not in path.read_bytes(), path
    print("KEYS-OK")
    """
)


def _in_gnome_keyring(tmp_path: Path, script_text: str) -> subprocess.CompletedProcess[str]:
    """Run ``script_text`` with gnome-keyring unlocked in a private dbus session (skipped
    when gnome-keyring is not installed; .ci/run installs it)."""
    missing = [t for t in ("dbus-run-session", "gnome-keyring-daemon") if not shutil.which(t)]
    if missing:
        pytest.skip(
            f"{' and '.join(missing)} not installed (apt-get install gnome-keyring dbus-daemon "
            "dbus-bin libsecret-1-0; .ci/run does)"
        )
    pytest.importorskip("secretstorage", reason="keyring needs SecretStorage for Secret Service")
    script = tmp_path / "check.py"
    script.write_text(script_text, encoding="utf-8")
    home = tmp_path / "home"
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
        "PORTAL_ADMIN_HOME": str(home / "portal-admin"),
        "XDG_CACHE_HOME": str(home / "cache"),
        "XDG_RUNTIME_DIR": str(runtime),
        "PYTHON_KEYRING_BACKEND": "keyring.backends.SecretService.Keyring",
        "PYTHONPATH": str(ROOT / "src"),
    }
    command = (
        "echo -n test-keyring-pass | gnome-keyring-daemon --unlock --components=secrets"
        f" >/dev/null && exec '{sys.executable}' '{script}'"
    )
    return subprocess.run(
        ["dbus-run-session", "--", "sh", "-c", command],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )


def test_refresh_token_round_trip_through_gnome_keyring(tmp_path: Path) -> None:
    done = _in_gnome_keyring(tmp_path, SCRIPT)
    assert done.returncode == 0 and "KEYRING-OK" in done.stdout, done.stdout + done.stderr[-3000:]


def test_installation_key_and_cli_session_through_gnome_keyring(tmp_path: Path) -> None:
    done = _in_gnome_keyring(tmp_path, KEYS_SCRIPT)
    assert done.returncode == 0 and "KEYS-OK" in done.stdout, done.stdout + done.stderr[-3000:]


async def test_no_keyring_means_memory_only_never_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import keyring
    from keyring.backends import fail

    monkeypatch.setattr(keyring, "get_keyring", lambda: fail.Keyring())  # type: ignore[no-untyped-call]
    monkeypatch.setenv("HOME", str(tmp_path))
    store = KeyringTokenStore()
    assert not store.persistent and store.unavailable_reason
    await store.save("profile", "admin@sandbox.test", "rt_secret_token_value_123")
    assert await store.load("profile", "admin@sandbox.test") == "rt_secret_token_value_123"
    for path in tmp_path.rglob("*"):
        assert not path.is_file() or b"rt_secret_token_value_123" not in path.read_bytes()
    await store.delete("profile", "admin@sandbox.test")
    assert await store.load("profile", "admin@sandbox.test") is None
