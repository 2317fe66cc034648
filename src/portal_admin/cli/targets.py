"""A bulk command's targets, as its options name them: an imported list (a file or standard
input), ids, or every account matching filters; every pending invitation (older than N days).

A list is read up to its bound and no further (``/dev/zero`` or an endless pipe: a usage
error). Matching it against the server shows its progress on standard error, as a running job's
is shown: on a terminal, or with ``--progress``.
"""

from __future__ import annotations

import datetime as dt
import sys
import time
from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from typing import TextIO

from portal_admin import jobs
from portal_admin.client import PortalClient
from portal_admin.jobs import targets as pick
from portal_admin.jobs.actions import invitation_target
from portal_admin.jobs.targets import PlanProgress

from .errors import UsageError
from .progress import LOG_EVERY, TERMINAL_EVERY
from .typed import AccountFilters
from .words import IMPORT_PROBLEMS


@dataclass
class Chosen:
    """Targets, the lines that name none, and where they came from (in words)."""

    targets: Iterable[jobs.Target] | AsyncIterable[jobs.Target]
    source: str
    problems: list[jobs.Problem] = field(default_factory=list)


@dataclass(frozen=True)
class TargetOptions:
    """Which targets a bulk command names: a list (``--file``, ``--ids``), else every account
    the filters match (``--all-matching``) or every pending invitation (``--all-pending``,
    ``--older-than DAYS``)."""

    file: str | None = None
    ids: str | None = None
    all_matching: bool = False
    all_pending: bool = False
    older_than: int | None = None
    filters: AccountFilters = field(default_factory=AccountFilters)


def account_filters(filters: AccountFilters) -> dict[str, str]:
    """The filters given, as the accounts query's keyword arguments."""
    values = {
        "status": filters.status,
        "portal": filters.portal,
        "institution_biz_id": filters.institution,
        "email": filters.email,
        "name": filters.name,
    }
    return {key: value for key, value in values.items() if value}


def read_list(path: str) -> jobs.TargetList:
    """An imported list (``-``: standard input); a file that cannot be used is a usage error
    naming the line."""
    try:
        data = pick.read_limited(sys.stdin.buffer) if path == "-" else pick.read_file(path)
        return jobs.parse_list(jobs.decode(data))
    except OSError as exc:
        raise UsageError(f"{path}: {exc.strerror or exc}") from None
    except jobs.ImportFailed as exc:
        where = f", line {exc.line}" if exc.line else ""
        raise UsageError(f"{path}{where}: {IMPORT_PROBLEMS.get(exc.code, exc.code)}") from None


def listed_ids(text: str) -> jobs.TargetList:
    """``--ids A,B,C`` as an imported list (text that is not UTF-8, as a shell can pass, is
    refused: it could not even be kept in the plan)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise UsageError("--ids is not UTF-8 text") from None
    ids = [part.strip() for part in text.split(",") if part.strip()]
    if not ids:
        raise UsageError("--ids names nothing")
    return jobs.parse_list("\n".join(ids))


def _one_source(names: dict[str, object]) -> None:
    given = [name for name, value in names.items() if value]
    if len(given) != 1:
        raise UsageError(
            f"name the targets: one of {', '.join(names)}"
            if not given
            else f"choose one of {', '.join(given)}"
        )


def listed(command: str, options: TargetOptions) -> jobs.TargetList | None:
    """Check the target options of the bulk ``command`` and read the list they name (None:
    none is named), before anything is sent: a file that cannot be used stops the command at
    once."""
    if command == "invite":
        assert options.file is not None  # --file is required
        return _check_invitees(read_list(options.file), options.file)
    if command == "cancel-invitations":
        if options.older_than is not None and options.older_than < 0:
            raise UsageError("--older-than cannot be negative")
        every = options.all_pending or options.older_than is not None
        _one_source(
            {"--file": options.file, "--ids": options.ids, "--all-pending/--older-than": every}
        )
    else:
        _one_source(
            {"--file": options.file, "--ids": options.ids, "--all-matching": options.all_matching}
        )
        if account_filters(options.filters) and not options.all_matching:
            raise UsageError("the account filters go with --all-matching")
    if options.file:
        return read_list(options.file)
    if options.ids:
        return listed_ids(options.ids)
    return None


def _check_invitees(names: jobs.TargetList, path: str) -> jobs.TargetList:
    """An invitation list's own ``expirationDays`` must be whole days (1 or more)."""
    for problem in names.problems:
        if problem.code == jobs.ImportCode.BAD_EXPIRY:
            raise UsageError(
                f"{path}, line {problem.line}: expirationDays must be a whole number of days"
                f" (1 to {jobs.targets.MAX_DAYS})"
            )
    for entry in names.entries:
        days = str(entry.extra.get("expirationDays", "1"))
        if not days.isdecimal() or int(days) < 1:
            raise UsageError(
                f"{path}, line {entry.line}: expirationDays must be a whole number of days"
                f" (1 or more), not {days!r}"
            )
    return names


