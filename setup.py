"""Compiles the Qt Linguist translations as part of every build and install (editable too), and
puts the third-party notices into the package when ``packaging/build.py`` made them
(``PORTAL_ADMIN_NOTICES``: a build environment holds no runtime dependency to list)."""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


def _translations_tool():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("translations", HERE / "tools/translations.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


class BuildPyWithTranslations(build_py):
    """build_py, then lrelease every .ts into the package's ui/i18n folder."""

    def run(self) -> None:
        super().run()
        tool = _translations_tool()
        if self.editable_mode:
            tool.compile_all()  # into the source tree, which the editable install points at
        else:
            tool.compile_all(Path(self.build_lib) / "portal_admin" / "ui" / "i18n")
            notices = os.environ.get("PORTAL_ADMIN_NOTICES")
            if notices:
                licences = Path(self.build_lib) / "portal_admin" / "licenses"
                licences.mkdir(parents=True, exist_ok=True)
                shutil.copy(notices, licences / "THIRD-PARTY-NOTICES.txt")


setup(cmdclass={"build_py": BuildPyWithTranslations})
