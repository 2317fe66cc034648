"""Helpers shared by several test suites (``tests/`` is on ``sys.path``: ``import support``).

- ``accounts``: the demo accounts every sandbox is seeded with.
- ``qt``: a qasync loop per test and user folders in tmp, for the suites that drive Qt.
- ``program``: the real program on an in-process sandbox, and its sign-in window.
- ``portal``: a ``PortalClient`` signed in to a sandbox.

``tests/contract`` does not use them: it is written from the documents alone.
"""
