"""Choosing a job's targets: an imported CSV or pasted list, matched against the server.

A file that cannot be read as a list (wrong encoding, an unterminated quote, no usable column,
too many lines) raises :class:`ImportFailed` naming the line. Lines that can be read but not
used (not an email or id, listed twice, no such account) are kept as :class:`Problem` lines:
the plan lists them as skipped, so nothing is dropped silently.
"""

from __future__ import annotations

import asyncio
import csv
import functools
import io
import re
from collections.abc import AsyncIterable, Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from portal_admin.client import PortalClient
from portal_admin.client.errors import NotFoundError
from portal_admin.client.records import Invitation
from portal_admin.protocol.bodies import EXPIRATION_DAYS

from .actions import Target, account_target, email_target, invitation_target

#: The most lines an imported list may have (the sandbox holds 100,000 accounts).
MAX_LINES = 200_000
#: The longest invitation expiry an imported line may ask for (days).
#: An invitation's expiry in days, as the wire description bounds it.
MIN_DAYS, MAX_DAYS = EXPIRATION_DAYS
#: The largest file read (bytes); a larger one is refused before it is decoded.
MAX_BYTES = 64 * 1024 * 1024

EMAIL_COLUMNS = ("email", "accountemail", "inviteeemail", "e-mail", "mail")
ID_COLUMNS = ("id", "bizid", "userbizid", "invitationbizid", "target_id", "targetid")
EXTRA_COLUMNS = {"message": "message", "expirationdays": "expirationDays"}
_EMAIL = re.compile(r"^[^@\s,;]+@[^@\s,;]+\.[^@\s,;]+$")


class ImportFailed(ValueError):
    """The list cannot be read. ``code`` names the problem, ``line`` where (1-based)."""

    def __init__(self, code: str, line: int | None = None, detail: str = "") -> None:
        where = f" at line {line}" if line else ""
        super().__init__(f"{code}{where}{': ' + detail if detail else ''}")
        self.code = code
        self.line = line
        self.detail = detail


class ImportCode:
    """Codes of :class:`ImportFailed` and :class:`Problem` (worded by the UI and CLI)."""

    WRONG_ENCODING = "WRONG_ENCODING"
    TOO_LARGE = "TOO_LARGE"
    TOO_MANY_LINES = "TOO_MANY_LINES"
    MISSING_COLUMN = "MISSING_COLUMN"
    BAD_CSV = "BAD_CSV"
    EMPTY = "EMPTY"
    INVALID = "INVALID"  # a line that is neither an email nor an id
    BAD_EXPIRY = "BAD_EXPIRY"  # an expirationDays that is not 1 to 30 whole days
    DUPLICATE = "DUPLICATE"
    NOT_FOUND = "NOT_FOUND"


@dataclass(frozen=True, slots=True)
class Entry:
    """One usable line: an email or an id, with optional extra columns."""

    line: int
    value: str
    is_email: bool
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Problem:
    """One line that names no target, and why."""

    line: int
    value: str
    code: str

    def target(self) -> Target:
        """The line as a plan target (always skipped)."""
        return Target(self.value or f"line {self.line}", f"line {self.line}: {self.value}", {})


@dataclass
class TargetList:
    """What an import yields: usable entries and the problem lines."""

    entries: list[Entry] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def decode(data: bytes) -> str:
    """The text of an imported file (UTF-8, with or without a BOM)."""
    if len(data) > MAX_BYTES:
        raise ImportFailed(ImportCode.TOO_LARGE, None, f"{len(data)} bytes")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ImportFailed(ImportCode.WRONG_ENCODING, line, "not UTF-8") from None


def parse_list(text: str) -> TargetList:
    """Entries of a CSV (with a header naming an email or id column) or a one-per-line list."""
    if text.count("\n") > MAX_LINES:
        raise ImportFailed(ImportCode.TOO_MANY_LINES, MAX_LINES + 1, f"at most {MAX_LINES}")
    if not text.strip():
        raise ImportFailed(ImportCode.EMPTY)
    first = text.lstrip().splitlines()[0]
    delimiter = max((",", ";", "\t"), key=first.count)
    rows = csv.reader(io.StringIO(text), delimiter=delimiter, strict=True)
    result = TargetList()
    seen: dict[str, int] = {}
    column: int | None = None
    extras: dict[int, str] = {}
    try:
        for row in rows:
            line = rows.line_num
            cells = [c.strip() for c in row]
            if not any(cells):
                continue
            if column is None:
                column, extras, is_header = _columns(cells, line)
                if is_header:
                    continue
            value = cells[column] if column < len(cells) else ""
            _add(
                result,
                seen,
                line,
                value,
                {key: cells[i] for i, key in extras.items() if i < len(cells) and cells[i]},
            )
    except csv.Error as exc:
        raise ImportFailed(ImportCode.BAD_CSV, rows.line_num, str(exc)) from None
    if not result.entries and not result.problems:
        raise ImportFailed(ImportCode.EMPTY)
    return result


