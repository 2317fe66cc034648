"""The campaign file: one SQLite file per access-review campaign (or per reviewer's part).

WAL with ``synchronous=FULL``: every commit survives a kill and a power cut. A new file is
written beside its name and renamed into place once complete, so a campaign is whole or
absent. The file and the files SQLite puts beside it are readable by their owner only (0600).

Every list the desktop shows is a SQL query (``page``, ``count``): 100,000 items cost no
Python list. Decisions are history (``decisions``, never updated); ``items.decision`` holds
the latest one so that the queue can filter on it. That column, like every index, is a
convenience for the queue: what is signed, remediated and reported is read from the history
(``signoff.verify``). A file is opened as data (``opening.py``): its schema must be this
program's, exactly, before anything of it is read.
"""

from __future__ import annotations

import contextlib
import functools
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from portal_admin.files import json_input, sqlite_data
from portal_admin.files.portable import (
    WINDOWS,
    create_private,
    make_private,
    sqlite_uri,
)
from portal_admin.files.terminal import printable

from . import opening
from .errors import CampaignError as CampaignError
from .schema import SCHEMA_VERSION, UPGRADES

KIND = "portal-admin access-review campaign"
#: Seconds ``Campaign.open`` may take by default (the checks of a 100,000-item file take
#: well under one), and each statement after.
OPEN_BUDGET = 60.0
STATEMENT_BUDGET = 120.0
FILE_MODE = 0o600
SIDE_FILES = ("-wal", "-shm")
#: The longest item ``detail`` read (characters).
MAX_DETAIL = 1 << 20

#: Columns the queue can be sorted by.
SORTABLE = (
    "seq", "id", "kind", "label", "name", "status", "portal", "institution", "updated",
    "flags", "decision", "part",
)  # fmt: skip
#: The tables every campaign file has.
TABLES = frozenset(
    {"meta", "items", "flags", "decisions", "signoffs", "signed_items", "remediation", "closing"}
)


@dataclass(frozen=True, slots=True)
class Flag:
    """Why an item deserves a closer look: a code and a short reason."""

    code: str
    reason: str


@dataclass(frozen=True, slots=True)
class Item:
    """One item of the queue, with its latest decision (None: undecided)."""

    seq: int
    id: str
    kind: str
    ref: str
    label: str
    name: str | None
    status: str | None
    portal: str | None
    institution: str | None
    updated: str | None
    detail: dict[str, Any]
    flag_count: int
    part: str
    decision: str | None
    decision_seq: int | None


@dataclass(frozen=True, slots=True)
class Decided:
    """One decision of the history."""

    seq: int
    item: str
    decision: str
    justification: str
    reviewer: str
    fingerprint: str
    decided_at: str
    source: str
    #: The reviewer's server identity when it was known (else empty).
    account_id: str = ""
    account_email: str = ""


@dataclass(frozen=True, slots=True)
class Query:
    """A filter of the queue. ``decision``: KEEP, REVOKE, DONT_KNOW or ``"UNDECIDED"``;
    ``flag``: one flag code; ``flagged``: only items with (True) or without (False) a flag;
    ``text``: part of the id, label or name (case-insensitive)."""

    kind: str | None = None
    decision: str | None = None
    flag: str | None = None
    flagged: bool | None = None
    portal: str | None = None
    institution: str | None = None
    status: str | None = None
    part: str | None = None
    text: str | None = None

    def where(self, prefix: str = "") -> tuple[str, list[Any]]:
        """The SQL condition and its parameters (``prefix``: the items table's alias and a
        dot, when the query joins others)."""
        p = prefix
        terms: list[str] = []
        args: list[Any] = []
        for column in ("kind", "portal", "institution", "status", "part"):
            value = getattr(self, column)
            if value is not None:
                terms.append(f"{p}{column} = ?")
                args.append(value)
        if self.decision == "UNDECIDED":
            terms.append(f"{p}decision IS NULL")
        elif self.decision is not None:
            terms.append(f"{p}decision = ?")
            args.append(self.decision)
        if self.flagged is True:
            terms.append(f"{p}flags > 0")
        elif self.flagged is False:
            terms.append(f"{p}flags = 0")
        if self.flag is not None:
            terms.append(f"{p}seq IN (SELECT item FROM flags WHERE code = ?)")  # noqa: S608
            args.append(self.flag)
        if self.text:
            like = " ESCAPE '\\'"
            terms.append(f"({p}id LIKE ?{like} OR {p}label LIKE ?{like} OR {p}name LIKE ?{like})")
            escaped = self.text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            args.extend([f"%{escaped}%"] * 3)
        return (" AND ".join(terms) or "1"), args


