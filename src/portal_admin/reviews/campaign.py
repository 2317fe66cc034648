"""The campaign file: one SQLite file per access-review campaign (or per reviewer's part).

WAL with ``synchronous=FULL``: every commit survives a kill and a power cut. A new file is
written beside its name and renamed into place once complete, so a campaign is whole or
absent. The file and the files SQLite puts beside it are readable by their owner only (0600).

Every list the desktop shows is a SQL query (``page``, ``count``): 100,000 items cost no
Python list. Decisions are history (``decisions``, never updated); ``items.decision`` holds
the latest one so that the queue can filter on it.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from portal_admin.files.portable import (
    WINDOWS,
    create_private,
    make_private,
    sqlite_connect,
    sqlite_uri,
)

KIND = "portal-admin access-review campaign"
SCHEMA_VERSION = 1
FILE_MODE = 0o600
SIDE_FILES = ("-wal", "-shm")

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE items (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    ref TEXT NOT NULL,
    label TEXT NOT NULL,
    name TEXT,
    status TEXT,
    portal TEXT,
    institution TEXT,
    updated TEXT,
    detail TEXT,
    flags INTEGER NOT NULL DEFAULT 0,
    part TEXT NOT NULL DEFAULT '',
    decision TEXT,
    decision_seq INTEGER
);
CREATE TABLE flags (
    item INTEGER NOT NULL, code TEXT NOT NULL, reason TEXT NOT NULL,
    PRIMARY KEY (item, code)
) WITHOUT ROWID;
CREATE TABLE decisions (
    seq INTEGER PRIMARY KEY,
    item TEXT NOT NULL,
    decision TEXT NOT NULL,
    justification TEXT NOT NULL,
    reviewer TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    decided_at TEXT NOT NULL,
    source TEXT NOT NULL
);
CREATE TABLE signoffs (
    seq INTEGER PRIMARY KEY,
    part TEXT NOT NULL,
    reviewer TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    public_key TEXT NOT NULL,
    signed_at TEXT NOT NULL,
    items INTEGER NOT NULL,
    digest TEXT NOT NULL,
    signature TEXT NOT NULL UNIQUE
);
CREATE TABLE signed_items (
    signoff INTEGER NOT NULL, item TEXT NOT NULL, digest TEXT NOT NULL,
    PRIMARY KEY (signoff, item)
) WITHOUT ROWID;
CREATE TABLE remediation (
    item TEXT PRIMARY KEY, job TEXT NOT NULL, current TEXT NOT NULL, changed TEXT NOT NULL
);
CREATE TABLE closing (
    item TEXT PRIMARY KEY, outcome TEXT NOT NULL, current TEXT NOT NULL, detail TEXT NOT NULL
);
"""
#: Columns the queue can be sorted by.
SORTABLE = (
    "seq", "id", "kind", "label", "name", "status", "portal", "institution", "updated",
    "flags", "decision", "part",
)  # fmt: skip
#: The tables every campaign file has.
TABLES = frozenset(
    {"meta", "items", "flags", "decisions", "signoffs", "signed_items", "remediation", "closing"}
)
#: Built once the items are in (faster than keeping them up to date row by row).
INDEXES = """
CREATE INDEX items_decision ON items (decision, seq);
CREATE INDEX items_flagged ON items (seq) WHERE flags > 0;
CREATE INDEX flags_code ON flags (code, item);
CREATE INDEX decisions_item ON decisions (item, seq);
"""


class CampaignError(Exception):
    """A file that cannot be used as a campaign, or a change the campaign refuses.

    ``code``: NOT_FOUND, NOT_A_CAMPAIGN, FOREIGN_SQL (triggers or views), NEWER_SCHEMA,
    FROZEN, CLOSED, BAD_INPUT, SELF, UNKNOWN_ITEM, OTHER_CAMPAIGN, CONFLICT, NOT_SIGNED,
    CHANGED. ``item``/``line`` name where.
    """

    def __init__(
        self, code: str, message: str, *, item: str | None = None, line: int | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.item = item
        self.line = line


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


def connect(path: Path, *, read_only: bool = False) -> sqlite3.Connection:
    """A connection in WAL mode with ``synchronous=FULL`` (autocommit: transactions are
    explicit)."""
    if read_only:
        conn = sqlite3.connect(sqlite_uri(path), uri=True, isolation_level=None)
    else:
        conn = sqlite_connect(path, isolation_level=None)  # merge and close attach by URI
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA busy_timeout=5000")
    conn.execute("PRAGMA trusted_schema=OFF")  # a file's schema calls no function with effects
    if not read_only:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
    return conn


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
        detail=json.loads(row["detail"]) if row["detail"] else {},
        flag_count=row["flags"],
        part=row["part"],
        decision=row["decision"],
        decision_seq=row["decision_seq"],
    )


