"""The installers: build the wheel, the PyInstaller bundle, the .tar.gz and the .deb, check
that each carries the licence and the third-party notices, run lintian, appstreamcli and
desktop-file-validate, then run the frozen program and the installed .deb.

Slow (about two minutes to build) but run by .ci/run: an installer that misses a keyring
backend, a Qt plugin or a translation fails on an administrator's machine, not here. .ci/run
builds the installers once, from the same checkout, for the start-up benchmark and these tests,
and names the folder in ``PORTAL_ADMIN_BUILT_DIST``; without it the tests build their own.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from portal_admin import __version__
from portal_admin.ui.panels.registry import PanelRegistry

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow

if shutil.which("dpkg-deb") is None or not sys.platform.startswith("linux"):
    pytest.skip("the Linux installers need dpkg-deb (Debian)", allow_module_level=True)
pytest.importorskip("PyInstaller", reason="PyInstaller is in the test extra; not installed here")


#: A folder packaging/build.py filled from this checkout (.ci/run's one build), if any.
BUILT_DIST = os.environ.get("PORTAL_ADMIN_BUILT_DIST")


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The build's output folder (bundle, .tar.gz, .deb, wheel), built once for the module
    (or the one .ci/run built)."""
    if BUILT_DIST:
        return Path(BUILT_DIST)
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
    env["PORTAL_ADMIN_HOME"] = str(tmp_path / "portal-admin")
    return env


def _tool(name: str) -> str:
    """The path of a checking tool; a missing one skips here and fails under CI=true, since
    .ci/run installs it (lintian, appstream, desktop-file-utils)."""
    found = shutil.which(name)
    if found is None:
        message = f"{name} is not installed (.ci/run installs it)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return found


def _deb(dist: Path) -> Path:
    return next(dist.glob(f"portal-admin_{__version__}_*.deb"))


def _deb_files(deb: Path, tmp_path: Path) -> Path:
    root = tmp_path / "deb"
    subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
    return root


def _panel_ids() -> set[str]:
    from portal_admin.ui.panels import register_all

    return {spec.id for spec in register_all(PanelRegistry())}


def test_bundle_archive_and_package_are_built(dist: Path) -> None:
    assert (dist / "portal-admin" / "portal-admin").is_file()
    assert list(dist.glob(f"portal-admin-{__version__}-linux-*.tar.gz"))
    assert list(dist.glob(f"portal-admin_{__version__}_*.deb"))


NOTICE_MARKS = (
    "PySide6_Essentials",
    "GNU LESSER GENERAL PUBLIC LICENSE",
    "LGPL-3.0, section 4(d)(1)",
)


def _assert_notices(text: str) -> None:
    for mark in (*NOTICE_MARKS, "cryptography", "httpx", "keyring"):
        assert mark in text, mark


def test_every_package_carries_the_licence_and_the_notices(dist: Path, tmp_path: Path) -> None:
    wheel = next(dist.glob(f"portal_admin-{__version__}-py3-none-any.whl"))
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        assert f"portal_admin-{__version__}.dist-info/licenses/LICENSE" in names
        meta = zf.read(f"portal_admin-{__version__}.dist-info/METADATA").decode()
        assert "License-Expression: Apache-2.0" in meta
        _assert_notices(zf.read("portal_admin/licenses/THIRD-PARTY-NOTICES.txt").decode())

    bundle = dist / "portal-admin"
    for folder in (bundle, bundle / "_internal" / "portal_admin" / "licenses"):
        assert "Apache License" in (folder / "LICENSE").read_text(encoding="utf-8")
        _assert_notices((folder / "THIRD-PARTY-NOTICES.txt").read_text(encoding="utf-8"))
    assert "Python" in (bundle / "THIRD-PARTY-NOTICES.txt").read_text(encoding="utf-8")

    archive = next(dist.glob(f"portal-admin-{__version__}-linux-*.tar.gz"))
    with tarfile.open(archive) as tar:
        names = set(tar.getnames())
    top = f"portal-admin-{__version__}"
    assert {f"{top}/LICENSE", f"{top}/THIRD-PARTY-NOTICES.txt"} <= names

    root = _deb_files(_deb(dist), tmp_path)
    _assert_notices((root / "opt/portal-admin/THIRD-PARTY-NOTICES.txt").read_text())
    doc = root / "usr/share/doc/portal-admin"
    copyright_ = (doc / "copyright").read_text(encoding="utf-8")
    assert copyright_.startswith("Format: https://www.debian.org/doc/packaging-manuals/")
    assert "License: Apache-2.0" in copyright_ and "License: LGPL-3.0-only" in copyright_
    changelog = gzip.decompress((doc / "changelog.gz").read_bytes()).decode()
    assert changelog.startswith(f"portal-admin ({__version__})")


