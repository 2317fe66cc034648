"""Ctrl+C pauses a running job where the event loop takes no signal handler (Windows' loop
raises NotImplementedError): cli/running.interrupts_pause falls back to a plain handler that
hands the pause to the loop. Emulated here; the end-to-end Ctrl+C test runs on POSIX."""

from __future__ import annotations

import asyncio
import signal
import sys

import pytest

from portal_admin import jobs
from portal_admin.cli.running import interrupts_pause


class Runner:
    def __init__(self) -> None:
        self.paused = False
        self.reasons: list[jobs.PauseReason] = []

    def pause(self, reason: jobs.PauseReason) -> None:
        self.paused = True
        self.reasons.append(reason)


def test_ctrl_c_pauses_on_a_loop_without_signal_handlers(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: asyncio.AbstractEventLoop, *args: object) -> None:
        raise NotImplementedError

    if sys.platform != "win32":  # Windows' own loop refuses by itself
        monkeypatch.setattr(asyncio.SelectorEventLoop, "add_signal_handler", refuse)
    missed: list[int] = []  # a Ctrl+C the code under test did not take (not KeyboardInterrupt)
    before = signal.signal(signal.SIGINT, lambda sig, _frame: missed.append(sig))
    runner = Runner()

    async def run() -> None:
        with interrupts_pause(runner):  # type: ignore[arg-type]
            signal.raise_signal(signal.SIGINT)
            for _ in range(50):
                await asyncio.sleep(0.01)
                if runner.paused:
                    break

    try:
        asyncio.run(run())
        assert missed == [] and runner.reasons == [jobs.PauseReason.BY_USER]
        assert signal.getsignal(signal.SIGINT) is not before  # the one set above, put back
        signal.raise_signal(signal.SIGINT)
        assert missed == [signal.SIGINT]
    finally:
        signal.signal(signal.SIGINT, before)
