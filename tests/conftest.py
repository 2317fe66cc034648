"""Test-wide set-up: offscreen Qt, and user folders redirected to a temporary place.

Set before anything imports Qt or platformdirs, so that no test reads or writes the real
user's configuration, data, cache or logs.

``tests/`` has no ``__init__.py``: pytest puts it on ``sys.path`` when it loads this file, so
every suite can ``import support`` (``tests/support/``, the helpers several suites share).
"""

from __future__ import annotations

import os
import tempfile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
_HOME = tempfile.mkdtemp(prefix="portal-admin-tests-")
for _var, _sub in (
    ("XDG_CONFIG_HOME", "config"),
    ("XDG_DATA_HOME", "data"),
    ("XDG_CACHE_HOME", "cache"),
    ("XDG_STATE_HOME", "state"),
):
    os.environ[_var] = os.path.join(_HOME, _sub)
