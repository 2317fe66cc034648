"""The program in a real X11 window (xcb) under Xvfb: the sign-in window appears, and the tour
writes pictures that are not blank."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from support.xvfb import xvfb_run

pytestmark = [
    pytest.mark.skipif(
        shutil.which("xvfb-run") is None,
        reason="xvfb-run is not installed (apt-get install xvfb xauth; .ci/run does it)",
    ),
    pytest.mark.skipif(sys.platform != "linux", reason="Xvfb runs on Linux only"),
]

#: Starts the program, waits for its sign-in window (xdotool when present), then SIGTERM.
FIND_WINDOW = r"""
"$PY" -m portal_admin.ui.main --sandbox & pid=$!
found=""
for i in $(seq 1 120); do
  if command -v xdotool >/dev/null; then
    found=$(xdotool search --onlyvisible --name "Sign in" 2>/dev/null | head -1)
  fi
  [ -n "$found" ] && break
  sleep 0.25
done
[ -n "$found" ] && echo "title: $(xdotool getwindowname "$found")"
kill -TERM $pid
wait $pid
echo "exit: $?"
"""


def xvfb_env(tmp_path: Path) -> dict[str, str]:
    env = dict(
        os.environ,
        QT_QPA_PLATFORM="xcb",
        PY=sys.executable,
        XDG_CONFIG_HOME=str(tmp_path / "c"),
        PORTAL_ADMIN_HOME=str(tmp_path / "portal-admin"),
        XDG_STATE_HOME=str(tmp_path / "s"),
        XDG_DATA_HOME=str(tmp_path / "d"),
    )
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    return env


def colours(path: Path) -> int:
    """How many distinct colours a sample of the picture has (1: blank)."""
    image = QImage(str(path))
    assert not image.isNull(), path
    step = max(1, min(image.width(), image.height()) // 40)
    seen = {
        image.pixel(x, y)
        for x in range(0, image.width(), step)
        for y in range(0, image.height(), step)
    }
    return len(seen)


@pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")
def test_sign_in_window_appears_on_x11(tmp_path: Path) -> None:
    result = subprocess.run(
        [*xvfb_run(tmp_path), "bash", "-c", FIND_WINDOW],
        capture_output=True,
        text=True,
        env=xvfb_env(tmp_path),
        timeout=120,
        check=False,
    )
    assert "title: Sign in" in result.stdout, result.stdout + result.stderr[-2000:]
    assert "exit: 0" in result.stdout  # SIGTERM ends it cleanly


@pytest.mark.slow
def test_tour_in_a_real_window(tmp_path: Path) -> None:
    tour = tmp_path / "tour"
    result = subprocess.run(
        [
            *xvfb_run(tmp_path),
            sys.executable,
            "-m",
            "portal_admin.ui.main",
            "--sandbox",
            "--tour",
            str(tour),
        ],
        capture_output=True,
        text=True,
        env=xvfb_env(tmp_path),
        timeout=240,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    for name in ("sign-in", "sign-in-mfa", "main-window", "about", "error-dialog", "locked"):
        path = tour / f"{name}.png"
        assert path.is_file(), name
        assert colours(path) > 8, f"{name}.png looks blank"
