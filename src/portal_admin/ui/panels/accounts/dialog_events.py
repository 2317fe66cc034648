"""Await what happens to a dialog that stays open across submits (no nested event loop)."""

from __future__ import annotations

import asyncio

from PySide6.QtWidgets import QDialog

SUBMIT = "submit"
CLOSED = "closed"


class DialogEvents:
    """Queues a dialog's ``submitRequested`` and ``finished`` signals for a coroutine.

    Create it before ``open()`` so that nothing is missed.
    """

    def __init__(self, dialog: QDialog) -> None:
        self._dialog = dialog
        self._queue: asyncio.Queue[str] = asyncio.Queue()
        dialog.submitRequested.connect(self._submitted)  # type: ignore[attr-defined]
        dialog.finished.connect(self._finished)

    def _submitted(self) -> None:
        self._queue.put_nowait(SUBMIT)

    def _finished(self, _result: int) -> None:
        self._queue.put_nowait(CLOSED)

    async def next_submit(self) -> bool:
        """True at the next submit; False once the dialog has closed."""
        try:
            event = await self._queue.get()
        except asyncio.CancelledError:
            self._dialog.reject()
            raise
        if event == CLOSED:
            self._queue.put_nowait(CLOSED)  # stays closed for later calls
            return False
        return True

    def disconnect(self) -> None:
        """Stop listening."""
        self._dialog.submitRequested.disconnect(self._submitted)  # type: ignore[attr-defined]
        self._dialog.finished.disconnect(self._finished)
