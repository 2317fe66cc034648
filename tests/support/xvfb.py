"""``xvfb-run`` for tests that start a real X server: a display and an auth file of their own.

``xvfb-run -a`` looks for a free display from :99 up by the lock files it sees, and keeps its
cookie in ``./.Xauthority``: two runs started together (another test, a colleague's run on a
shared machine) can take the same number, or overwrite one auth file, and then one program finds
no display ("could not connect to display :100"). Each run here starts its search at a number
of its own and keeps its cookie beside its other files.
"""

from __future__ import annotations

import os
import random
from pathlib import Path


def xvfb_run(workdir: Path, screen: str = "1280x1024x24") -> list[str]:
    """The start of an ``xvfb-run`` command line for a run whose files are in ``workdir``."""
    start = 100 + (os.getpid() * 7 + random.randrange(1000)) % 800
    return [
        "xvfb-run", "-a", "-n", str(start), "-f", str(workdir / ".Xauthority"),
        "-s", f"-screen 0 {screen}",
    ]  # fmt: skip
