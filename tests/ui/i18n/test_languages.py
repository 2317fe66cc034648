"""The Qt-free language codes and the translators' languages are the same list."""

from __future__ import annotations

import subprocess
import sys

from portal_admin.ui.i18n import languages, translators


def test_the_codes_and_the_translators_languages_agree() -> None:
    assert tuple(translators.LANGUAGES) == languages.LANGUAGES


def test_the_codes_import_no_qt() -> None:
    code = (
        "import sys, portal_admin.ui.i18n.languages\n"
        "assert not [m for m in sys.modules if m.startswith(('PySide6', 'shiboken6'))]\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
