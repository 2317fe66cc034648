"""Choosing a job's targets: an imported CSV or pasted list, matched against the server.

A file that cannot be read as a list (wrong encoding, an unterminated quote, no usable column,
too many lines) raises :class:`ImportFailed` naming the line; at most :data:`MAX_BYTES` plus one
byte of it is ever read (:func:`read_limited`). Lines that can be read but not used (not an
email or id, listed twice, no such account) are kept as :class:`Problem` lines: the plan lists
them as skipped, so nothing is dropped silently.

Matching a list against the server reads each line's account with at most ``concurrency``
reads in flight (never one task per line), reports :class:`PlanProgress` as it goes, and
retries a read the server failed with a 500 under the client's retry policy (the client itself
retries connection failures and 502/503/504), so one passing failure does not end the plan.
"""

from __future__ import annotations

import asyncio
import csv
import logging
import re
import time
from collections.abc import AsyncIterable, Awaitable, Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

import stamina

from portal_admin.client import PortalClient
from portal_admin.client.areas._base import iterate_pages
from portal_admin.client.errors import (
    InvalidIdError,
    MalformedResponseError,
    NotFoundError,
    ServerError,
)
from portal_admin.client.invoker import RETRY_STATUSES
from portal_admin.client.records import Invitation
from portal_admin.protocol.bodies import EXPIRATION_DAYS
from portal_admin.protocol.operations import is_id

from .actions import Target, account_target, email_target, invitation_target

#: The most lines an imported list may have (the sandbox holds 100,000 accounts).
MAX_LINES = 200_000
#: The longest invitation expiry an imported line may ask for (days).
#: An invitation's expiry in days, as the wire description bounds it.
MIN_DAYS, MAX_DAYS = EXPIRATION_DAYS
#: The largest file read (bytes); a larger one is refused before it is decoded.
MAX_BYTES = 64 * 1024 * 1024
#: How much of a file is read at a time.
READ_CHUNK = 1024 * 1024
#: The most reads planning keeps in flight, whatever concurrency is asked for.
MAX_IN_FLIGHT = 256
#: Seconds between two planning progress reports (the first and the last are always sent).
PROGRESS_EVERY = 0.1

log = logging.getLogger(__name__)
T = TypeVar("T")
R = TypeVar("R")

EMAIL_COLUMNS = ("email", "accountemail", "inviteeemail", "e-mail", "mail")
ID_COLUMNS = ("id", "bizid", "userbizid", "invitationbizid", "target_id", "targetid")
EXTRA_COLUMNS = {"message": "message", "expirationdays": "expirationDays"}
_EMAIL = re.compile(r"^[^@\s,;]+@[^@\s,;]+\.[^@\s,;]+$")
_NON_SPACE = re.compile(r"\S")


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


def read_limited(stream: BinaryIO, limit: int = MAX_BYTES) -> bytes:
    """All of ``stream`` when it holds at most ``limit`` bytes; :class:`ImportFailed`
    (``TOO_LARGE``) otherwise. At most ``limit + 1`` bytes are read, so ``/dev/zero`` or an
    endless pipe ends with the error instead of filling the memory."""
    data = bytearray()
    while len(data) <= limit:
        chunk = stream.read(min(READ_CHUNK, limit + 1 - len(data)))
        if not chunk:
            break
        data += chunk
    if len(data) > limit:
        raise ImportFailed(ImportCode.TOO_LARGE, None, f"more than {limit} bytes")
    return bytes(data)


def read_file(path: str | Path, limit: int = MAX_BYTES) -> bytes:
    """A list file's bytes, read as :func:`read_limited` does (OSError when it cannot be
    opened)."""
    with open(path, "rb") as fh:
        return read_limited(fh, limit)


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
    found = _NON_SPACE.search(text)
    if found is None:
        raise ImportFailed(ImportCode.EMPTY)
    first = text[found.start() : found.start() + 65536].splitlines()[0]  # not every line
    delimiter = max((",", ";", "\t"), key=first.count)
    rows = csv.reader(_lines(text), delimiter=delimiter, strict=True)
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


def _lines(text: str) -> Iterator[str]:
    """The lines of ``text``, each with its ``\\n``, one at a time: what ``io.StringIO(text)``
    gives, without its copy of the whole text (four bytes a character: 190 MiB for a 47 MiB
    list)."""
    start, size = 0, len(text)
    while start < size:
        end = text.find("\n", start)
        if end < 0:
            yield text[start:]
            return
        yield text[start : end + 1]
        start = end + 1


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
    if not value or (_EMAIL.match(value) is None if is_email else not is_id(value)):
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


@dataclass(frozen=True, slots=True)
class PlanProgress:
    """How far planning is, in one of its two stages: ``"match"`` (a list's lines read from
    the server, :func:`match_accounts`) or ``"plan"`` (targets planned, ``create_job``).
    ``done`` of ``total`` (None: not known yet, as for every account matching a filter), how
    many of them will be skipped, and how many reads were tried again."""

    stage: str
    done: int
    total: int | None
    skipped: int = 0
    retries: int = 0


PlanProgressCallback = Callable[[PlanProgress], object]


