"""The program's licence and the third-party notices that travel with an installed copy.

``packaging/notices.py`` writes ``licenses/THIRD-PARTY-NOTICES.txt`` into the package when the
wheel and the bundle are built (from the build environment's installed distributions); a
source checkout has none until then. No Qt here: the About window shows what this returns.
"""

from __future__ import annotations

from importlib import resources

#: The program's licence, as an SPDX expression (also in pyproject.toml and LICENSE).
LICENCE = "Apache-2.0"
LICENCE_NAME = "Apache License 2.0"
NOTICES_FILE = "THIRD-PARTY-NOTICES.txt"


def notices_text() -> str | None:
    """The third-party notices shipped with this copy, or None when it was not built with them
    (a source checkout or an editable install)."""
    try:
        path = resources.files("portal_admin").joinpath("licenses").joinpath(NOTICES_FILE)
        return path.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):
        return None
