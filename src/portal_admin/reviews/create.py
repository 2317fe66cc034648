"""Making a campaign from a snapshot (its scope): the items, every one undecided, and their
flags, all in SQL (the snapshot attached to the new file: no Python row per account).

The file is written beside its name (``.NAME.partial``, owner-only) without a journal, with
its indexes built once the rows are in, then switched to WAL, fsynced and renamed into place:
a campaign is whole or absent.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from portal_admin import __version__
from portal_admin.evidence.snapshot import Snapshot, SnapshotError, open_snapshot
from portal_admin.evidence.snapshot import check_attached as check_snapshot
from portal_admin.files.atomic import fsync_dir
from portal_admin.files.portable import fsync_path, replace, sqlite_connect

from . import flags, opening
from .campaign import (
    KIND,
    Campaign,
    CampaignError,
    check_attached,
    now_iso,
    partial_path,
    private_file,
)
from .schema import INDEXES, SCHEMA, SCHEMA_VERSION, UPGRADES

REVOCATIONS = ("SUSPEND", "DEACTIVATE")
#: Account statuses that give no access: left out of the scope unless the filter names them.
NO_ACCESS = ("DEACTIVATED", "REJECTED", "PENDING_INIT")
DEFAULT_STALE_DAYS = 180


@dataclass(frozen=True)
class ScopeFilter:
    """Which accounts are in scope: each list empty means any. ``statuses`` empty: every
    account that has access (not deactivated, rejected or awaiting setup)."""

    portals: Sequence[str] = ()
    institutions: Sequence[str] = ()
    statuses: Sequence[str] = ()

    def as_dict(self) -> dict[str, list[str]]:
        return {
            "portals": list(self.portals),
            "institutions": list(self.institutions),
            "statuses": list(self.statuses),
        }

    def sql(self, prefix: str = "") -> tuple[str, list[str]]:
        """The condition on an accounts table (columns ``prefix``status, ...)."""
        terms: list[str] = []
        args: list[str] = []
        for column, values in (
            ("portal", self.portals),
            ("institution", self.institutions),
            ("status", self.statuses),
        ):
            if values:
                terms.append(f"{prefix}{column} IN ({','.join('?' * len(values))})")
                args.extend(values)
        if not self.statuses:
            terms.append(f"coalesce({prefix}status, '') NOT IN ({','.join('?' * len(NO_ACCESS))})")
            args.extend(NO_ACCESS)
        return " AND ".join(terms), args


@dataclass(frozen=True)
class Settings:
    """A campaign's settings."""

    name: str
    due: str  # an ISO date
    revocation: str = "SUSPEND"
    scope_filter: ScopeFilter = field(default_factory=ScopeFilter)
    stale_days: int = DEFAULT_STALE_DAYS
    #: The reviewer this file is for (their own account is flagged and cannot be decided).
    reviewer: str = ""
    created_by: str = ""

    def check(self) -> None:
        """``CampaignError`` BAD_INPUT for a setting that cannot be used."""
        if not self.name.strip():
            raise CampaignError("BAD_INPUT", "a campaign needs a name", reason="NO_NAME")
        try:
            date.fromisoformat(self.due)
        except ValueError:
            raise CampaignError(
                "BAD_INPUT", f"not a date (YYYY-MM-DD): {self.due!r}",
                reason="BAD_DUE", params=(self.due,),
            ) from None  # fmt: skip
        if self.revocation not in REVOCATIONS:
            raise CampaignError(
                "BAD_INPUT", "the revocation is SUSPEND or DEACTIVATE", reason="BAD_REVOCATION"
            )
        if self.stale_days < 1:
            raise CampaignError(
                "BAD_INPUT",
                "the days for 'not updated' must be at least 1",
                reason="BAD_STALE_DAYS",
            )


Progress = Callable[[str], object]


