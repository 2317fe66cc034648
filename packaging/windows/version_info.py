"""The version resource of ``portal-admin.exe`` (Explorer, Properties, Details), from the
package's one version. The PyInstaller spec calls :func:`write` on Windows and passes the file as
``EXE(version=...)``."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def package_version() -> str:
    """``__version__`` of src/portal_admin, read as text (the build need not import it)."""
    text = (ROOT / "src" / "portal_admin" / "__init__.py").read_text(encoding="utf-8")
    found = re.search(r'^__version__ = "([^"]+)"', text, re.M)
    if found is None:
        raise SystemExit("src/portal_admin/__init__.py has no __version__")
    return found.group(1)


def numeric(version: str) -> tuple[int, int, int, int]:
    """The four numbers Windows keeps (``1.2.3rc1`` -> ``(1, 2, 3, 0)``)."""
    parts = [int(n) for n in re.findall(r"\d+", version.split("+")[0])[:3]]
    major, minor, patch = [*parts, 0, 0, 0][:3]
    return (major, minor, patch, 0)


def render(version: str) -> str:
    """The version file in PyInstaller's format (a VSVersionInfo expression)."""
    nums = numeric(version)
    fields = {
        "CompanyName": "portal-admin developers",
        "FileDescription": "Portal Admin",
        "FileVersion": version,
        "InternalName": "portal-admin",
        "LegalCopyright": "portal-admin developers, Apache-2.0",
        "OriginalFilename": "portal-admin.exe",
        "ProductName": "Portal Admin",
        "ProductVersion": version,
    }
    strings = ",\n".join(f"          StringStruct({k!r}, {v!r})" for k, v in fields.items())
    return f"""VSVersionInfo(
  ffi=FixedFileInfo(filevers={nums}, prodvers={nums}, mask=0x3f, flags=0x0, OS=0x40004,
    fileType=0x1, subtype=0x0, date=(0, 0)),
  kids=[
    StringFileInfo([StringTable('040904B0', [
{strings}
    ])]),
    VarFileInfo([VarStruct('Translation', [1033, 1200])])
  ]
)
"""


def write(out: Path) -> Path:
    """Write the version file of this checkout's version to ``out``; returns ``out``."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render(package_version()), encoding="utf-8")
    return out