def now_iso() -> str:
    """The time now, UTC, ISO 8601 to the millisecond."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def private_file(path: Path) -> None:
    """Create ``path`` empty and owner-only (whatever the umask; an owner-only DACL on
    Windows)."""
    create_private(path)


def _open(path: Path, budget: float = STATEMENT_BUDGET) -> opening.Budgeted:
    """A hardened writable connection to ``path`` (``opening.harden``: ``trusted_schema=OFF``,
    defensive mode, a time budget per statement) that writes nothing until :func:`_use`:
    the file is checked through it first."""
    # by URI: merge and close attach files by URI, which Windows' SQLite reads as a name on a
    # connection opened by a plain name (files/portable.sqlite_connect)
    conn = sqlite3.connect(
        sqlite_uri(path, "rwc"), uri=True, isolation_level=None, factory=opening.Budgeted
    )
    assert isinstance(conn, opening.Budgeted)
    try:
        opening.harden(conn, budget)
        conn.execute("PRAGMA query_only=ON")  # a file that is not a campaign is left as it is
    except BaseException:
        conn.close()
        raise
    return conn


def _use(conn: sqlite3.Connection) -> None:
    """A checked connection made ready for use: writable, WAL, ``synchronous=FULL``."""
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA query_only=OFF")
    conn.execute("PRAGMA busy_timeout=5000")
    if str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
        conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")


def connect(
    path: Path, *, read_only: bool = False, budget: float = STATEMENT_BUDGET
) -> sqlite3.Connection:
    """A hardened connection (``opening.harden``: ``trusted_schema=OFF``, defensive mode, a
    time budget per statement) in WAL mode with ``synchronous=FULL`` (autocommit:
    transactions are explicit). Only for a file :meth:`Campaign.open` has checked."""
    if read_only:
        conn: sqlite3.Connection = opening.read_only(path, budget)
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA busy_timeout=5000")
        return conn
    conn = _open(path, budget)
    _use(conn)
    return conn


def _detail(row: sqlite3.Row) -> dict[str, Any]:
    """An item's ``detail`` column (JSON of an object), or DAMAGED naming the item."""
    text = row["detail"]
    if not text:
        return {}
    try:  # the file's text: bounded in size and depth (``files/json_input.py``)
        value = json_input.loads(text, max_bytes=MAX_DETAIL) if isinstance(text, str) else None
    except ValueError:
        value = None
    if not isinstance(value, dict):
        item = str(row["id"])
        raise CampaignError(
            "DAMAGED",
            f"the campaign file is damaged: the detail of {printable(item, 100)} is not JSON",
            item=item,
        )
    return value


def _item(row: sqlite3.Row) -> Item:
    return Item(
        seq=row["seq"],
        id=row["id"],
        kind=row["kind"],
        ref=row["ref"],
        label=row["label"],
        name=row["name"],
        status=row["status"],
        portal=row["portal"],
        institution=row["institution"],
        updated=row["updated"],
        detail=_detail(row),
        flag_count=row["flags"],
        part=row["part"],
        decision=row["decision"],
        decision_seq=row["decision_seq"],
    )


def _decided(row: sqlite3.Row) -> Decided:
    return Decided(*(row[k] for k in Decided.__slots__))


def _refuse(path: Path, code: str, why: str) -> CampaignError:
    return CampaignError(code, f"{path.name} {why}")


P = ParamSpec("P")
R = TypeVar("R")


def unreadable(path: Path, exc: BaseException) -> CampaignError:
    """A read of a checked file that failed: TOO_SLOW past its budget, DAMAGED otherwise."""
    if opening.too_slow(exc):
        return _refuse(path, "TOO_SLOW", "was not read within its time budget: refused")
    return _refuse(path, "DAMAGED", f"cannot be read: it is damaged ({exc})")