def create_campaign(
    path: Path,
    scope: Path | Snapshot,
    settings: Settings,
    *,
    since: Path | None = None,
) -> Campaign:
    """A new campaign file at ``path`` from the snapshot ``scope``; ``since``: an earlier
    snapshot or campaign file, for the *new* and *reactivated* flags."""
    settings.check()
    try:
        snapshot = scope if isinstance(scope, Snapshot) else open_snapshot(Path(scope))
    except SnapshotError as exc:
        raise CampaignError(
            "BAD_INPUT", f"the scope: {exc}",
            reason="SCOPE_UNREADABLE", params=(Path(str(scope)).name,),
        ) from None  # fmt: skip
    path = Path(path)
    if path.exists():
        raise CampaignError(
            "BAD_INPUT", f"{path} exists already: a campaign is never overwritten",
            reason="EXISTS", params=(path.name,),
        )  # fmt: skip
    baseline = _baseline(since) if since is not None else None
    meta: dict[str, Any] = {
        "kind": KIND,
        "schema": SCHEMA_VERSION,
        "id": str(uuid.uuid4()),
        "name": settings.name.strip(),
        "due": settings.due,
        "revocation": settings.revocation,
        "filter": settings.scope_filter.as_dict(),
        "stale_days": settings.stale_days,
        "reviewer": settings.reviewer,
        "part": "",
        "created": now_iso(),
        "created_by": settings.created_by,
        "program_version": __version__,
        "scope": {
            "file": snapshot.path.name,
            "server": snapshot.meta.get("server"),
            "taken_by": snapshot.meta.get("account"),
            "started": snapshot.meta.get("started"),
            "finished": snapshot.meta.get("finished"),
            "counts": snapshot.meta.get("counts", {}),
        },
        "since": baseline[1] if baseline else None,
    }

    def fill(conn: sqlite3.Connection) -> None:
        # each attached file is checked as data where it is read, in this transaction
        conn.execute("ATTACH DATABASE ? AS s", (opening.uri(snapshot.path),))
        _checked(
            lambda: check_snapshot(conn, "s", snapshot),
            "the scope", "SCOPE_UNREADABLE", snapshot.path,
        )  # fmt: skip
        _items(conn, settings.scope_filter)
        if baseline is not None:
            conn.execute("ATTACH DATABASE ? AS b", (opening.uri(baseline[0]),))
            earlier = baseline[3]
            if earlier is not None:
                _checked(
                    lambda: check_snapshot(conn, "b", earlier),
                    "the earlier snapshot", "BASELINE_UNREADABLE", baseline[0],
                )  # fmt: skip
            else:
                check_attached(conn, "b", baseline[0])
            flags.baseline_flags(conn, baseline[2], str(baseline[1].get("when") or ""))
        at = str(snapshot.meta.get("finished") or snapshot.meta.get("started") or now_iso())
        flags.scope_flags(conn, at=at, stale_days=settings.stale_days, reviewer=settings.reviewer)
        conn.execute("COMMIT")
        conn.execute("DETACH DATABASE s")
        if baseline is not None:
            conn.execute("DETACH DATABASE b")
        conn.execute("BEGIN")

    write_new(path, meta, fill)
    return Campaign.made_here(path)


def _items(conn: sqlite3.Connection, scope: ScopeFilter) -> None:
    """The accounts in scope, every role, the pending invitations: one item each."""
    where, args = scope.sql()
    conn.execute(
        "INSERT INTO items (id, kind, ref, label, name, status, portal, institution, updated)"  # noqa: S608
        " SELECT 'account:' || id, 'account', id, coalesce(email, id), name, status, portal,"
        f" institution, updated FROM s.accounts WHERE {where} ORDER BY id",
        args,
    )
    conn.execute(
        "INSERT INTO items (id, kind, ref, label, name, status, detail)"
        " SELECT 'role:' || id, 'role', id, coalesce(name, id), name, type,"
        " json_object('type', type, 'description', description,"
        " 'permissions', json(coalesce(permissions, '[]')), 'member_count', member_count)"
        " FROM s.roles ORDER BY id"
    )
    conn.execute(
        "INSERT INTO items (id, kind, ref, label, name, status, detail)"
        " SELECT 'invitation:' || id, 'invitation', id, coalesce(email, id), email, status,"
        " json_object('workspace', workspace, 'inviter', inviter, 'created', created,"
        " 'expires', expires)"
        " FROM s.invitations WHERE status = 'PENDING' ORDER BY id"
    )


