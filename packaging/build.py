"""Build the installers: ``python packaging/build.py [--skip-deb] [--skip-wheel] [--budget-mb N]``.

On Linux: the wheel ``dist/portal_admin-<version>-py3-none-any.whl``, the one-folder bundle
``dist/portal-admin/``, ``dist/portal-admin-<version>-linux-<arch>.tar.gz`` and
``dist/portal-admin_<version>_<debarch>.deb``. Each carries ``LICENSE`` and the third-party notices
(``packaging/notices.py``); the .deb also a DEP-5 ``copyright``, a changelog, an AppStream
metainfo file and lintian overrides, each with its reason. On Windows and macOS the same spec
makes the bundle; ``windows/portal-admin.iss`` and ``macos/make_dmg.sh`` wrap it.

The build fails when the bundle is larger than the size budget.
"""

from __future__ import annotations

import argparse
import gzip
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import notices

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
WORK = ROOT / "build"
#: The bundle must stay below this many MiB (measured figure and margin in README).
SIZE_BUDGET_MB = 175

sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tools"))
LINUX = ROOT / "packaging" / "linux"
NOTICES = "THIRD-PARTY-NOTICES.txt"
#: The AppStream component id (reverse DNS); the desktop entry keeps its name, as launchable.
APPSTREAM_ID = "io.portal_admin.PortalAdmin"


def version() -> str:
    """The one version, from the package."""
    from portal_admin import __version__

    return __version__


def size_mb(path: Path) -> float:
    """Total size of the files under ``path`` in MiB."""
    files = (p for p in path.rglob("*") if p.is_file() and not p.is_symlink())
    return sum(p.stat().st_size for p in files) / 2**20


def build_bundle(dist: Path, work: Path) -> Path:
    """Compile translations, run PyInstaller on the spec; returns the bundle folder."""
    import translations

    translations.compile_all()
    subprocess.run(  # noqa: S603
        [
            sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean",
            "--distpath", str(dist), "--workpath", str(work / "pyinstaller"),
            str(ROOT / "packaging" / "portal-admin.spec"),
        ],
        check=True,
    )  # fmt: skip
    bundle = dist / "portal-admin"
    # Beside the executable too, where someone unpacking the .tar.gz looks for them.
    shipped = next(bundle.rglob(f"portal_admin/licenses/{NOTICES}"))
    shutil.copy(shipped, bundle / NOTICES)
    shutil.copy(ROOT / "LICENSE", bundle / "LICENSE")
    if sys.platform.startswith("linux"):
        tidy_elf(bundle)
    return bundle


def is_elf(path: Path) -> bool:
    """Whether ``path`` is an ELF file (a program or a shared library)."""
    with path.open("rb") as f:
        return f.read(4) == b"\x7fELF"


def tidy_elf(bundle: Path) -> None:
    """Drop the RUNPATHs that point into the build machine (PyInstaller copies the libraries
    as they were installed: a pyenv Python's point at its own lib/); shared libraries are not
    executable (0644), the program is (0755). The bootloader finds everything in _internal/."""
    patchelf = shutil.which("patchelf")
    if patchelf is None:
        print("patchelf is missing: the RUNPATHs into the build machine stay", file=sys.stderr)
    for path in sorted(bundle.rglob("*")):
        if path.is_symlink() or not path.is_file():
            continue
        if not is_elf(path):
            path.chmod(0o644)
            continue
        path.chmod(0o755 if path == bundle / "portal-admin" else 0o644)
        if patchelf is None:
            continue
        runpath = subprocess.run(  # noqa: S603
            [patchelf, "--print-rpath", str(path)], capture_output=True, text=True, check=False
        ).stdout.strip()
        kept = [p for p in runpath.split(":") if p and p.startswith("$ORIGIN")]
        if runpath and kept != runpath.split(":"):
            args = ["--set-rpath", ":".join(kept)] if kept else ["--remove-rpath"]
            subprocess.run([patchelf, *args, str(path)], check=True)  # noqa: S603


def make_wheel(dist: Path, work: Path) -> Path:
    """The wheel, with the third-party notices of this environment's runtime distributions."""
    listed = work / "wheel-notices" / NOTICES
    listed.parent.mkdir(parents=True, exist_ok=True)
    listed.write_text(notices.render(notices.collect()), encoding="utf-8")
    before = set(dist.glob("*.whl"))
    subprocess.run(  # noqa: S603
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(dist), str(ROOT)],
        check=True,
        env={**os.environ, "PORTAL_ADMIN_NOTICES": str(listed)},
    )
    return max(set(dist.glob("portal_admin-*.whl")) - before or dist.glob("portal_admin-*.whl"))


def make_tarball(bundle: Path, ver: str) -> Path:
    """A .tar.gz of the bundle, beside it."""
    out = bundle.parent / f"portal-admin-{ver}-linux-{platform.machine()}.tar.gz"
    with tarfile.open(out, "w:gz") as tar:
        tar.add(bundle, arcname=f"portal-admin-{ver}")
    return out


DEB_ARCH = {"x86_64": "amd64", "aarch64": "arm64"}
#: System libraries the bundle does not carry (Qt's xcb platform, fonts, D-Bus for the keyring);
#: libc6 is added with the newest symbol version the bundle's ELF files ask for.
DEB_DEPENDS = (
    "libxcb-cursor0, libxcb-icccm4, libxcb-keysyms1, libxcb-image0, libxcb-render-util0, "
    "libxcb-xkb1, libxkbcommon-x11-0, libxcb-shape0, libxcb-randr0, libegl1, libgl1, "
    "libfontconfig1, libdbus-1-3"
)
#: CJK glyphs for Chinese and Japanese; a Secret Service for the kept tokens and signing key.
DEB_RECOMMENDS = "fonts-noto-cjk, gnome-keyring | keepassxc"
MAINTAINER = "portal-admin developers <dev@portal-admin.invalid>"