def reads(method: Callable[P, R]) -> Callable[P, R]:
    """A read of the campaign whose SQLite failure (a page damaged, a row edited behind the
    program's back, a statement past its budget) is a named :class:`CampaignError`, never a
    ``sqlite3`` exception: the queue's lazy reads are refused as the file's opening is."""

    @functools.wraps(method)
    def read(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except (sqlite3.DatabaseError, RecursionError) as exc:
            campaign = args[0]
            assert isinstance(campaign, Campaign)
            raise unreadable(campaign.path, exc) from None

    return read


class Campaign:
    """An open campaign file. Thread use: one thread at a time per object."""

    def __init__(self, path: Path, conn: sqlite3.Connection, meta: dict[str, Any]) -> None:
        self.path = path
        self.conn = conn
        self._meta = meta
        #: The schema cookie (``PRAGMA schema_version``) of the schema that was checked.
        self._cookie: int | None = None

    # Opening ---------------------------------------------------------------------------------

    @classmethod
    def open(cls, path: Path, *, timeout: float | None = OPEN_BUDGET) -> Campaign:
        """An existing campaign file, checked as data before any query of it (see
        ``opening.py``), or :class:`CampaignError` naming why it is not one: NOT_FOUND,
        NOT_A_CAMPAIGN, FOREIGN_SQL, SCHEMA, DAMAGED, NEWER_SCHEMA, or TOO_SLOW when the
        checks take more than ``timeout`` seconds (None: no limit; the desktop calls this in
        a worker thread with a limit). A file of schema 1 is upgraded to 2 in place (two
        columns more per decision and sign-off; nothing else changes)."""
        path = Path(path)
        if not path.is_file():
            raise CampaignError("NOT_FOUND", f"{path} does not exist")
        with open(path, "rb") as fh:
            head = fh.read(16)
        if head != b"SQLite format 3\x00":
            raise _refuse(path, "NOT_A_CAMPAIGN", "is not a campaign file")
        budget = float("inf") if timeout is None else max(0.0, timeout)
        started = time.monotonic()
        # the connection that is checked is the one that is then used: no second open of
        # the file by name after the check (another writer could swap it in between)
        conn = _open(path)
        try:
            version = _check(conn, path, budget)
        except sqlite3.OperationalError as exc:
            conn.close()
            if opening.too_slow(exc) or time.monotonic() - started > budget:
                raise _refuse(
                    path, "TOO_SLOW", f"was not read within {timeout:g} seconds: refused"
                ) from None
            raise _refuse(path, "DAMAGED", f"cannot be read: it is damaged ({exc})") from None
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise _refuse(path, "DAMAGED", f"cannot be read: it is damaged ({exc})") from None
        except BaseException:
            conn.close()
            raise
        return cls._connected(path, conn, version)

    @classmethod
    def made_here(cls, path: Path) -> Campaign:
        """A campaign file this process has just written and renamed into place (``create``):
        its schema is ours by construction, so the checks of a received file are not run
        again; the connection is hardened all the same."""
        path = Path(path)
        return cls._connected(path, _open(path), SCHEMA_VERSION)

    @classmethod
    def reopen(cls, path: Path) -> Campaign:
        """A connection of its own (for another thread) to a file :meth:`open` has checked in
        this process: no check again (milliseconds). DAMAGED when it cannot be read now."""
        path = Path(path)
        try:
            conn = connect(path)
        except sqlite3.DatabaseError as exc:
            raise _refuse(path, "DAMAGED", f"cannot be opened ({exc})") from None
        try:
            return cls(path, conn, read_meta(conn))
        except (sqlite3.DatabaseError, ValueError, RecursionError) as exc:
            conn.close()
            raise _refuse(path, "DAMAGED", f"cannot be opened ({exc})") from None

    @classmethod
    def _connected(cls, path: Path, conn: sqlite3.Connection, version: int) -> Campaign:
        """The campaign on ``conn`` (checked, or made here): owner-only, WAL, upgraded, its
        metadata."""
        restrict(path)  # after the check: a file that is not a campaign is left as it was
        try:
            _use(conn)
            if version < SCHEMA_VERSION:
                _upgrade(conn, version)
            meta = read_meta(conn)
            cookie = int(conn.execute("PRAGMA schema_version").fetchone()[0])
        except (sqlite3.DatabaseError, ValueError, RecursionError) as exc:
            conn.close()
            raise _refuse(path, "DAMAGED", f"cannot be opened ({exc})") from None
        campaign = cls(path, conn, meta)
        campaign._cookie = cookie
        return campaign

    def close(self) -> None:
        """Close the file."""
        self.conn.close()

    def __enter__(self) -> Campaign:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (``BEGIN IMMEDIATE``): committed whole, or rolled back.
        Inside it, under the write lock, the file's schema is the one that was checked (its
        schema cookie unchanged, or its rows this program's again): FOREIGN_SQL or SCHEMA
        otherwise, nothing written."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            self._same_schema()
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    def _same_schema(self) -> None:
        """Refuse a schema changed since it was checked (another writer of the file added a
        trigger, say): read inside the write transaction, so what is checked is what is
        written through."""
        if self._cookie is None:
            return
        cookie = int(self.conn.execute("PRAGMA schema_version").fetchone()[0])
        if cookie == self._cookie:
            return
        rows = opening.schema_rows(self.conn)
        _refuse_foreign(self.path, opening.foreign(rows, (SCHEMA_VERSION,)))
        missing, other = opening.differences(rows, SCHEMA_VERSION)
        if missing or other:
            raise _refuse(self.path, "SCHEMA", "had its schema changed while open: refused")
        self._cookie = cookie

    # Metadata --------------------------------------------------------------------------------

    @property
    def meta(self) -> dict[str, Any]:
        """The campaign's metadata (name, due, revocation, filter, scope, ...)."""
        return dict(self._meta)

    def reload_meta(self) -> dict[str, Any]:
        """The metadata as the file has it now (signed off or closed meanwhile?);
        ``CampaignError`` DAMAGED (or TOO_SLOW) when it cannot be read now."""
        try:
            self._meta = read_meta(self.conn)
        except ValueError as exc:
            raise _refuse(self.path, "DAMAGED", f"cannot be read ({exc})") from None
        except (sqlite3.DatabaseError, RecursionError) as exc:
            raise unreadable(self.path, exc) from None
        return self.meta

    @property
    def campaign_id(self) -> str:
        return str(self._meta["id"])

    @property
    def name(self) -> str:
        return str(self._meta.get("name", ""))

    @property
    def revocation(self) -> str:
        """SUSPEND or DEACTIVATE."""
        return str(self._meta.get("revocation", "SUSPEND"))

    def set_meta(self, conn: sqlite3.Connection, **values: Any) -> None:
        """Set metadata inside a transaction the caller holds."""
        conn.executemany(
            "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
            [(k, opening.encoded(v)) for k, v in values.items()],
        )
        self._meta.update(values)

    # The queue -------------------------------------------------------------------------------

    @reads
    def count(self, query: Query | None = None) -> int:
        """Items the filter keeps."""
        where, args = (query or Query()).where()
        return int(
            self.conn.execute(f"SELECT count(*) FROM items WHERE {where}", args).fetchone()[0]  # noqa: S608
        )

    @reads
    def page(self, query: Query | None = None, *, after: int = 0, limit: int = 200) -> list[Item]:
        """Up to ``limit`` items the filter keeps, in campaign order, after item ``seq``
        ``after`` (keyset paging: each page costs the same, wherever it is)."""
        where, args = (query or Query()).where()
        rows = self.conn.execute(
            f"SELECT * FROM items WHERE seq > ? AND {where} ORDER BY seq LIMIT ?",  # noqa: S608
            [after, *args, limit],
        )
        return [_item(r) for r in rows]

    @reads
    def page_at(
        self,
        query: Query | None = None,
        *,
        offset: int = 0,
        limit: int = 200,
        order_by: str = "seq",
        descending: bool = False,
    ) -> list[Item]:
        """Items ``offset`` to ``offset + limit`` of the filtered queue, in campaign order or
        sorted by one of :data:`SORTABLE` (ties in campaign order): for a view that jumps or
        sorts (``page`` is cheaper for scrolling on in campaign order)."""
        if order_by not in SORTABLE:
            raise ValueError(f"cannot sort by {order_by!r}")
        where, args = (query or Query()).where()
        way = "DESC" if descending else "ASC"
        rows = self.conn.execute(
            f"SELECT * FROM items WHERE {where} ORDER BY {order_by} {way}, seq {way}"  # noqa: S608
            " LIMIT ? OFFSET ?",
            [*args, limit, offset],
        )
        return [_item(r) for r in rows]

    @reads
    def item(self, item_id: str) -> Item | None:
        """One item by id."""
        row = self.conn.execute("SELECT * FROM items WHERE id = ?", (item_id,)).fetchone()
        return _item(row) if row else None

    @reads
    def position(self, query: Query, seq: int) -> int | None:
        """The row of item ``seq`` in the queue ``query`` filters, in campaign order (None:
        the filter hides it)."""
        where, args = query.where()
        found = self.conn.execute(
            f"SELECT 1 FROM items WHERE seq = ? AND {where}",  # noqa: S608
            [seq, *args],
        ).fetchone()
        if found is None:
            return None
        row = self.conn.execute(
            f"SELECT count(*) FROM items WHERE seq < ? AND {where}",  # noqa: S608
            [seq, *args],
        ).fetchone()
        return int(row[0])

    @reads
    def ids(self, query: Query | None = None) -> list[str]:
        """Ids of every item ``query`` keeps, in campaign order (a selection of the whole
        queue)."""
        where, args = (query or Query()).where()
        rows = self.conn.execute(
            f"SELECT id FROM items WHERE {where} ORDER BY seq",  # noqa: S608
            args,
        )
        return [r[0] for r in rows]

    @reads
    def decisions_by_reviewer(self) -> list[tuple[str, int]]:
        """(reviewer, items whose latest decision is theirs), most first."""
        rows = self.conn.execute(
            "SELECT d.reviewer, count(*) FROM items AS i JOIN decisions AS d"
            " ON d.seq = i.decision_seq GROUP BY d.reviewer ORDER BY 2 DESC, 1"
        )
        return [(str(r[0]), int(r[1])) for r in rows]

    @reads
    def flags_of(self, seqs: Sequence[int]) -> dict[int, list[Flag]]:
        """The flags of the items ``seqs`` (a page's), by item seq."""
        found: dict[int, list[Flag]] = {s: [] for s in seqs}
        for chunk in _chunks(list(seqs)):
            marks = ",".join("?" * len(chunk))
            for row in self.conn.execute(
                f"SELECT item, code, reason FROM flags WHERE item IN ({marks}) ORDER BY item, code",  # noqa: S608
                chunk,
            ):
                found[row[0]].append(Flag(row[1], row[2]))
        return found

    @reads
    def history(self, item_id: str) -> list[Decided]:
        """Every decision of one item, oldest first."""
        rows = self.conn.execute("SELECT * FROM decisions WHERE item = ? ORDER BY seq", (item_id,))
        return [_decided(r) for r in rows]

    @reads
    def decision_of(self, item: Item) -> Decided | None:
        """The latest decision of an item, from the history (not the queue's column)."""
        row = self.conn.execute(
            "SELECT * FROM decisions WHERE item = ? ORDER BY seq DESC LIMIT 1", (item.id,)
        ).fetchone()
        return _decided(row) if row else None

    @reads
    def totals(self) -> dict[str, int]:
        """Items, decided, and per decision; flagged."""
        row = self.conn.execute(
            "SELECT count(*), count(decision), sum(decision = 'KEEP'), sum(decision = 'REVOKE'),"
            " sum(decision = 'DONT_KNOW'), sum(flags > 0) FROM items"
        ).fetchone()
        keys = ("items", "decided", "kept", "revoked", "dont_know", "flagged")
        return {k: int(v or 0) for k, v in zip(keys, row, strict=True)}

    @reads
    def flag_counts(self) -> dict[str, int]:
        """Items per flag code."""
        return {
            r[0]: r[1]
            for r in self.conn.execute(
                "SELECT code, count(*) FROM flags GROUP BY code ORDER BY code"
            )
        }

    @reads
    def values(self, column: str) -> list[str]:
        """The distinct values of ``column`` (portal, institution, status, kind, part), for a
        filter's choices."""
        if column not in ("portal", "institution", "status", "kind", "part"):
            raise ValueError(column)
        rows = self.conn.execute(
            f"SELECT DISTINCT {column} FROM items WHERE {column} IS NOT NULL ORDER BY 1"  # noqa: S608
        )
        return [r[0] for r in rows]

    @reads
    def own_items(
        self, reviewer: str, *, account_id: str = "", account_email: str = ""
    ) -> list[str]:
        """Ids of the reviewer's own account (its email is their name, or, when the server's
        identity is known, its id or email is theirs): ``decide`` refuses it to them, whether
        or not the file flags it (the desktop marks it for whoever opens)."""
        rows = self.conn.execute(
            "SELECT id FROM items WHERE kind = 'account' AND (lower(label) = lower(?)"
            " OR (? != '' AND ref = ?) OR (? != '' AND lower(label) = lower(?))) ORDER BY seq",
            (reviewer.strip(), account_id, account_id, account_email, account_email.strip()),
        )
        return [r[0] for r in rows]

    @reads
    def undecided(self) -> int:
        """Items with no decision in the history (cheap: one index lookup per item)."""
        return int(
            self.conn.execute(
                "SELECT count(*) FROM items WHERE NOT EXISTS"
                " (SELECT 1 FROM decisions WHERE decisions.item = items.id)"
            ).fetchone()[0]
        )

    @reads
    def signed_items(self) -> set[str]:
        """Ids of items covered by a sign-off in this file (their decisions are frozen)."""
        return {r[0] for r in self.conn.execute("SELECT DISTINCT item FROM signed_items")}

    @reads
    def is_signed(self) -> bool:
        return self.conn.execute("SELECT 1 FROM signoffs LIMIT 1").fetchone() is not None


def _chunks(values: list[Any], size: int = 500) -> Iterator[list[Any]]:
    for i in range(0, len(values), size):
        yield values[i : i + size]


def read_meta(conn: sqlite3.Connection) -> dict[str, Any]:
    """The meta table as a dictionary (JSON values); ``ValueError`` naming an entry that is
    not JSON."""
    return sqlite_data.read_meta(conn, "the campaign")


def _check(conn: opening.Budgeted, path: Path, budget: float) -> int:
    """Check the file at ``path`` as data through ``conn`` (the connection then used, still
    ``query_only``; within ``budget`` seconds); its schema version, or ``CampaignError``.
    ``sqlite3.DatabaseError`` for a file SQLite cannot read."""

    def stop() -> None:
        with contextlib.suppress(sqlite3.Error):  # closed meanwhile: nothing to stop
            conn.interrupt()

    watchdog = threading.Timer(budget, stop) if budget != float("inf") else None
    if watchdog is not None:  # the integrity check is one long step: stopped from outside
        watchdog.daemon = True
        watchdog.start()
    try:
        conn.until = time.monotonic() + budget  # the whole check, not each statement
        conn.execute("BEGIN")  # one read transaction: every check sees the same file
        rows = opening.schema_rows(conn)
        versions = tuple(range(1, SCHEMA_VERSION + 1))
        alien = opening.foreign(rows, versions)
        meta_rows = {r for v in versions for r in opening.expected(v) if r[1] == "meta"}
        if not any(r in meta_rows for r in rows):
            if any(name.casefold() in _NAMES for _t, name, _tb, _s in rows):
                _refuse_foreign(path, alien)  # a campaign whose meta is something else
            raise _refuse(path, "NOT_A_CAMPAIGN", "is not a campaign file")
        try:  # a table of exactly our shape: reading it runs nothing of the file's
            meta = sqlite_data.read_meta(conn, path.name)
        except ValueError as exc:
            raise CampaignError("DAMAGED", f"{exc}: refused") from None
        if meta.get("kind") != KIND:
            raise _refuse(path, "NOT_A_CAMPAIGN", "is not a campaign file")
        schema = meta.get("schema")
        if not isinstance(schema, int) or isinstance(schema, bool) or schema < 1:
            raise _refuse(path, "DAMAGED", "is damaged: its schema version is not a number")
        if schema > SCHEMA_VERSION:
            raise _refuse(
                path,
                "NEWER_SCHEMA",
                f"was made by a newer program (campaign format {schema};"
                f" this program reads up to {SCHEMA_VERSION})",
            )
        _refuse_foreign(path, alien)
        missing, other = opening.differences(rows, schema)
        tables = [n for n in missing if n in TABLES]
        if tables:
            raise _refuse(path, "SCHEMA", f"is damaged: no {', '.join(tables)} table")
        if missing or other:
            named = ", ".join(repr(n) for n in [*missing, *other][:5])
            raise _refuse(
                path,
                "SCHEMA",
                f"does not have this program's schema ({named} missing or defined otherwise):"
                " refused",
            )
        found = opening.integrity(conn)
        if found is not None:
            raise _refuse(path, "DAMAGED", f"is damaged (integrity check: {found}): refused")
        _check_meta(path, meta)
        conn.execute("COMMIT")
        if time.monotonic() > conn.until:  # past the budget between two looks at the clock
            raise sqlite3.OperationalError("interrupted")
        return schema
    finally:
        if watchdog is not None:
            watchdog.cancel()
        conn.until = float("inf")
        if conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")


#: Names of this program's tables (casefolded).
_NAMES = frozenset(name.casefold() for name in TABLES)


def check_attached(conn: sqlite3.Connection, schema: str, path: Path) -> None:
    """The campaign file ``path``, attached to ``conn`` as ``schema``, checked again through
    the connection that reads it, inside the caller's transaction (it was checked when opened,
    but reopened by name to attach: another writer could have swapped it in between): this
    program's schema exactly, sound (FOREIGN_SQL, SCHEMA, DAMAGED otherwise)."""
    rows = opening.schema_rows(conn, schema)
    _refuse_foreign(path, opening.foreign(rows, (SCHEMA_VERSION,)))
    missing, other = opening.differences(rows, SCHEMA_VERSION)
    if missing or other:
        raise _refuse(path, "SCHEMA", "does not have this program's schema: refused")
    found = opening.integrity(conn, schema)
    if found is not None:
        raise _refuse(path, "DAMAGED", f"is damaged (integrity check: {found}): refused")


def _refuse_foreign(path: Path, alien: list[str]) -> None:
    """FOREIGN_SQL naming the objects, when there are any."""
    if alien:  # SQL that runs on our writes could change a decision after it is made
        named = ", ".join(alien[:5]) + (f" and {len(alien) - 5} more" if len(alien) > 5 else "")
        raise _refuse(
            path,
            "FOREIGN_SQL",
            f"carries SQL this program never puts in a campaign ({named}):"
            " refused, since it could change decisions behind the reviewer's back",
        )


def _check_meta(path: Path, meta: dict[str, Any]) -> None:
    """The metadata every campaign has, of its type (DAMAGED naming the entry otherwise)."""
    wanted: dict[str, type | tuple[type, ...]] = {
        "id": str, "name": str, "revocation": str, "part": str, "due": str,
    }  # fmt: skip
    for key, kind in wanted.items():
        if not isinstance(meta.get(key), kind):
            raise _refuse(path, "DAMAGED", f"is damaged: its metadata {key!r} is missing")
    if meta["revocation"] not in ("SUSPEND", "DEACTIVATE"):
        raise _refuse(path, "DAMAGED", "is damaged: its revocation is not SUSPEND or DEACTIVATE")


def _upgrade(conn: sqlite3.Connection, version: int) -> None:
    """Bring a checked file of schema ``version`` to :data:`SCHEMA_VERSION` (one
    transaction)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        for script in UPGRADES[version - 1 :]:
            for statement in filter(None, (s.strip() for s in script.split(";"))):
                conn.execute(statement)
        conn.execute(
            "UPDATE meta SET value = ? WHERE key = 'schema'", (opening.encoded(SCHEMA_VERSION),)
        )
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def restrict(path: Path) -> None:
    """The campaign file and its side files owner-only (when they are ours)."""
    for each in (path, *(Path(f"{path}{side}") for side in SIDE_FILES)):
        with contextlib.suppress(OSError):
            if WINDOWS or each.stat().st_mode & 0o077:
                make_private(each)


def partial_path(path: Path) -> Path:
    """Where a new campaign file is written before it is renamed into place."""
    return path.with_name(f".{path.name}.partial")
