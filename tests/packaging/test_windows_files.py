"""The Windows build's own files, checked here without Windows: the icon drawn from the SVG,
the version resource, and the names the spec and the installer script refer to."""

from __future__ import annotations

import ast
import importlib.util
import re
import struct
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
WINDOWS = ROOT / "packaging" / "windows"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, WINDOWS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_icon_holds_every_size_as_png(qapp: object, tmp_path: Path) -> None:
    # On pytest-qt's QApplication: make_ico would otherwise make a QGuiApplication, which
    # the UI tests run after it in the same process cannot use.
    make_ico = _load("make_ico")
    out = make_ico.make_ico(tmp_path / "portal-admin.ico")
    data = out.read_bytes()
    reserved, kind, count = struct.unpack_from("<HHH", data)
    assert (reserved, kind, count) == (0, 1, len(make_ico.SIZES))
    for index, size in enumerate(make_ico.SIZES):
        width, height, _, _, planes, bits, length, offset = struct.unpack_from(
            "<BBBBHHII", data, 6 + 16 * index
        )
        assert (width or 256, height or 256, planes, bits) == (size, size, 1, 32)
        png = data[offset : offset + length]
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", png[16:24]) == (size, size)  # IHDR width, height
    assert offset + length == len(data)


def test_the_version_resource_is_the_packages_version(tmp_path: Path) -> None:
    from portal_admin import __version__

    version_info = _load("version_info")
    path = version_info.write(tmp_path / "version.txt")
    text = path.read_text(encoding="utf-8")
    ast.parse(text, mode="eval")  # PyInstaller evaluates it as one expression
    nums = version_info.numeric(__version__)
    assert f"filevers={nums}, prodvers={nums}" in text
    assert f"'FileVersion', '{__version__}'" in text
    assert f"'ProductVersion', '{__version__}'" in text
    assert version_info.numeric("1.2.3rc1+local") == (1, 2, 3, 0)
    assert version_info.numeric("7") == (7, 0, 0, 0)


def test_the_spec_names_no_file_the_repository_lacks() -> None:
    """The spec once named packaging/windows/portal-admin.ico, which never existed: no Windows
    build could succeed. Every path it builds from ROOT must exist (the macOS bundle's .icns
    is not checked here: it belongs to the macOS build, which has an issue of its own)."""
    spec = (ROOT / "packaging" / "portal-admin.spec").read_text(encoding="utf-8")
    for parts in re.findall(r'ROOT((?: / "[^"]+")+)', spec):
        path = ROOT.joinpath(*re.findall(r'"([^"]+)"', parts))
        if path.suffix == ".icns":
            continue
        assert path.exists(), f"the spec names {path.relative_to(ROOT)}, which does not exist"


def test_the_installer_script_installs_the_licence_and_the_notices() -> None:
    iss = (WINDOWS / "portal-admin.iss").read_text(encoding="utf-8")
    assert re.search(r"^LicenseFile=.*LICENSE", iss, re.M)
    assert "THIRD-PARTY-NOTICES.txt" in iss and "LICENSE.txt" in iss
    assert re.search(r"^VersionInfoVersion=", iss, re.M)
    assert re.search(r"^PrivilegesRequiredOverridesAllowed=.*commandline", iss, re.M)
    assert re.search(r'^Name: "\{group\}\\Portal Admin"', iss, re.M)
    for source in re.findall(r'^Source: "([^"]+)"', iss, re.M):
        if "dist\\" in source:
            continue  # the bundle, made by the build
        assert (WINDOWS / source.replace("\\", "/")).resolve().exists(), source


@pytest.mark.skipif(sys.platform == "win32", reason="the script is bash, run on Linux")
def test_wine_script_offers_every_step() -> None:
    script = (WINDOWS / "wine.sh").read_text(encoding="utf-8")
    steps = re.findall(r"^\s+([a-z-]+)\) ", script, re.M)
    assert set(steps) >= {
        "setup", "tests", "tour", "bundle", "frozen-check", "installer", "install",
        "self-check", "installed-tour", "uninstall", "all", "frozen-tour", "bench", "ci",
    }  # fmt: skip