def _columns(cells: Sequence[str], line: int) -> tuple[int, dict[int, str], bool]:
    """The target column, the extra columns, and whether this first row is a header."""
    names = [c.lower().replace(" ", "").replace("_", "") for c in cells]
    for wanted in (EMAIL_COLUMNS, ID_COLUMNS):
        for i, name in enumerate(names):
            if name in (w.replace("_", "") for w in wanted):
                extras = {j: EXTRA_COLUMNS[n] for j, n in enumerate(names) if n in EXTRA_COLUMNS}
                return i, extras, True
    if len(cells) == 1 or _EMAIL.match(cells[0]):
        return 0, {}, False
    raise ImportFailed(ImportCode.MISSING_COLUMN, line, "no email or id column")


def _add(
    result: TargetList, seen: dict[str, int], line: int, value: str, extra: dict[str, Any]
) -> None:
    is_email = "@" in value
    if not value or (is_email and not _EMAIL.match(value)) or any(c.isspace() for c in value):
        result.problems.append(Problem(line, value, ImportCode.INVALID))
        return
    days = extra.get("expirationDays")
    if days is not None and not (str(days).isdigit() and MIN_DAYS <= int(days) <= MAX_DAYS):
        result.problems.append(Problem(line, value, ImportCode.BAD_EXPIRY))
        return
    key = value.lower() if is_email else value
    if key in seen:
        result.problems.append(Problem(line, value, ImportCode.DUPLICATE))
        return
    seen[key] = line
    result.entries.append(Entry(line, value, is_email, extra))


async def _bounded(jobs: Iterable[Callable[[], Awaitable[Any]]], concurrency: int) -> list[Any]:
    """Run coroutine factories with at most ``concurrency`` at once, results in order."""
    gate = asyncio.Semaphore(concurrency)

    async def one(job: Callable[[], Awaitable[Any]]) -> Any:
        async with gate:
            return await job()

    return list(await asyncio.gather(*(one(j) for j in jobs)))


async def match_accounts(
    client: PortalClient, targets: TargetList, *, concurrency: int = 8
) -> tuple[list[Target], list[Problem]]:
    """The accounts an import names (by email or id), and the lines that name none."""

    async def find(entry: Entry) -> Target | Problem:
        try:
            if entry.is_email:
                page = await client.accounts.query(email=entry.value, size=20)
                wanted = entry.value.lower()
                for account in page.items:
                    if (account.account_email or "").lower() == wanted:
                        return account_target(account)
                return Problem(entry.line, entry.value, ImportCode.NOT_FOUND)
            return account_target(await client.accounts.get(entry.value))
        except NotFoundError:
            return Problem(entry.line, entry.value, ImportCode.NOT_FOUND)

    found = await _bounded([functools.partial(find, e) for e in targets.entries], concurrency)
    return _split(found, targets.problems)


def _split(
    found: Iterable[Target | Problem], problems: list[Problem]
) -> tuple[list[Target], list[Problem]]:
    matched: list[Target] = []
    missing = list(problems)
    seen: set[str] = set()
    for item in found:
        if isinstance(item, Problem):
            missing.append(item)
        elif item.id in seen:  # an email and an id naming one account
            missing.append(Problem(0, item.label, ImportCode.DUPLICATE))
        else:
            seen.add(item.id)
            matched.append(item)
    missing.sort(key=lambda p: p.line)
    return matched, missing


def match_invitations(
    invitations: Sequence[Invitation], targets: TargetList
) -> tuple[list[Target], list[Problem]]:
    """The invitations an import names: by id, or every pending one to an email."""
    by_id = {i.biz_id: i for i in invitations}
    found: list[Target | Problem] = []
    for entry in targets.entries:
        if not entry.is_email:
            invitation = by_id.get(entry.value)
            found.append(
                invitation_target(invitation)
                if invitation
                else Problem(entry.line, entry.value, ImportCode.NOT_FOUND)
            )
            continue
        mine = [
            i
            for i in invitations
            if (i.invitee_email or "").lower() == entry.value.lower()
            and i.invitation_status is not None
            and i.invitation_status.is_("PENDING")
        ]
        found.extend(invitation_target(i) for i in mine)
        if not mine:
            found.append(Problem(entry.line, entry.value, ImportCode.NOT_FOUND))
    return _split(found, targets.problems)


def invitee_targets(
    invitations: Sequence[Invitation], targets: TargetList
) -> tuple[list[Target], list[Problem]]:
    """Emails to invite (an id is not an email: a problem line)."""
    found: list[Target | Problem] = []
    listed = list(invitations)
    for entry in targets.entries:
        if entry.is_email:
            found.append(email_target(entry.value, listed, entry.extra))
        else:
            found.append(Problem(entry.line, entry.value, ImportCode.INVALID))
    return _split(found, targets.problems)


async def all_accounts(client: PortalClient, **query: Any) -> AsyncIterable[Target]:
    """Every account matching ``query`` (the accounts panel's filter), page by page."""
    async for account in client.accounts.iterate(size=100, **query):
        yield account_target(account)
