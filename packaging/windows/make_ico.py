"""Make the Windows icon (``.ico``) from the project's own icon, resources/icons/portal-admin.svg.

``python packaging/windows/make_ico.py OUT.ico``. The PyInstaller spec calls :func:`make_ico` on
Windows, so the repository keeps one icon (the SVG) and no generated binary. Each size is the SVG
drawn by Qt (which the build has anyway) and stored as PNG inside the ICO, as Windows Vista and
later read it.
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SVG = ROOT / "resources" / "icons" / "portal-admin.svg"
#: The sizes Windows asks for: Explorer's views, the taskbar, the title bar, the Start menu.
SIZES = (16, 24, 32, 48, 64, 128, 256)


def render_png(svg: Path, size: int) -> bytes:
    """``svg`` drawn at ``size`` x ``size`` pixels, transparent around, as PNG bytes."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _app = QGuiApplication.instance() or QGuiApplication([sys.argv[0]])
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"{svg}: not an SVG Qt can draw")
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    buffer.close()
    return bytes(data.data())


def ico_bytes(pngs: dict[int, bytes]) -> bytes:
    """An ICO file holding one PNG per size (ICONDIR, then ICONDIRENTRY each, then the data)."""
    header = struct.pack("<HHH", 0, 1, len(pngs))
    offset = len(header) + 16 * len(pngs)
    entries, blobs = b"", b""
    for size, png in sorted(pngs.items()):
        side = 0 if size >= 256 else size  # 0 means 256
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(png), offset)
        blobs += png
        offset += len(png)
    return header + entries + blobs


def make_ico(out: Path, svg: Path = SVG) -> Path:
    """Write ``out`` from ``svg``; returns ``out``."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(ico_bytes({size: render_png(svg, size) for size in SIZES}))
    return out


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    print(make_ico(Path(sys.argv[1])))
