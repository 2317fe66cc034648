"""The installers: build the PyInstaller bundle and the .deb, then run the frozen program.

Slow (about two minutes to build) but run by .ci/run: an installer that misses a keyring
backend, a Qt plugin or a translation fails on an administrator's machine, not here.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from portal_admin import __version__
from portal_admin.ui.panels import PanelRegistry

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow

if shutil.which("dpkg-deb") is None or not sys.platform.startswith("linux"):
    pytest.skip("the Linux installers need dpkg-deb (Debian)", allow_module_level=True)
pytest.importorskip("PyInstaller", reason="PyInstaller is in the test extra; not installed here")


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The build's output folder (bundle, .tar.gz, .deb), built once for the module."""
    out = tmp_path_factory.mktemp("dist")
    work = tmp_path_factory.mktemp("work")
    result = subprocess.run(
        [sys.executable, "packaging/build.py", "--dist", str(out), "--work", str(work)],
        cwd=ROOT, capture_output=True, text=True, timeout=1200, check=False,
    )  # fmt: skip
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    return out


def _env(tmp_path: Path) -> dict[str, str]:
    """Offscreen Qt and user folders of its own, so nothing touches the real ones."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        env[var] = str(tmp_path / var.lower())
    return env


def _panel_ids() -> set[str]:
    from portal_admin.ui.views import register_all

    return {spec.id for spec in register_all(PanelRegistry())}


def test_bundle_archive_and_package_are_built(dist: Path) -> None:
    assert (dist / "portal-admin" / "portal-admin").is_file()
    assert list(dist.glob(f"portal-admin-{__version__}-linux-*.tar.gz"))
    assert list(dist.glob(f"portal-admin_{__version__}_*.deb"))


def test_version(dist: Path, tmp_path: Path) -> None:
    exe = dist / "portal-admin" / "portal-admin"
    out = subprocess.run(
        [exe, "--version"], capture_output=True, text=True, env=_env(tmp_path), timeout=60
    )
    assert out.returncode == 0 and out.stdout.strip() == f"portal-admin {__version__}"


def test_every_translator_loads(dist: Path, tmp_path: Path) -> None:
    exe = dist / "portal-admin" / "portal-admin"
    out = subprocess.run(
        [exe, "--self-check"], capture_output=True, text=True, env=_env(tmp_path), timeout=60
    )
    assert out.returncode == 0, out.stderr[-2000:]
    report = json.loads(out.stdout)
    assert report["version"] == __version__
    assert {lang: r["ok"] for lang, r in report["translations"].items()} == dict.fromkeys(
        ("en", "zh", "zh-Hant", "ja", "vi"), True
    )
    for lang in ("zh", "zh-Hant", "ja", "vi"):  # the program's own and Qt's (ours for vi)
        assert report["translations"][lang]["program"] is True
        assert report["translations"][lang]["qtbase"] is True


def test_icons_travel_with_their_licence(dist: Path) -> None:
    from portal_admin.ui.icons import ICONS

    folders = list((dist / "portal-admin").rglob("portal_admin/ui/iconset"))
    assert len(folders) == 1, folders
    bundled = {p.stem for p in folders[0].glob("*.svg")}
    assert set(ICONS.values()) <= bundled, sorted(set(ICONS.values()) - bundled)
    assert "ISC License" in (folders[0] / "LICENSE").read_text(encoding="utf-8")


@pytest.mark.skipif(
    not (shutil.which("dbus-run-session") and shutil.which("gnome-keyring-daemon")),
    reason="needs gnome-keyring and dbus-run-session (installed by .ci/run)",
)
def test_keyring_backend_is_real_when_a_keyring_runs(dist: Path, tmp_path: Path) -> None:
    exe = dist / "portal-admin" / "portal-admin"
    script = (
        "echo -n PASS | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; "
        f"exec '{exe}' --self-check"
    )
    out = subprocess.run(
        ["dbus-run-session", "--", "sh", "-c", script],
        capture_output=True, text=True, env=_env(tmp_path), timeout=120, check=False,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    keyring = json.loads(out.stdout)["keyring"]
    assert keyring["fail"] is False and "SecretService" in keyring["backend"]


def test_frozen_tour_writes_every_panel(dist: Path, tmp_path: Path) -> None:
    exe = dist / "portal-admin" / "portal-admin"
    shots = tmp_path / "tour"
    out = subprocess.run(
        [exe, "--sandbox", "--tour", str(shots)],
        capture_output=True, text=True, env=_env(tmp_path), timeout=300, check=False,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-3000:]
    written = {p.stem for p in shots.glob("*.png")}
    assert _panel_ids() <= written, sorted(_panel_ids() - written)
    assert {"sign-in", "sign-in-mfa", "main-window"} <= written


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("dpkg") is None, reason="installing a .deb needs root"
)
def test_deb_installs_and_the_installed_program_starts(dist: Path, tmp_path: Path) -> None:
    deb = next(dist.glob("portal-admin_*.deb"))
    subprocess.run(["dpkg", "-i", str(deb)], check=True, capture_output=True, timeout=300)
    try:
        assert Path("/usr/share/applications/portal-admin.desktop").is_file()
        assert Path("/usr/share/icons/hicolor/scalable/apps/portal-admin.svg").is_file()
        shots = tmp_path / "tour"
        out = subprocess.run(
            ["/usr/bin/portal-admin", "--sandbox", "--tour", str(shots)],
            capture_output=True, text=True, env=_env(tmp_path), timeout=300, check=False,
        )  # fmt: skip
        assert out.returncode == 0, out.stderr[-3000:]
        assert _panel_ids() <= {p.stem for p in shots.glob("*.png")}
    finally:
        subprocess.run(["dpkg", "-r", "portal-admin"], check=False, capture_output=True)