def glibc_needed(bundle: Path) -> str:
    """The newest GLIBC_x.y symbol version any ELF file of the bundle requires."""
    found = {(2, 17)}
    objdump = shutil.which("objdump")  # binutils, which PyInstaller needs on Linux anyway
    if objdump is None:
        raise SystemExit("objdump (binutils) is needed to find the libc version the .deb needs")
    for path in bundle.rglob("*"):
        if path.is_symlink() or not path.is_file() or not is_elf(path):
            continue
        out = subprocess.run(  # noqa: S603
            [objdump, "-T", str(path)],
            capture_output=True,
            text=True,
            check=False,
        ).stdout
        for major, minor in re.findall(r"GLIBC_(\d+)\.(\d+)", out):
            found.add((int(major), int(minor)))
    major, minor = max(found)
    return f"{major}.{minor}"


def debian_changelog(ver: str) -> bytes:
    """packaging/linux/changelog (Debian format), whose newest entry must be this version."""
    text = (LINUX / "changelog").read_text(encoding="utf-8")
    top = re.match(r"portal-admin \(([^)]+)\)", text)
    if not top or top.group(1) != ver:
        raise SystemExit(f"packaging/linux/changelog: the newest entry is not {ver}")
    return gzip.compress(text.encode(), compresslevel=9, mtime=0)


#: The systemd user units the .deb installs (packaging/linux/systemd/).
USER_UNITS = (
    "portal-admin-forward.service",
    "portal-admin-forward-once.service",
    "portal-admin-forward.timer",
)


def make_deb(bundle: Path, work: Path, ver: str) -> Path:
    """A .deb installing the bundle in /opt, a launcher, a desktop entry and an icon."""
    arch = DEB_ARCH.get(platform.machine(), platform.machine())
    stage = work / "deb"
    shutil.rmtree(stage, ignore_errors=True)
    shutil.copytree(bundle, stage / "opt" / "portal-admin", symlinks=True)
    (stage / "usr" / "bin").mkdir(parents=True)
    os.symlink("/opt/portal-admin/portal-admin", stage / "usr" / "bin" / "portal-admin")
    # The command line is the same program started by another name (packaging/entry.py).
    os.symlink("/opt/portal-admin/portal-admin", stage / "usr" / "bin" / "portal-admin-cli")
    linux = ROOT / "packaging" / "linux"
    apps = stage / "usr" / "share" / "applications"
    icons = stage / "usr" / "share" / "icons" / "hicolor" / "scalable" / "apps"
    apps.mkdir(parents=True)
    icons.mkdir(parents=True)
    shutil.copy(linux / "portal-admin.desktop", apps)
    shutil.copy(ROOT / "resources" / "icons" / "portal-admin.svg", icons)
    share = stage / "usr" / "share"
    for folder in ("metainfo", "doc/portal-admin", "lintian/overrides", "man/man1"):
        (share / folder).mkdir(parents=True)
    shutil.copy(linux / f"{APPSTREAM_ID}.metainfo.xml", share / "metainfo")
    doc = share / "doc" / "portal-admin"
    modules = (work / "pyinstaller" / "portal-admin" / "bundled-modules.txt").read_text().split()
    listed = notices.collect(bundle=True, modules=modules)
    own = (ROOT / "LICENSE").read_text(encoding="utf-8")
    (doc / "copyright").write_text(notices.render_dep5(listed, own), encoding="utf-8")
    (doc / "changelog.gz").write_bytes(debian_changelog(ver))
    shutil.copy(linux / "portal-admin.lintian-overrides", share / "lintian/overrides/portal-admin")
    for name in ("portal-admin.1", "portal-admin-cli.1"):
        page = (linux / name).read_bytes()
        (share / f"man/man1/{name}.gz").write_bytes(gzip.compress(page, 9, mtime=0))
    # The journal's forwarding to a SIEM as a user service and timer (docs/siem.md).
    units = stage / "usr" / "lib" / "systemd" / "user"
    units.mkdir(parents=True)
    for unit in USER_UNITS:
        shutil.copy(linux / "systemd" / unit, units)
        (units / unit).chmod(0o644)
    for path in share.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    installed_kb = int(size_mb(stage) * 1024)
    (stage / "DEBIAN").mkdir()
    (stage / "DEBIAN" / "control").write_text(
        f"Package: portal-admin\nVersion: {ver}\nArchitecture: {arch}\n"
        f"Maintainer: {MAINTAINER}\nInstalled-Size: {installed_kb}\n"
        f"Depends: libc6 (>= {glibc_needed(stage / 'opt' / 'portal-admin')}), {DEB_DEPENDS}\n"
        f"Recommends: {DEB_RECOMMENDS}\nSection: admin\n"
        "Priority: optional\nDescription: System Portal administration\n"
        " Desktop administration program for the System Portal, with a built-in sandbox.\n"
        " Self-contained: Python, Qt and the libraries the program was tested with are\n"
        " installed in /opt/portal-admin.\n"
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
    parser.add_argument("--skip-wheel", action="store_true")
    parser.add_argument("--budget-mb", type=float, default=SIZE_BUDGET_MB)
    parser.add_argument("--dist", type=Path, default=DIST, help="where the results go")
    parser.add_argument("--work", type=Path, default=WORK, help="PyInstaller's work folder")
    args = parser.parse_args(argv)
    ver = version()
    if not args.skip_wheel:
        print("wheel:", make_wheel(args.dist, args.work))
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
