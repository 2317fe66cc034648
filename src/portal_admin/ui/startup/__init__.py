"""Start-up and shut-down: options, the QApplication, the event-loop bridge, the probe,
the self-check, the log and the collector.

This package's ``__init__`` imports nothing: ``--version`` and ``--help`` load only
:mod:`options`, without Qt.
"""
