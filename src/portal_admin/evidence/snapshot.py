"""Access-review snapshots: what an access review needs, read from the server into one file.

A snapshot is a SQLite file: every account (page by page), the roles with their permission
codes and member counts (when the server gives them), the invitations, the IP whitelist, the
MFA settings and the backup-code summary, the session configuration, the notification channel
types and channels (never a channel's configuration: it may hold a password), and the constant
lists that label them; plus who took it, where, when, with which program.

Only read operations are sent, so a read-only (kiosk) client takes snapshots too. The file is
written beside its final name and renamed into place only once complete (committed and
fsynced): an interrupted snapshot (a cancel, a dropped connection, a kill) leaves no file that
looks complete. :func:`open_snapshot` refuses a file that is not a complete snapshot.

A snapshot passes from hand to hand (a colleague's, last quarter's, one attached to a ticket),
so a snapshot file is data, not a database to obey (``files/sqlite_data.py``): its schema rows
must be exactly the ones this program writes (a trigger, a view, a ``sqlite_stat*`` table or
an extra index is refused by name: FOREIGN_SQL; one of ours defined otherwise: SCHEMA), every
connection to it is hardened with a time budget on every statement (TOO_SLOW), and before its
rows are used (:meth:`Snapshot.connect`, :func:`check_attached` for a file attached to a diff,
a campaign's creation or its closing check) ``PRAGMA integrity_check`` runs in the same read
transaction as the reads (a forged index is DAMAGED). Listing a folder checks the schema and
reads the metadata, without the integrity check: the list only shows what the files say.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from portal_admin import __version__
from portal_admin.client import PortalClient
from portal_admin.files import sqlite_data
from portal_admin.files.atomic import fsync_dir
from portal_admin.files.paths import data_dir
from portal_admin.files.portable import fsync_path

SCHEMA_VERSION = 1
KIND = "portal-admin access-review snapshot"
PAGE = 100
#: Account pages asked for ahead of the one being written.
AHEAD = 2
#: The constant lists that label what a snapshot holds.
CONSTANT_LISTS = (
    "user_account_statuses",
    "user_portal_types",
    "user_invitation_statuses",
    "notification_channel_statuses",
    "notification_channel_type_statuses",
)

Progress = Callable[[str, int, int], object]

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE accounts (
    id TEXT PRIMARY KEY, email TEXT, name TEXT, status TEXT, portal TEXT, institution TEXT,
    language TEXT, timezone TEXT, country TEXT, remark TEXT, created TEXT, updated TEXT
);
CREATE TABLE roles (
    id TEXT PRIMARY KEY, name TEXT, type TEXT, description TEXT, permissions TEXT,
    member_count INTEGER
);
CREATE TABLE invitations (
    id TEXT PRIMARY KEY, email TEXT, status TEXT, workspace TEXT, inviter TEXT, created TEXT,
    expires TEXT
);
CREATE TABLE whitelist (entry TEXT PRIMARY KEY);
CREATE TABLE mfa (method TEXT PRIMARY KEY, enabled INTEGER, is_primary INTEGER, verified TEXT);
CREATE TABLE channel_types (
    id TEXT PRIMARY KEY, code TEXT, name TEXT, status TEXT, enabled INTEGER
);
CREATE TABLE channels (
    id TEXT PRIMARY KEY, name TEXT, category TEXT, status TEXT, active INTEGER,
    is_default INTEGER, institution TEXT
);
CREATE TABLE constants (list TEXT, code TEXT, value INTEGER, label TEXT,
    PRIMARY KEY (list, code));
"""


#: Seconds any one statement on a snapshot file may take (a 100,000-account diff takes one).
STATEMENT_BUDGET = 120.0
#: Every code of :class:`SnapshotError` (each has its sentence in the desktop).
CODES = (
    "NOT_FOUND", "NOT_A_SNAPSHOT", "INCOMPLETE", "NEWER_SCHEMA", "FOREIGN_SQL", "SCHEMA",
    "DAMAGED", "TOO_SLOW", "CHANGED",
)  # fmt: skip


