"""tools/compare_tours: a change's pixels are found, what varies between runs is not."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import compare_tours  # noqa: E402 - from tools/, as test_translations


def picture(path: Path, *marks: tuple[int, int, str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    image = QImage(20, 10, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    for x, y, colour in marks:
        image.setPixelColor(x, y, QColor(colour))
    assert image.save(str(path))


def test_the_change_is_found_and_the_runs_noise_is_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # (3, 4): a time that differs between runs, before as after; (10, 5): the change.
    picture(tmp_path / "b1" / "main.png", (3, 4, "red"))
    picture(tmp_path / "b2" / "main.png", (3, 4, "blue"))
    picture(tmp_path / "a1" / "main.png", (3, 4, "green"), (10, 5, "black"))
    picture(tmp_path / "a2" / "main.png", (3, 4, "black"), (10, 5, "black"))
    for folder in ("b1", "b2", "a1", "a2"):
        picture(tmp_path / folder / "dialog.png")
    picture(tmp_path / "b1" / "old.png")
    picture(tmp_path / "b2" / "old.png")
    picture(tmp_path / "a1" / "new.png")
    picture(tmp_path / "a2" / "new.png")
    found = compare_tours.compare(
        [tmp_path / "b1" / "main.png", tmp_path / "b2" / "main.png"],
        [tmp_path / "a1" / "main.png", tmp_path / "a2" / "main.png"],
    )
    assert found is not None and found.pixels == 1 and found.box == (10, 5, 10, 5)
    status = compare_tours.main(
        [
            f"{tmp_path / 'b1'},{tmp_path / 'b2'}",
            f"{tmp_path / 'a1'},{tmp_path / 'a2'}",
            "old.png=new.png",
        ]
    )
    out = capsys.readouterr().out
    assert status == 1
    assert "differs   main.png: 1 pixels in (10, 5, 10, 5)" in out
    assert "2 the same, 1 differing, 0 missing or new" in out


def test_the_same_pictures_pass(tmp_path: Path) -> None:
    for folder in ("b1", "a1"):
        picture(tmp_path / folder / "main.png", (1, 1, "red"))
    assert compare_tours.main([str(tmp_path / "b1"), str(tmp_path / "a1")]) == 0
    picture(tmp_path / "a1" / "extra.png")
    assert compare_tours.main([str(tmp_path / "b1"), str(tmp_path / "a1")]) == 1