def _source(options: TargetOptions) -> str:
    """Where the targets came from, in words that can be kept (a file name that is not UTF-8
    is shown with escapes)."""
    if not options.file:
        return "the ids given"
    return f"the list {options.file.encode('utf-8', 'backslashreplace').decode('utf-8')}"


def plan_line(progress: PlanProgress) -> str:
    """One line of planning progress."""
    if progress.stage == "match":
        parts = [f"planning: {progress.done:,}/{progress.total or 0:,} lines read"]
        if progress.skipped:
            parts.append(f"{progress.skipped:,} name no account")
    else:
        parts = [f"planning: {progress.done:,} accounts read"]
    if progress.retries:
        parts.append(f"{progress.retries:,} read again after a server error")
    return " · ".join(parts)


class PlanPrinter:
    """Planning's ``on_progress``: like a running job's progress, one line rewritten on a
    terminal (at most every 0.25 s), or a line added at most once a second with
    ``--progress``; the first and the last count are always shown."""

    def __init__(
        self,
        stream: TextIO | None = None,
        *,
        forced: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stream = stream or sys.stderr
        self.terminal = self.stream.isatty()
        self.enabled = forced or self.terminal
        self.every = TERMINAL_EVERY if self.terminal else LOG_EVERY
        self.clock = clock
        self._last = float("-inf")
        self._shown = ""
        self._open = False  # a terminal line is waiting for its end

    def __call__(self, progress: PlanProgress, *, last: bool = False) -> None:
        now = self.clock()
        last = last or (progress.total is not None and progress.done >= progress.total)
        if not self.enabled or (now - self._last < self.every and not last):
            return
        text = plan_line(progress)
        if text == self._shown:
            return
        self._last, self._shown = now, text
        if self.terminal:
            self.stream.write(f"\r\x1b[K{text}")
            self._open = True
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def end(self) -> None:
        """End the rewritten line (before other messages)."""
        if self._open:
            self.stream.write("\n")
            self.stream.flush()
            self._open = False


async def _counted(
    targets: AsyncIterable[jobs.Target], printer: PlanPrinter
) -> AsyncIterator[jobs.Target]:
    """``targets``, telling ``printer`` how many were read so far."""
    reporter = pick.PlanReporter("plan", printer, None)
    reporter.report(force=True)
    async for target in targets:
        yield target
        reporter.step()
    printer(reporter.progress(), last=True)
    printer.end()


async def accounts(
    client: PortalClient,
    options: TargetOptions,
    names: jobs.TargetList | None,
    *,
    concurrency: int | None,
    progress: bool,
) -> Chosen:
    """Accounts from the list ``names``, else every account the filters match (``progress``:
    shown even when standard error is no terminal)."""
    printer = PlanPrinter(forced=progress)
    if names is not None:
        try:
            found, problems = await pick.match_accounts(
                client, names, concurrency=_reads_at_once(concurrency), on_progress=printer
            )
        finally:
            printer.end()
        return Chosen(found, _source(options), problems)
    filters = account_filters(options.filters)
    words = " ".join(f"{key}={value}" for key, value in filters.items())
    return Chosen(
        _counted(pick.all_accounts(client, **filters), printer),
        f"every account matching {words}" if words else "every account",
    )


def _reads_at_once(concurrency: int | None) -> int:
    """Reads in flight while a list is matched: ``--concurrency``, and at least 8."""
    return max(8, concurrency or 0)


async def invitees(client: PortalClient, options: TargetOptions, names: jobs.TargetList) -> Chosen:
    """Emails to invite, from the list ``names``."""
    found, problems = pick.invitee_targets(await client.invitations.list(), names)
    return Chosen(found, _source(options), problems)


def _utc(moment: dt.datetime) -> dt.datetime:
    """``moment`` with a zone (a server time without one is UTC)."""
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)


async def invitations(
    client: PortalClient, options: TargetOptions, names: jobs.TargetList | None
) -> Chosen:
    """Invitations from the list ``names``, else every pending one (older than N days)."""
    invitations = await client.invitations.list()
    if names is not None:
        found, problems = pick.match_invitations(invitations, names)
        return Chosen(found, _source(options), problems)
    cutoff = None
    if options.older_than is not None:
        cutoff = dt.datetime.now(dt.UTC) - dt.timedelta(days=options.older_than)
    pending = [
        invitation_target(i)
        for i in invitations
        if i.invitation_status is not None
        and i.invitation_status.is_("PENDING")
        and (cutoff is None or (i.created_at is not None and _utc(i.created_at) < cutoff))
    ]
    older = f" created more than {options.older_than} days ago" if cutoff else ""
    return Chosen(pending, f"every pending invitation{older}")
