"""Awaiting dialogs without nested event loops: ``open()`` and a Future set by ``finished``."""

from __future__ import annotations

import asyncio

from PySide6.QtWidgets import QDialog


async def ask(dialog: QDialog) -> int:
    """Open ``dialog`` (window-modal, no nested loop) and return its result code when done.

    If the awaiting task is cancelled, the dialog is rejected and closed.
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[int] = loop.create_future()

    def finished(result: int) -> None:
        if not future.done():
            future.set_result(result)

    dialog.finished.connect(finished)
    dialog.open()
    try:
        return await future
    except asyncio.CancelledError:
        dialog.reject()
        raise
    finally:
        dialog.finished.disconnect(finished)