class SnapshotError(Exception):
    """A file that cannot be used as a snapshot. ``code``: NOT_FOUND, NOT_A_SNAPSHOT,
    INCOMPLETE, NEWER_SCHEMA; FOREIGN_SQL (a trigger, a view, a statistics table or another
    object no snapshot has), SCHEMA (a table or index of ours missing or defined otherwise),
    DAMAGED (the integrity check fails), TOO_SLOW (past its time budget), CHANGED (the file
    changed between its opening and its use)."""

    def __init__(self, code: str, message: str, path: Path | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.path = path


@dataclass(frozen=True, slots=True)
class Snapshot:
    """An opened snapshot file and its metadata."""

    path: Path
    meta: dict[str, Any]

    def connect(self, budget: float = STATEMENT_BUDGET) -> sqlite3.Connection:
        """A hardened read-only connection to the file, checked (:func:`check_attached`)
        inside the read transaction it is left in: what is then read is what was checked.
        ``SnapshotError`` when the file is no longer this snapshot."""
        conn = sqlite_data.read_only(self.path, budget)
        try:
            conn.execute("BEGIN")
            check_attached(conn, "main", self)
        except BaseException:
            conn.close()
            raise
        conn.row_factory = sqlite3.Row
        return conn

    def counts(self) -> dict[str, int]:
        """Rows per table."""
        return {k: int(v) for k, v in self.meta.get("counts", {}).items()}


def default_folder() -> Path:
    """Where the desktop program keeps its snapshots (the user data folder)."""
    return data_dir() / "snapshots"


def file_name(server: str, when: datetime | None = None) -> str:
    """A snapshot's file name: the server's host and the time (UTC, to the ms), sortable."""
    host = urlsplit(server).hostname or "server"
    safe = "".join(ch if ch.isalnum() or ch in "-." else "-" for ch in host)
    when = when or datetime.now(UTC)
    stamp = when.strftime("%Y%m%dT%H%M%S") + f".{when.microsecond // 1000:03d}Z"
    return f"snapshot-{safe}-{stamp}.sqlite"


def new_path(folder: Path, server: str) -> Path:
    """A file name in ``folder`` for a snapshot of ``server`` taken now, not used yet."""
    path = folder / file_name(server)
    n = 1
    while path.exists():
        n += 1
        path = path.with_name(f"{file_name(server).removesuffix('.sqlite')}-{n}.sqlite")
    return path


def list_snapshots(folder: Path | None = None) -> list[Snapshot]:
    """The complete snapshots in ``folder``, newest first (others are left out)."""
    found = []
    for path in (folder or default_folder()).glob("*.sqlite"):
        try:
            found.append(open_snapshot(path))
        except SnapshotError:
            continue
    found.sort(key=lambda s: (str(s.meta.get("finished", "")), s.path.name), reverse=True)
    return found


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def _code(item: Any) -> str | None:
    return item.code if item is not None else None


async def take_snapshot(
    client: PortalClient,
    path: Path,
    *,
    profile: str = "",
    server: str = "",
    account: str = "",
    progress: Progress | None = None,
) -> Snapshot:
    """Read everything an access review needs into a new snapshot file at ``path``.

    Cancel by cancelling the task: nothing is left at ``path``.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.partial")
    tmp.unlink(missing_ok=True)
    conn = sqlite3.connect(tmp, isolation_level=None)
    done = False
    try:
        # No rollback journal and no fsync until the end: the file is a draft, renamed into place
        # only once complete (and fsynced), so a crash leaves nothing that opens as a snapshot.
        conn.execute("PRAGMA journal_mode=OFF")
        conn.execute("PRAGMA synchronous=OFF")  # one fsync of the whole file, at the end
        conn.executescript("BEGIN;" + SCHEMA)  # one transaction, the schema included
        started = _now()

        def tell(stage: str, n: int, total: int) -> None:
            if progress is not None:
                progress(stage, n, total)

        counts: dict[str, int] = {}
        counts["accounts"] = await _accounts(client, conn, tell)
        roles = await client.roles.list()
        _insert(
            conn,
            "roles",
            (
                (
                    r.biz_id,
                    r.role_name,
                    _code(r.role_type),
                    r.description,
                    json.dumps(sorted(r.permission_codes)),
                    r.member_count,
                )
                for r in roles
            ),
        )
        counts["roles"] = len(roles)
        tell("roles", len(roles), len(roles))
        invitations = await client.invitations.list()
        _insert(
            conn,
            "invitations",
            (
                (
                    i.biz_id,
                    i.invitee_email,
                    _code(i.invitation_status),
                    i.workspace_biz_id,
                    i.inviter_name,
                    _iso(i.created_at),
                    _iso(i.expires_at),
                )
                for i in invitations
            ),
        )
        counts["invitations"] = len(invitations)
        tell("invitations", len(invitations), len(invitations))
        whitelist = await client.security.ip_whitelist()
        entries = sorted({e.ip for e in whitelist.entries})
        _insert(conn, "whitelist", ((e,) for e in entries))
        counts["whitelist"] = len(entries)
        mfa = await client.security.mfa_settings()
        _insert(
            conn,
            "mfa",
            (
                (_code(m.mfa_method), int(m.is_enabled), int(m.is_primary), _iso(m.verified_at))
                for m in mfa
            ),
        )
        counts["mfa"] = len(mfa)
        codes = await client.security.backup_codes()
        config = await client.security.sessions_config()
        tell("security", 1, 1)
        types = [t async for t in client.notifications.iterate_channel_types(size=PAGE)]
        _insert(
            conn,
            "channel_types",
            (
                (t.biz_id, t.type_code, t.type_name, _code(t.type_status), _int(t.enabled))
                for t in types
            ),
        )
        counts["channel_types"] = len(types)
        channels = [c async for c in client.notifications.iterate_channels(size=PAGE)]
        _insert(
            conn,
            "channels",
            (
                (
                    c.biz_id,
                    c.channel_name,
                    _code(c.channel_category),
                    _code(c.channel_status),
                    _int(c.active),
                    _int(c.is_default),
                    c.institution_biz_id,
                )
                for c in channels
            ),
        )
        counts["channels"] = len(channels)
        tell("notifications", len(types) + len(channels), len(types) + len(channels))
        labels = 0
        for name in CONSTANT_LISTS:
            items = await getattr(client.constants, name)()
            _insert(conn, "constants", ((name, i.code, i.value, i.label) for i in items))
            labels += len(items)
        counts["constants"] = labels
        meta = {
            "kind": KIND,
            "schema": SCHEMA_VERSION,
            "program_version": __version__,
            "profile": profile,
            "server": server or str(client.base_url),
            "account": account,
            "started": started,
            "finished": _now(),
            "counts": counts,
            "whitelist_enabled": whitelist.enabled,
            "backup_codes": {
                "remaining": codes.remaining_count,
                "generated": codes.total_generated,
            },
            "session_config": {
                "sso_enabled": config.sso_enabled,
                "max_sessions": config.max_sessions,
                "password_changed_at": _iso(config.password_changed_at),
            },
            "complete": True,
        }
        conn.executemany(
            "INSERT INTO meta (key, value) VALUES (?, ?)",
            [(k, json.dumps(v, ensure_ascii=False)) for k, v in meta.items()],
        )
        conn.execute("COMMIT")
        conn.close()
        fsync_path(tmp)
        tmp.replace(path)
        fsync_dir(path.parent)
        done = True
        return Snapshot(path, meta)
    finally:
        if not done:
            conn.close()
            tmp.unlink(missing_ok=True)


async def _accounts(client: PortalClient, conn: sqlite3.Connection, tell: Progress) -> int:
    """Every account, page by page, sorted by id (stable while others change accounts).

    Two pages are asked for ahead of the one being read and written, so the server's time
    and ours overlap (at most :data:`AHEAD` requests under way).
    """

    def fetch(number: int) -> asyncio.Task[Any]:
        return asyncio.ensure_future(
            client.accounts.query(page=number, size=PAGE, sort="bizId,asc")
        )

    written = 0
    pending = deque(fetch(n) for n in range(AHEAD))
    asked = AHEAD
    try:
        while True:
            page = await pending.popleft()
            more = page.has_next and bool(page.items)
            if more:
                pending.append(fetch(asked))
                asked += 1
            _insert(
                conn,
                "accounts",
                (
                    (
                        a.biz_id,
                        a.account_email,
                        a.account_name,
                        _code(a.account_status),
                        _code(a.account_portal),
                        a.institution_biz_id,
                        a.default_language,
                        a.default_timezone,
                        a.default_country,
                        a.account_remark,
                        _iso(a.created_at),
                        _iso(a.updated_at),
                    )
                    for a in page.items
                ),
            )
            written += len(page.items)
            tell("accounts", written, max(page.total_items, written))
            if not more:
                return written
    finally:
        for task in pending:
            task.cancel()
        if pending:  # a cancel of this task still ends it: wait() raises no task's error
            await asyncio.wait(pending)
            for task in pending:
                if not task.cancelled():
                    task.exception()  # retrieved: not logged as never retrieved


def _insert(conn: sqlite3.Connection, table: str, rows: Iterable[tuple[Any, ...]]) -> None:
    rows = list(rows)
    if not rows:
        return
    marks = ",".join("?" * len(rows[0]))
    conn.executemany(f"INSERT OR REPLACE INTO {table} VALUES ({marks})", rows)  # noqa: S608


def _int(value: bool | None) -> int | None:
    return None if value is None else int(value)


def expected() -> frozenset[sqlite_data.Row]:
    """The ``sqlite_master`` rows of a snapshot file as this program writes it."""
    return sqlite_data.expected_rows(SCHEMA)


def open_snapshot(path: Path, budget: float = STATEMENT_BUDGET) -> Snapshot:
    """A complete snapshot of this program's (its schema checked, its metadata read), or
    :class:`SnapshotError` saying why not. The integrity check runs where its rows are used
    (:meth:`Snapshot.connect`, :func:`check_attached`)."""
    if not path.is_file():
        raise SnapshotError("NOT_FOUND", f"{path} does not exist", path)
    try:
        conn = sqlite_data.read_only(path, budget)
        try:
            conn.execute("BEGIN")
            meta = _checked_meta(conn, "main", path)
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise _unreadable(exc, path) from None
    return Snapshot(path, meta)


def check_attached(conn: sqlite3.Connection, schema: str, snapshot: Snapshot) -> None:
    """Check the file attached to ``conn`` as ``schema`` (``"main"``: the connection's own)
    as ``snapshot``, inside the caller's read transaction: its schema, its metadata (the one
    ``snapshot`` was opened with: CHANGED otherwise) and ``PRAGMA integrity_check``
    (DAMAGED). ``SnapshotError`` saying why it cannot be used."""
    path = snapshot.path
    try:
        meta = _checked_meta(conn, schema, path)
        if meta != snapshot.meta:
            raise SnapshotError("CHANGED", f"{path.name} changed since it was opened", path)
        found = sqlite_data.integrity(conn, schema)
    except sqlite3.DatabaseError as exc:
        raise _unreadable(exc, path) from None
    if found is not None:
        raise SnapshotError("DAMAGED", f"{path.name} is damaged (integrity check: {found})", path)


def _checked_meta(conn: sqlite3.Connection, schema: str, path: Path) -> dict[str, Any]:
    """The metadata of the snapshot file attached as ``schema``, once its schema rows are
    this program's; ``SnapshotError`` otherwise."""
    rows = sqlite_data.schema_rows(conn, schema)
    want = expected()
    if not any(r in want and r[1] == "meta" for r in rows):
        raise SnapshotError("NOT_A_SNAPSHOT", f"{path.name} is not a snapshot", path)
    try:  # a table of exactly our shape: reading it runs nothing of the file's
        meta = sqlite_data.read_meta(conn, path.name, schema)
    except ValueError:
        raise SnapshotError("NOT_A_SNAPSHOT", f"{path.name} is not a snapshot", path) from None
    if meta.get("kind") != KIND:
        raise SnapshotError("NOT_A_SNAPSHOT", f"{path.name} is not a snapshot", path)
    version = meta.get("schema")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SnapshotError("NOT_A_SNAPSHOT", f"{path.name} is not a snapshot", path)
    if version > SCHEMA_VERSION:
        raise SnapshotError("NEWER_SCHEMA", f"{path.name} was made by a newer program", path)
    alien = sqlite_data.foreign(rows, want)
    if alien:
        named = ", ".join(alien[:5]) + (" ..." if len(alien) > 5 else "")
        raise SnapshotError(
            "FOREIGN_SQL", f"{path.name} holds {named}, which no snapshot has: refused", path
        )
    missing, other = sqlite_data.differences(rows, want)
    if missing or other:
        named = ", ".join(repr(n) for n in [*missing, *other][:5])
        raise SnapshotError(
            "SCHEMA",
            f"{path.name} does not have a snapshot's schema ({named} missing or defined"
            " otherwise): refused",
            path,
        )
    if meta.get("complete") is not True:
        raise SnapshotError("INCOMPLETE", f"{path.name} is an incomplete snapshot", path)
    return meta


def _unreadable(exc: sqlite3.DatabaseError, path: Path) -> SnapshotError:
    """TOO_SLOW for a statement stopped by its budget, else NOT_A_SNAPSHOT."""
    if sqlite_data.too_slow(exc):
        return SnapshotError("TOO_SLOW", f"{path.name} was not read in time: refused", path)
    return SnapshotError("NOT_A_SNAPSHOT", f"{path.name} is not a snapshot", path)
