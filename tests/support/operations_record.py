"""Which operations UI code sends: the record ``tests/ui/test_reachability.py`` checks.

Every operation the client sends while UI code is on the (coroutine) call chain is added to
:data:`SENT`, and appended to the file ``PORTAL_ADMIN_RECORD_OPS`` names when it is set (the
reachability test's own subprocess run). Set-up calls tests make directly through the client
are not counted.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

import pytest

#: The suites whose tests drive the program's controls.
UI_SUITES = ("tests/ui", "tests/kiosk")
#: Operation ids sent from UI code in this process.
SENT: set[str] = set()
_HOLDS_TESTS = re.compile(r"^\s*(async )?def test_", re.MULTILINE)
_UI_MARKER = os.sep + os.path.join("portal_admin", "ui") + os.sep


def called_from_ui(depth: int = 2) -> bool:
    """True when UI code is on the current (coroutine) call chain."""
    frame: FrameType | None = sys._getframe(depth)
    while frame is not None:
        if _UI_MARKER in frame.f_code.co_filename:
            return True
        frame = frame.f_back
    return False


@contextmanager
def recording(also_to: str | None = None) -> Iterator[None]:
    """Record into :data:`SENT` (and append to ``also_to``) while the block runs."""
    from portal_admin.client import transport

    original = transport.Transport.exchange

    async def exchange(self: transport.Transport, operation: object, **kwargs: object) -> object:
        from_ui = called_from_ui()
        result = await original(self, operation, **kwargs)  # type: ignore[arg-type]
        if from_ui:
            op_id: str = operation.id  # type: ignore[attr-defined]
            SENT.add(op_id)
            if also_to:
                with open(also_to, "a", encoding="utf-8") as out:
                    out.write(f"{op_id}\n")
        return result

    transport.Transport.exchange = exchange  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        transport.Transport.exchange = original  # type: ignore[method-assign]


def ui_test_files(root: Path) -> set[Path]:
    """Every file of the UI suites that holds tests (``test_*_support.py`` files hold none)."""
    return {
        path
        for suite in UI_SUITES
        for path in (root / suite).rglob("test_*.py")
        if _HOLDS_TESTS.search(path.read_text(encoding="utf-8"))
    }


def whole_ui_suites_run(session: pytest.Session) -> bool:
    """True when ``session`` runs every test of the UI suites: every file collected, none
    filtered by ``-k``, ``-m`` or ``--deselect``."""
    config = session.config
    if config.option.keyword or config.option.markexpr or config.getoption("deselect"):
        return False
    collected = {Path(item.path) for item in session.items}
    return ui_test_files(config.rootpath) <= collected
