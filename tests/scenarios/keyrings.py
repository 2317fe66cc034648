"""The two keyrings a scenario runs with: none (keyring's fail backend) and a real one
(gnome-keyring's Secret Service in a private dbus session, in a child pytest run, since
keyring picks its backend when it is first used)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Set in the child run: which keyring the scenario has ("real").
VARIANT_ENV = "PORTAL_ADMIN_SCENARIO_KEYRING"
NONE, REAL = "no-keyring", "real-keyring"


def inside_real_keyring() -> bool:
    """True in the child run that has gnome-keyring."""
    return os.environ.get(VARIANT_ENV) == REAL


def has_key_file_fallback() -> bool:
    """True once the installation key falls back to an owner-only file (keys-everywhere)."""
    from portal_admin.evidence import keys

    return hasattr(keys, "key_file_path") and hasattr(keys, "place_of")


@pytest.fixture
def no_keyring(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Keyring's fail backend for the whole walk (as PYTHON_KEYRING_BACKEND would choose)."""
    import keyring
    from keyring.backends import fail

    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    before = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())  # type: ignore[no-untyped-call]
    try:
        yield
    finally:
        keyring.set_keyring(before)


def run_in_real_keyring(node_id: str, tmp_path: Path) -> str:
    """Run the test ``node_id`` again in a child pytest inside ``dbus-run-session`` with an
    unlocked gnome-keyring; its output. Skips when the tools are not installed."""
    missing = [t for t in ("dbus-run-session", "gnome-keyring-daemon") if not shutil.which(t)]
    if missing:
        pytest.skip(
            f"{' and '.join(missing)} not installed (apt-get install gnome-keyring dbus-daemon "
            "dbus-bin libsecret-1-0; .ci/run does)"
        )
    pytest.importorskip("secretstorage", reason="keyring needs SecretStorage for Secret Service")
    home = tmp_path / "home"
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    env = {
        key: value
        for key, value in os.environ.items()
        if key
        in (
            "PATH",
            "PYTHONPATH",
            "LANG",
            "LC_ALL",
            "PORTAL_ADMIN_SCENARIO_SHOTS",
            "QT_QPA_PLATFORM",
        )
    }
    env.update(
        {
            "HOME": str(home),
            "XDG_DATA_HOME": str(home / "data"),
            "XDG_CONFIG_HOME": str(home / "config"),
            "XDG_CACHE_HOME": str(home / "cache"),
            "XDG_STATE_HOME": str(home / "state"),
            "XDG_RUNTIME_DIR": str(runtime),
            "PYTHON_KEYRING_BACKEND": "keyring.backends.SecretService.Keyring",
            VARIANT_ENV: REAL,
        }
    )
    command = (
        "echo -n test-keyring-pass | gnome-keyring-daemon --unlock --components=secrets"
        f" >/dev/null && exec '{sys.executable}' -m pytest '{node_id}' -p no:randomly"
        " -p no:cacheprovider -q -s --no-header"
    )
    done = subprocess.run(
        ["dbus-run-session", "--", "sh", "-c", command],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=280,
    )
    output = "\n".join(
        line
        for line in (done.stdout + done.stderr).splitlines()
        if "This plugin does not support" not in line and "fd limit" not in line
    )
    assert done.returncode == 0 and " passed" in done.stdout, output[-8000:]
    return output
