"""The main window (:class:`MainWindow`, the one window of a signed-in session) and what
serves it: the session's controller (:class:`Workspace`), the idle lock and unlocking, the
command palette and the About dialog.
"""