def _decided(row: sqlite3.Row) -> Decided:
    return Decided(*(row[k] for k in Decided.__slots__))


class Campaign:
    """An open campaign file. Thread use: one thread at a time per object."""

    def __init__(self, path: Path, conn: sqlite3.Connection, meta: dict[str, Any]) -> None:
        self.path = path
        self.conn = conn
        self._meta = meta

    # Opening ---------------------------------------------------------------------------------

    @classmethod
    def open(cls, path: Path) -> Campaign:
        """An existing campaign file, or :class:`CampaignError` saying why it is not one."""
        path = Path(path)
        if not path.is_file():
            raise CampaignError("NOT_FOUND", f"{path} does not exist")
        with open(path, "rb") as fh:
            head = fh.read(16)
        if head != b"SQLite format 3\x00":
            raise CampaignError("NOT_A_CAMPAIGN", f"{path.name} is not a campaign file")
        try:  # read-only first: a file that is not a campaign is left exactly as it was
            probe = sqlite3.connect(sqlite_uri(path), uri=True)
            try:
                meta = read_meta(probe)
                tables = {
                    r[0]
                    for r in probe.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                }
                foreign = probe.execute(
                    "SELECT type, name FROM sqlite_master WHERE type IN ('trigger', 'view')"
                    " ORDER BY type, name"
                ).fetchall()
            finally:
                probe.close()
        except (sqlite3.DatabaseError, ValueError):
            raise CampaignError("NOT_A_CAMPAIGN", f"{path.name} is not a campaign file") from None
        if meta.get("kind") != KIND:
            raise CampaignError("NOT_A_CAMPAIGN", f"{path.name} is not a campaign file")
        if foreign:  # this program makes neither: SQL that runs on our writes could change
            # a decision after it is made, before it is signed off
            named = ", ".join(f"{kind} {name!r}" for kind, name in foreign[:5])
            raise CampaignError(
                "FOREIGN_SQL",
                f"{path.name} carries SQL this program never puts in a campaign ({named}):"
                " refused, since it could change decisions behind the reviewer's back",
            )
        schema = meta.get("schema")
        if isinstance(schema, int) and schema <= SCHEMA_VERSION and not tables >= TABLES:
            missing = ", ".join(sorted(TABLES - tables))
            raise CampaignError("NOT_A_CAMPAIGN", f"{path.name} is damaged: no {missing} table")
        if not isinstance(schema, int) or schema > SCHEMA_VERSION:
            raise CampaignError(
                "NEWER_SCHEMA",
                f"{path.name} was made by a newer program (campaign format {schema};"
                f" this program reads up to {SCHEMA_VERSION})",
            )
        restrict(path)
        conn = connect(path)
        try:
            meta = read_meta(conn)
        except (sqlite3.DatabaseError, ValueError):
            conn.close()
            raise CampaignError("NOT_A_CAMPAIGN", f"{path.name} cannot be opened") from None
        return cls(path, conn, meta)

    def close(self) -> None:
        """Close the file."""
        self.conn.close()

    def __enter__(self) -> Campaign:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (``BEGIN IMMEDIATE``): committed whole, or rolled back."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    # Metadata --------------------------------------------------------------------------------

    @property
    def meta(self) -> dict[str, Any]:
        """The campaign's metadata (name, due, revocation, filter, scope, ...)."""
        return dict(self._meta)

    def reload_meta(self) -> dict[str, Any]:
        """The metadata as the file has it now."""
        self._meta = read_meta(self.conn)
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
            [(k, json.dumps(v, ensure_ascii=False)) for k, v in values.items()],
        )
        self._meta.update(values)

    # The queue -------------------------------------------------------------------------------

    def count(self, query: Query | None = None) -> int:
        """Items the filter keeps."""
        where, args = (query or Query()).where()
        return int(
            self.conn.execute(f"SELECT count(*) FROM items WHERE {where}", args).fetchone()[0]  # noqa: S608
        )

    def page(self, query: Query | None = None, *, after: int = 0, limit: int = 200) -> list[Item]:
        """Up to ``limit`` items the filter keeps, in campaign order, after item ``seq``
        ``after`` (keyset paging: each page costs the same, wherever it is)."""
        where, args = (query or Query()).where()
        rows = self.conn.execute(
            f"SELECT * FROM items WHERE seq > ? AND {where} ORDER BY seq LIMIT ?",  # noqa: S608
            [after, *args, limit],
        )
        return [_item(r) for r in rows]

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

    def item(self, item_id: str) -> Item | None:
        """One item by id."""
        row = self.conn.execute("SELECT * FROM items WHERE id = ?", (item_id,)).fetchone()
        return _item(row) if row else None

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

    def history(self, item_id: str) -> list[Decided]:
        """Every decision of one item, oldest first."""
        rows = self.conn.execute("SELECT * FROM decisions WHERE item = ? ORDER BY seq", (item_id,))
        return [_decided(r) for r in rows]

    def decision_of(self, item: Item) -> Decided | None:
        """The latest decision of an item."""
        if item.decision_seq is None:
            return None
        row = self.conn.execute(
            "SELECT * FROM decisions WHERE seq = ?", (item.decision_seq,)
        ).fetchone()
        return _decided(row) if row else None

    def totals(self) -> dict[str, int]:
        """Items, decided, and per decision; flagged."""
        row = self.conn.execute(
            "SELECT count(*), count(decision), sum(decision = 'KEEP'), sum(decision = 'REVOKE'),"
            " sum(decision = 'DONT_KNOW'), sum(flags > 0) FROM items"
        ).fetchone()
        keys = ("items", "decided", "kept", "revoked", "dont_know", "flagged")
        return {k: int(v or 0) for k, v in zip(keys, row, strict=True)}

    def flag_counts(self) -> dict[str, int]:
        """Items per flag code."""
        return {
            r[0]: r[1]
            for r in self.conn.execute(
                "SELECT code, count(*) FROM flags GROUP BY code ORDER BY code"
            )
        }

    def values(self, column: str) -> list[str]:
        """The distinct values of ``column`` (portal, institution, status, kind, part), for a
        filter's choices."""
        if column not in ("portal", "institution", "status", "kind", "part"):
            raise ValueError(column)
        rows = self.conn.execute(
            f"SELECT DISTINCT {column} FROM items WHERE {column} IS NOT NULL ORDER BY 1"  # noqa: S608
        )
        return [r[0] for r in rows]

    def own_items(self, reviewer: str) -> list[str]:
        """Ids of the reviewer's own account (its email is their name): ``decide`` refuses it
        to them, whether or not the file flags it (the desktop marks it for whoever opens)."""
        rows = self.conn.execute(
            "SELECT id FROM items WHERE kind = 'account' AND lower(label) = lower(?) ORDER BY seq",
            (reviewer.strip(),),
        )
        return [r[0] for r in rows]

    def signed_items(self) -> set[str]:
        """Ids of items covered by a sign-off in this file (their decisions are frozen)."""
        return {r[0] for r in self.conn.execute("SELECT DISTINCT item FROM signed_items")}

    def is_signed(self) -> bool:
        return self.conn.execute("SELECT 1 FROM signoffs LIMIT 1").fetchone() is not None


def _chunks(values: list[Any], size: int = 500) -> Iterator[list[Any]]:
    for i in range(0, len(values), size):
        yield values[i : i + size]


def read_meta(conn: sqlite3.Connection) -> dict[str, Any]:
    """The meta table as a dictionary (JSON values)."""
    return {k: json.loads(v) for k, v in conn.execute("SELECT key, value FROM meta")}


def restrict(path: Path) -> None:
    """The campaign file and its side files owner-only (when they are ours)."""
    for each in (path, *(Path(f"{path}{side}") for side in SIDE_FILES)):
        with contextlib.suppress(OSError):
            if WINDOWS or each.stat().st_mode & 0o077:
                make_private(each)


def partial_path(path: Path) -> Path:
    """Where a new campaign file is written before it is renamed into place."""
    return path.with_name(f".{path.name}.partial")
