"""Compare the pictures of two sets of tour runs (``portal-admin --tour DIR``): what a change
did to the window, free of what differs between any two runs (times, request ids, keys).

    python -m tools.compare_tours BEFORE1,BEFORE2 AFTER1,AFTER2 [old.png=new.png ...]

A pixel counts when every run before the change agrees on it, every run after agrees on it,
and before differs from after. Run the old and the new program at the same moments (the
sandbox's data is dated from now: two runs minutes apart show other times) and at least twice
each. ``old.png=new.png`` pairs pictures that were renamed. Prints each picture with the
number of pixels changed and their box, a picture missing on one side, and a summary; exit
status 1 when a picture differs or is missing. Needs PySide6 (QImage), nothing else.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtGui import QImage


@dataclass
class Difference:
    """What changed in one picture: how many pixels, in which box (x0, y0, x1, y1)."""

    pixels: int = 0
    box: tuple[int, int, int, int] | None = None


def _load(path: Path) -> tuple[int, int, int, bytes]:
    image = QImage(str(path)).convertToFormat(QImage.Format.Format_RGB32)
    return image.width(), image.height(), image.bytesPerLine(), image.constBits().tobytes()


def compare(befores: list[Path], afters: list[Path]) -> Difference | None:
    """The pixels every run before agrees on, every run after agrees on, and that differ
    between before and after; None when the pictures' sizes differ."""
    old = [_load(p) for p in befores]
    new = [_load(p) for p in afters]
    if len({image[:2] for image in old + new}) != 1:
        return None
    width, height, stride, _ = old[0]
    found = Difference()
    x0 = y0 = sys.maxsize
    x1 = y1 = -1
    for y in range(height):
        start, end = y * stride, y * stride + width * 4
        rows_old = [image[3][start:end] for image in old]
        rows_new = [image[3][start:end] for image in new]
        if rows_old[0] == rows_new[0]:
            continue
        for x in range(0, width * 4, 4):
            pixel_old, pixel_new = rows_old[0][x : x + 4], rows_new[0][x : x + 4]
            if pixel_old == pixel_new:
                continue
            if any(row[x : x + 4] != pixel_old for row in rows_old[1:]):
                continue  # varies between runs before: not the change's
            if any(row[x : x + 4] != pixel_new for row in rows_new[1:]):
                continue
            found.pixels += 1
            x0, x1, y0, y1 = min(x0, x // 4), max(x1, x // 4), min(y0, y), max(y1, y)
    if found.pixels:
        found.box = (x0, y0, x1, y1)
    return found


def main(argv: list[str] | None = None) -> int:
    """Print what differs picture by picture; 1 if anything does."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("before", help="the tour folders before the change, comma-separated")
    parser.add_argument("after", help="the tour folders after the change, comma-separated")
    parser.add_argument("renamed", nargs="*", help="old.png=new.png: a picture renamed")
    args = parser.parse_args(argv)
    befores = [Path(p) for p in args.before.split(",")]
    afters = [Path(p) for p in args.after.split(",")]
    renamed = dict(pair.split("=", 1) for pair in args.renamed)
    names = sorted(p.name for p in befores[0].glob("*.png"))
    seen = set()
    same = differing = missing = 0
    for name in names:
        other = renamed.get(name, name)
        seen.add(other)
        label = name if other == name else f"{name} -> {other}"
        old = [folder / name for folder in befores]
        new = [folder / other for folder in afters]
        if not all(path.exists() for path in old + new):
            print(f"missing   {label}")
            missing += 1
            continue
        found = compare(old, new)
        if found is None:
            print(f"size      {label}")
            differing += 1
        elif found.pixels:
            print(f"differs   {label}: {found.pixels} pixels in {found.box}")
            differing += 1
        else:
            same += 1
    for path in sorted(afters[0].glob("*.png")):
        if path.name not in seen:
            print(f"new       {path.name}")
            missing += 1
    print(f"{same} the same, {differing} differing, {missing} missing or new")
    return 1 if differing or missing else 0


if __name__ == "__main__":
    sys.exit(main())
