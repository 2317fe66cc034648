"""A stable ``X-Client-Hash`` per installation (not a secret)."""

from __future__ import annotations

import contextlib
import hashlib
import uuid
from pathlib import Path

from portal_admin.files.paths import data_dir

_FILE_NAME = "installation-id"


def _default_path() -> Path:
    return data_dir() / _FILE_NAME


def installation_fingerprint(path: str | Path | None = None) -> str:
    """SHA-256 hex of a random installation id, created once and kept in ``path``."""
    target = Path(path) if path is not None else _default_path()
    installation_id = ""
    with contextlib.suppress(OSError):
        installation_id = target.read_text(encoding="utf-8").strip()
    if not installation_id:
        installation_id = uuid.uuid4().hex
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(installation_id + "\n", encoding="utf-8")
        except OSError:
            pass  # an unwritable data folder: stable for this process only
    return hashlib.sha256(f"portal-admin:{installation_id}".encode()).hexdigest()