def test_the_notices_list_every_distribution_the_bundle_carries(dist: Path) -> None:
    from importlib.metadata import packages_distributions

    bundle = dist / "portal-admin"
    text = (bundle / "THIRD-PARTY-NOTICES.txt").read_text(encoding="utf-8")
    owners = packages_distributions()
    for top in (bundle / "_internal").iterdir():
        for name in set(owners.get(top.name.split(".")[0], [])) - {"portal-admin"}:
            assert re.search(rf"^  {re.escape(name)} ", text, re.MULTILINE), name


def test_the_deb_declares_what_it_needs(dist: Path) -> None:
    fields = subprocess.run(
        ["dpkg-deb", "-f", str(_deb(dist)), "Depends", "Recommends"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert re.search(r"Depends: libc6 \(>= 2\.\d+\),", fields), fields
    assert "fonts-noto-cjk" in fields and "gnome-keyring" in fields


def test_every_lintian_override_says_why() -> None:
    lines = (ROOT / "packaging/linux/portal-admin.lintian-overrides").read_text().splitlines()
    for number, line in enumerate(lines):
        if line.strip() and not line.startswith("#"):
            assert number > 0 and lines[number - 1].startswith("# "), line


def test_lintian_finds_no_error_and_no_unexplained_warning(dist: Path) -> None:
    out = subprocess.run(
        [_tool("lintian"), "--tag-display-limit", "0", "--fail-on", "error,warning",
         str(_deb(dist))],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    complaints = [line for line in out.stdout.splitlines() if line[:2] in ("E:", "W:")]
    assert out.returncode == 0 and not complaints, (out.stdout + out.stderr)[-3000:]


def test_appstream_metainfo_and_desktop_entry_validate(dist: Path, tmp_path: Path) -> None:
    root = _deb_files(_deb(dist), tmp_path)
    (metainfo,) = (root / "usr/share/metainfo").glob("*.metainfo.xml")
    out = subprocess.run(
        [_tool("appstreamcli"), "validate", "--no-net", str(metainfo)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert out.returncode == 0, out.stdout + out.stderr
    desktop = root / "usr/share/applications/portal-admin.desktop"
    out = subprocess.run(
        [_tool("desktop-file-validate"), str(desktop)], capture_output=True, text=True
    )
    assert out.returncode == 0 and not out.stdout.strip(), out.stdout + out.stderr
    assert '<launchable type="desktop-id">portal-admin.desktop</launchable>' in (
        metainfo.read_text(encoding="utf-8")
    )


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
    from portal_admin.ui.theme.icons import ICONS

    folders = list((dist / "portal-admin").rglob("portal_admin/ui/theme/iconset"))
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


def _forwards_a_journal(cli: Path, tmp_path: Path) -> None:
    """``cli`` (the bundle started as portal-admin-cli) forwards a small journal to a file."""
    from portal_admin.evidence.journal import Journal

    journal = tmp_path / "fwd" / "journal.jsonl"
    writer = Journal(journal)
    for n in range(3):
        writer.append({"operation": "accounts.status", "outcome": "ok", "targets": [f"U{n}"]})
    out = tmp_path / "fwd" / "siem.jsonl"
    done = subprocess.run(
        [cli, "journal", "forward", "--once", "--format", "json", "--to", out.as_uri(),
         "--journal", str(journal)],
        capture_output=True, text=True, env=_env(tmp_path), timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert "3 record(s) and 0 checkpoint(s) sent" in done.stderr
    assert len(out.read_bytes().splitlines()) == 3


def test_the_bundle_started_as_portal_admin_cli_is_the_command_line(
    dist: Path, tmp_path: Path
) -> None:
    cli = tmp_path / "portal-admin-cli"
    cli.symlink_to(dist / "portal-admin" / "portal-admin")
    version = subprocess.run(
        [cli, "--version"], capture_output=True, text=True, env=_env(tmp_path), timeout=60
    )
    assert version.stdout.strip() == f"portal-admin-cli {__version__}", version.stderr
    _forwards_a_journal(cli, tmp_path)


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
def test_deb_installs_runs_and_purges_without_a_trace(dist: Path, tmp_path: Path) -> None:
    subprocess.run(["dpkg", "--purge", "portal-admin"], check=False, capture_output=True)
    assert not Path("/opt/portal-admin").exists(), "a previous portal-admin is installed"
    subprocess.run(["dpkg", "-i", str(_deb(dist))], check=True, capture_output=True, timeout=300)
    try:
        listed = subprocess.run(
            ["dpkg", "-L", "portal-admin"], capture_output=True, text=True, check=True
        ).stdout.splitlines()
        owned = [Path(p) for p in listed if p.startswith("/") and not Path(p).is_dir()]
        assert Path("/usr/share/applications/portal-admin.desktop") in owned
        assert Path("/usr/share/icons/hicolor/scalable/apps/portal-admin.svg") in owned
        assert Path("/usr/share/metainfo/io.portal_admin.PortalAdmin.metainfo.xml") in owned
        for unit in ("portal-admin-forward.service", "portal-admin-forward-once.service",
                     "portal-admin-forward.timer"):  # fmt: skip
            assert Path(f"/usr/lib/systemd/user/{unit}") in owned
        assert Path("/usr/bin/portal-admin-cli") in owned
        _forwards_a_journal(Path("/usr/bin/portal-admin-cli"), tmp_path)
        env = _env(tmp_path)
        version = subprocess.run(
            ["/usr/bin/portal-admin", "--version"], capture_output=True, text=True, env=env,
            timeout=60, check=False,
        )  # fmt: skip
        assert version.stdout.strip() == f"portal-admin {__version__}", version.stderr
        check = subprocess.run(
            ["/usr/bin/portal-admin", "--self-check"], capture_output=True, text=True, env=env,
            timeout=60, check=False,
        )  # fmt: skip
        assert check.returncode == 0, check.stderr[-2000:]
        assert all(r["ok"] for r in json.loads(check.stdout)["translations"].values())
        shots = tmp_path / "tour"
        out = subprocess.run(
            ["/usr/bin/portal-admin", "--sandbox", "--tour", str(shots)],
            capture_output=True, text=True, env=env, timeout=300, check=False,
        )  # fmt: skip
        assert out.returncode == 0, out.stderr[-3000:]
        assert _panel_ids() <= {p.stem for p in shots.glob("*.png")}
    finally:
        purge = subprocess.run(["dpkg", "--purge", "portal-admin"], capture_output=True)
    assert purge.returncode == 0, purge.stderr
    status = subprocess.run(["dpkg", "-s", "portal-admin"], capture_output=True, check=False)
    assert status.returncode != 0  # not even config-files remain
    left = [p for p in owned if p.exists() or p.is_symlink()]
    assert not left, left[:20]
    assert not Path("/opt/portal-admin").exists()  # nothing written beside the bundle either
