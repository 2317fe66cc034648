"""A keyring backend kept in a JSON file named by ``REVIEW_TEST_KEYRING`` (tests only): the
command line in a subprocess keeps its installation key there, never in the real keyring.
Selected with ``PYTHON_KEYRING_BACKEND=file_keyring.FileKeyring`` and this folder on
``PYTHONPATH``."""

from __future__ import annotations

import json
import os
from pathlib import Path

from keyring.backend import KeyringBackend


class FileKeyring(KeyringBackend):
    """Passwords in a JSON file."""

    priority = 1  # type: ignore[assignment]

    def _path(self) -> Path:
        return Path(os.environ["REVIEW_TEST_KEYRING"])

    def _load(self) -> dict[str, str]:
        try:
            return dict(json.loads(self._path().read_text(encoding="utf-8")))
        except FileNotFoundError:
            return {}

    def get_password(self, service: str, username: str) -> str | None:
        return self._load().get(f"{service}/{username}")

    def set_password(self, service: str, username: str, password: str) -> None:
        values = self._load()
        values[f"{service}/{username}"] = password
        self._path().write_text(json.dumps(values), encoding="utf-8")

    def delete_password(self, service: str, username: str) -> None:
        values = self._load()
        values.pop(f"{service}/{username}", None)
        self._path().write_text(json.dumps(values), encoding="utf-8")
