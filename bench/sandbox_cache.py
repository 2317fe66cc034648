"""Seeded sandbox databases, cached between runs under the temporary folder.

Seeding 100,000 accounts takes a while (about 15 s on 2 cores), so each size is seeded once
into ``<tmp>/portal-admin-bench/sandbox-<n>-<hash>.sqlite3``, where the hash covers the
sandbox's source files (a changed schema or seed makes a new file). Each use gets a fresh copy.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path

import portal_admin.sandbox as sandbox_package

CACHE = Path(tempfile.gettempdir()) / "portal-admin-bench"
ACCESS_CODE = "SANDBOX"


def _source_hash() -> str:
    root = Path(sandbox_package.__file__).parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def seeded(accounts: int) -> Path:
    """The cached database seeded with ``accounts`` generated accounts (seeded if missing)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / f"sandbox-{accounts}-{_source_hash()}.sqlite3"
    if path.exists():
        return path
    from portal_admin.sandbox import SandboxConfig, create_app

    # A name of this process's own: two runs seeding at once do not share a file.
    partial = path.with_suffix(f".{os.getpid()}.partial")
    for stale in (partial, *(Path(f"{partial}{s}") for s in ("-wal", "-shm"))):
        stale.unlink(missing_ok=True)
    app = create_app(
        SandboxConfig(
            db=str(partial),
            seed_accounts=accounts,
            test_clock=True,
            portal_access_code=ACCESS_CODE,
        )
    )
    db = app.state.sandbox.db
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("PRAGMA journal_mode=DELETE")
    db.close()
    os.replace(partial, path)
    return path


def fresh_copy(accounts: int, target: Path) -> Path:
    """A private copy of the seeded database at ``target`` (a file path)."""
    source = seeded(accounts)
    target.parent.mkdir(parents=True, exist_ok=True)
    for suffix in ("-wal", "-shm"):
        Path(f"{target}{suffix}").unlink(missing_ok=True)
    shutil.copyfile(source, target)
    return target