class PlanReporter:
    """Sends :class:`PlanProgress` to a callback: at once, then at most every
    :data:`PROGRESS_EVERY` seconds, and at the end (:meth:`finish`)."""

    def __init__(
        self,
        stage: str,
        callback: PlanProgressCallback | None,
        total: int | None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stage = stage
        self.callback = callback
        self.total = total
        self.clock = clock
        self.done = self.skipped = self.retries = 0
        self._last = float("-inf")

    def progress(self) -> PlanProgress:
        """The counts now."""
        return PlanProgress(self.stage, self.done, self.total, self.skipped, self.retries)

    def step(self, *, skipped: bool = False) -> None:
        """One more line read or target planned."""
        self.done += 1
        self.skipped += skipped
        self.report()

    def report(self, *, force: bool = False) -> None:
        """Tell the callback, unless it was told less than PROGRESS_EVERY seconds ago."""
        if self.callback is None:
            return
        now = self.clock()
        if force or now - self._last >= PROGRESS_EVERY:
            self._last = now
            self.callback(self.progress())

    def finish(self) -> None:
        """The last report."""
        self.report(force=True)


def transient(exc: BaseException) -> bool:
    """A failed read worth another try that the client does not retry itself: a 5xx answer
    other than 502, 503 and 504 (which the client's own retries have already tried)."""
    status = getattr(exc, "http_status", None)
    return (
        isinstance(exc, ServerError | MalformedResponseError)
        and status is not None
        and status >= 500
        and status not in RETRY_STATUSES
    )


async def planning_read(
    client: PortalClient, read: Callable[[], Awaitable[T]], reporter: PlanReporter | None = None
) -> T:
    """``read()``, tried again under the client's retry policy (attempts, backoff, time) when
    the server fails it with a 500: planning only reads, so another try is always safe."""
    try:
        return await read()
    except Exception as exc:
        policy = client.options.retry
        if policy.attempts <= 1 or not transient(exc):
            raise
        log.info("planning read failed (%s), retrying", getattr(exc, "code", type(exc).__name__))
    async for attempt in stamina.retry_context(
        on=transient,
        attempts=policy.attempts - 1,
        timeout=policy.timeout,
        wait_initial=policy.wait_initial,
        wait_max=policy.wait_max,
        wait_jitter=policy.wait_jitter,
    ):
        with attempt:
            if reporter is not None:
                reporter.retries += 1
            return await read()
    raise AssertionError("unreachable")  # pragma: no cover


async def each_bounded(
    items: Sequence[T], work: Callable[[T], Awaitable[R]], concurrency: int
) -> list[R]:
    """``work(item)`` for every item, results in order, with at most ``concurrency`` (and
    :data:`MAX_IN_FLIGHT`) running at once: that many workers take the items in turn, so the
    memory held does not grow with the number of items. The first failure cancels the rest and
    is raised."""
    results: list[Any] = [None] * len(items)
    pending = iter(enumerate(items))

    async def worker() -> None:
        for index, item in pending:  # shared: each item is taken by one worker
            results[index] = await work(item)

    workers = [
        asyncio.ensure_future(worker())
        for _ in range(max(1, min(concurrency, MAX_IN_FLIGHT, len(items))))
    ]
    try:
        await asyncio.gather(*workers)
    except BaseException:
        for task in workers:
            task.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
        raise
    return results


async def match_accounts(
    client: PortalClient,
    targets: TargetList,
    *,
    concurrency: int = 8,
    on_progress: PlanProgressCallback | None = None,
) -> tuple[list[Target], list[Problem]]:
    """The accounts an import names (by email or id), and the lines that name none.

    At most ``concurrency`` reads are in flight; ``on_progress`` hears how many lines are read
    (at once, as it goes, and at the end).
    """
    reporter = PlanReporter("match", on_progress, len(targets.entries))
    reporter.report(force=True)

    async def read(entry: Entry) -> Target | Problem:
        if entry.is_email:
            page = await client.accounts.query(email=entry.value, size=20)
            wanted = entry.value.lower()
            for account in page.items:
                if (account.account_email or "").lower() == wanted:
                    return account_target(account)
            return Problem(entry.line, entry.value, ImportCode.NOT_FOUND)
        return account_target(await client.accounts.get(entry.value))

    async def find(entry: Entry) -> Target | Problem:
        try:
            found = await planning_read(client, lambda: read(entry), reporter)
        except NotFoundError:
            found = Problem(entry.line, entry.value, ImportCode.NOT_FOUND)
        except InvalidIdError:  # not reached from parse_list, which refuses such lines
            found = Problem(entry.line, entry.value, ImportCode.INVALID)
        reporter.step(skipped=isinstance(found, Problem))
        return found

    found = await each_bounded(targets.entries, find, concurrency)
    reporter.finish()
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
    """Every account matching ``query`` (the accounts panel's filter), page by page (a page
    the server fails with a 500 is read again, as :func:`planning_read` does)."""

    def page(number: int) -> Awaitable[Any]:
        return planning_read(client, lambda: client.accounts.query(page=number, size=100, **query))

    async for account in iterate_pages(page):
        yield account_target(account)
