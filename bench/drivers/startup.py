"""Start-up driver: ``python -m bench.drivers.startup baseline|stack|app``.

``baseline``: the minimal PySide6 program, one window with a label. ``stack``: the same on our
stack's floor: a qasync loop and the ``Qt`` namespace touched (a centred label), as any
program of ours must. ``app``: the real ``portal-admin`` entry point
(``portal_admin.ui.main.main``) in this interpreter (for profiling; the benchmark launches the
installed launchers themselves). All end on the first loop turn after the first window shows
(``portal_admin.ui.startup.probe``: a zero-delay timer looks for an exposed window on every
turn; the program installs it when ``PORTAL_ADMIN_STARTUP_PROBE=1``).
"""

from __future__ import annotations

import os
import sys


def baseline() -> int:
    """The minimal PySide6 program."""
    from PySide6.QtWidgets import QApplication, QLabel

    from portal_admin.ui.startup.probe import install

    qapp = QApplication(sys.argv[:1])
    install(qapp)
    label = QLabel("Hello")
    label.resize(400, 300)
    label.show()
    return qapp.exec()


def stack() -> int:
    """The minimal program on our stack: PySide6 on a qasync loop, the Qt namespace used."""
    import asyncio

    import qasync
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication, QLabel

    from portal_admin.ui.startup.probe import install

    qapp = QApplication(sys.argv[:1])
    install(qapp)

    async def main() -> None:
        label = QLabel("Hello")
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        label.resize(400, 300)
        label.show()
        await asyncio.Event().wait()

    qasync.run(main())
    return 0


def app() -> int:
    """The program, launched as a person launches it (no arguments), with the probe on."""
    from portal_admin.ui.main import main
    from portal_admin.ui.startup.qapp import PROBE_ENV

    os.environ[PROBE_ENV] = "1"

    return main([])


def profiled(run: object) -> int:
    """Run under pyinstrument; the text profile goes to $PORTAL_ADMIN_BENCH_PROFILE when the
    first window is up (the watcher's ``on_ready`` hook of this module)."""
    from pyinstrument import Profiler

    from portal_admin.ui.startup import probe as startup_probe

    profiler = Profiler(interval=0.0005)
    target = os.environ["PORTAL_ADMIN_BENCH_PROFILE"]

    def write() -> None:
        profiler.stop()
        with open(target, "w") as out:
            out.write(profiler.output_text(unicode=False, color=False, show_all=False))
        os._exit(0)

    startup_probe.ON_READY = write
    profiler.start()
    return run()  # type: ignore[operator, no-any-return]


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else "baseline"
    chosen = {"baseline": baseline, "stack": stack}.get(mode, app)
    sys.exit(profiled(chosen) if os.environ.get("PORTAL_ADMIN_BENCH_PROFILE") else chosen())