def _checked(check: Callable[[], None], what: str, reason: str, path: Path) -> None:
    """``check()``, its ``SnapshotError`` said as BAD_INPUT naming ``what`` (``reason``,
    with the file's name as its parameter)."""
    try:
        check()
    except SnapshotError as exc:
        raise CampaignError(
            "BAD_INPUT", f"{what}: {exc}", reason=reason, params=(path.name,)
        ) from None


def _baseline(path: Path) -> tuple[Path, dict[str, Any], str, Snapshot | None]:
    """(file, what it is for the metadata, ``"snapshot"`` or ``"campaign"``, the opened
    snapshot when it is one)."""
    path = Path(path)
    try:
        taken = open_snapshot(path)
    except SnapshotError as exc:
        if exc.code != "NOT_A_SNAPSHOT":
            raise CampaignError(
                "BAD_INPUT", f"the earlier snapshot: {exc}",
                reason="BASELINE_UNREADABLE", params=(path.name,),
            ) from None  # fmt: skip
    else:
        when = taken.meta.get("finished")
        return path, {"file": path.name, "kind": "snapshot", "when": when}, "snapshot", taken
    try:
        earlier = Campaign.open(path)
    except CampaignError as exc:
        raise CampaignError(
            "BAD_INPUT", f"{path.name} is neither a snapshot nor a campaign ({exc})",
            reason="BASELINE_UNREADABLE", params=(path.name,),
        ) from None  # fmt: skip
    try:
        scope = earlier.meta.get("scope") or {}
        info = {
            "file": path.name,
            "kind": "campaign",
            "campaign": earlier.name,
            "when": scope.get("finished"),
        }
    finally:
        earlier.close()
    return path, info, "campaign", None


def write_new(path: Path, meta: dict[str, Any], fill: Callable[[sqlite3.Connection], None]) -> None:
    """Write a new campaign file: schema, ``meta``, what ``fill`` inserts (inside one
    transaction it may commit and reopen), the indexes; then WAL, fsync and rename."""
    tmp = partial_path(path)
    for leftover in (tmp, *(Path(f"{tmp}{s}") for s in ("-wal", "-shm", "-journal"))):
        leftover.unlink(missing_ok=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    private_file(tmp)
    conn = sqlite_connect(tmp, isolation_level=None)  # attaches by URI
    done = False
    try:
        # what ``fill`` attaches is checked as data (no view, trigger or forged index); and
        # nothing of an attached file's schema may call a function with effects
        conn.execute("PRAGMA trusted_schema=OFF")
        conn.execute("PRAGMA cell_size_check=ON")
        conn.execute("PRAGMA journal_mode=OFF")  # a draft: renamed into place only when whole
        conn.execute("PRAGMA synchronous=OFF")  # one fsync at the end
        conn.execute("PRAGMA cache_size=-65536")
        conn.executescript("BEGIN;" + SCHEMA + "".join(UPGRADES))
        conn.executemany(
            "INSERT INTO meta (key, value) VALUES (?, ?)",
            [(k, json.dumps(v, ensure_ascii=False)) for k, v in meta.items()],
        )
        fill(conn)
        conn.executescript(INDEXES)  # commits what ``fill`` wrote first
        conn.execute("PRAGMA journal_mode=WAL")  # kept in the file: every later write is WAL
        conn.close()
        fsync_path(tmp)
        for side in ("-wal", "-shm"):
            Path(f"{tmp}{side}").unlink(missing_ok=True)
        replace(tmp, path)
        fsync_dir(path.parent)
        done = True
    finally:
        if not done:
            conn.close()
            for leftover in (tmp, *(Path(f"{tmp}{s}") for s in ("-wal", "-shm"))):
                leftover.unlink(missing_ok=True)
