"""Entry point of ``portal-admin``: parse options, then start Qt (only when needed)."""

from __future__ import annotations

import sys

from portal_admin.ui.startup.options import StartOptions, parse_args

#: The program's modules, imported in a worker thread while Qt starts (:func:`start`).
PROGRAM_MODULE = "portal_admin.ui.app"


def main(argv: list[str] | None = None) -> int:
    """Run the program; ``--version`` and ``--help`` return before Qt is imported."""
    options = parse_args(argv)
    isolate_tour(options)
    qt_argv = sys.argv[:1] + (argv if argv is not None else sys.argv[1:])
    if options.self_check:
        from portal_admin.ui.startup.self_check import run_self_check

        return run_self_check(qt_argv)
    return start(options, qt_argv)


def isolate_tour(options: StartOptions) -> None:
    """A tour keeps its profiles, data and log out of the person's folders: unless
    ``PORTAL_ADMIN_HOME`` is set, it points at a new temporary folder, removed at exit (on
    every system; the XDG variables would not move anything on Windows)."""
    import os

    from portal_admin.files.paths import HOME_ENV, home_override

    if options.tour is not None and home_override() is None:
        import atexit
        import tempfile

        home = tempfile.mkdtemp(prefix="portal-admin-tour-")
        os.environ[HOME_ENV] = home
        atexit.register(_remove_tour_home, home)


def _remove_tour_home(home: str) -> None:
    """Remove the tour's folder at exit, the log files in it closed first (Windows deletes no
    open file; logging's own shutdown would come after this)."""
    import logging
    import shutil

    known = logging.Logger.manager.loggerDict.values()
    loggers = [logging.getLogger(), *(x for x in known if isinstance(x, logging.Logger))]
    for logger in loggers:
        for handler in list(logger.handlers):
            name = getattr(handler, "baseFilename", "")
            if name and _inside(name, home):
                logger.removeHandler(handler)
                handler.close()
    shutil.rmtree(home, ignore_errors=True)


def _inside(path: str, folder: str) -> bool:
    """Whether ``path`` is in ``folder``: False for a path on another drive or a device
    (``NUL``), which ``os.path.commonpath`` refuses on Windows with ValueError."""
    import os

    try:
        return os.path.commonpath([os.path.abspath(path), folder]) == folder
    except ValueError:
        return False


def start(options: StartOptions, qt_argv: list[str]) -> int:
    """Make the QApplication while a worker thread imports the program's modules, then run.

    Only Qt's C++ work overlaps the imports (Python holds the interpreter lock either way):
    ~3 ms offscreen, more on X11, where making the QApplication takes ~35 ms
    (docs/performance.md, "Start-up")."""
    import contextlib
    import importlib
    import threading

    def preload() -> None:
        with contextlib.suppress(Exception):  # imported again below, where it is raised
            importlib.import_module(PROGRAM_MODULE)

    worker = threading.Thread(target=preload, name="portal-admin-preload", daemon=True)
    from portal_admin.ui.startup.qapp import create_qapp  # Qt is imported from here on

    worker.start()
    create_qapp(qt_argv)
    worker.join()
    from .app import run

    return run(options, qt_argv)


if __name__ == "__main__":
    sys.exit(main())
