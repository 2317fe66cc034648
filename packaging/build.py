"""Build the installers: ``python packaging/build.py [--skip-deb] [--budget-mb N]``.

On Linux: the one-folder bundle ``dist/portal-admin/``, ``dist/portal-admin-<version>-linux-
<arch>.tar.gz`` and ``dist/portal-admin_<version>_<debarch>.deb``. On Windows and macOS the same
spec makes the bundle; ``windows/portal-admin.iss`` and ``macos/make_dmg.sh`` wrap it.

The build fails when the bundle is larger than the size budget.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
WORK = ROOT / "build"
#: The bundle must stay below this many MiB (measured figure and margin in README).
SIZE_BUDGET_MB = 175

sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tools"))


def version() -> str:
    """The one version, from the package."""
    from portal_admin import __version__  # noqa: PLC0415

    return __version__


def size_mb(path: Path) -> float:
    """Total size of the files under ``path`` in MiB."""
    files = (p for p in path.rglob("*") if p.is_file() and not p.is_symlink())
    return sum(p.stat().st_size for p in files) / 2**20


def build_bundle(dist: Path, work: Path) -> Path:
    """Compile translations, run PyInstaller on the spec; returns the bundle folder."""
    import translations  # noqa: PLC0415 - tools/translations.py

    translations.compile_all()
    subprocess.run(  # noqa: S603
        [
            sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean",
            "--distpath", str(dist), "--workpath", str(work / "pyinstaller"),
            str(ROOT / "packaging" / "portal-admin.spec"),
        ],
        check=True,
    )  # fmt: skip
    return dist / "portal-admin"


def make_tarball(bundle: Path, ver: str) -> Path:
    """A .tar.gz of the bundle, beside it."""
    out = bundle.parent / f"portal-admin-{ver}-linux-{platform.machine()}.tar.gz"
    with tarfile.open(out, "w:gz") as tar:
        tar.add(bundle, arcname=f"portal-admin-{ver}")
    return out


DEB_ARCH = {"x86_64": "amd64", "aarch64": "arm64"}
#: System libraries the bundle does not carry (Qt's xcb platform, fonts, D-Bus for the keyring).
DEB_DEPENDS = (
    "libxcb-cursor0, libxcb-icccm4, libxcb-keysyms1, libxcb-image0, libxcb-render-util0, "
    "libxcb-xkb1, libxkbcommon-x11-0, libxcb-shape0, libxcb-randr0, libegl1, libgl1, "
    "libfontconfig1, libdbus-1-3"
)


def make_deb(bundle: Path, work: Path, ver: str) -> Path:
    """A .deb installing the bundle in /opt, a launcher, a desktop entry and an icon."""
    arch = DEB_ARCH.get(platform.machine(), platform.machine())
    stage = work / "deb"
    shutil.rmtree(stage, ignore_errors=True)
    shutil.copytree(bundle, stage / "opt" / "portal-admin", symlinks=True)
    (stage / "usr" / "bin").mkdir(parents=True)
    os.symlink("/opt/portal-admin/portal-admin", stage / "usr" / "bin" / "portal-admin")
    linux = ROOT / "packaging" / "linux"
    apps = stage / "usr" / "share" / "applications"
    icons = stage / "usr" / "share" / "icons" / "hicolor" / "scalable" / "apps"
    apps.mkdir(parents=True)
    icons.mkdir(parents=True)
    shutil.copy(linux / "portal-admin.desktop", apps)
    shutil.copy(ROOT / "resources" / "icons" / "portal-admin.svg", icons)
    installed_kb = int(size_mb(stage) * 1024)
    (stage / "DEBIAN").mkdir()
    (stage / "DEBIAN" / "control").write_text(
        f"Package: portal-admin\nVersion: {ver}\nArchitecture: {arch}\n"
        f"Maintainer: portal-admin developers <dev@portal-admin.invalid>\n"
        f"Installed-Size: {installed_kb}\nDepends: {DEB_DEPENDS}\nSection: admin\n"
        "Priority: optional\nDescription: System Portal administration\n"
        " Desktop administration program for the System Portal, with a built-in sandbox.\n"
    )
    out = bundle.parent / f"portal-admin_{ver}_{arch}.deb"
    subprocess.run(  # noqa: S603
        ["dpkg-deb", "--root-owner-group", "-Zxz", "--build", str(stage), str(out)],  # noqa: S607
        check=True,
    )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-deb", action="store_true")
    parser.add_argument("--budget-mb", type=float, default=SIZE_BUDGET_MB)
    parser.add_argument("--dist", type=Path, default=DIST, help="where the results go")
    parser.add_argument("--work", type=Path, default=WORK, help="PyInstaller's work folder")
    args = parser.parse_args(argv)
    ver = version()
    bundle = build_bundle(args.dist, args.work)
    size = size_mb(bundle)
    print(f"bundle: {bundle} {size:.1f} MiB (budget {args.budget_mb:g} MiB)")
    if size > args.budget_mb:
        print("the bundle exceeds its size budget", file=sys.stderr)
        return 1
    if sys.platform.startswith("linux"):
        print("archive:", make_tarball(bundle, ver))
        if not args.skip_deb and shutil.which("dpkg-deb"):
            print("package:", make_deb(bundle, args.work, ver))
    return 0


if __name__ == "__main__":
    sys.exit(main())
