"""``review create|status|split|merge|decide|sign|verify|remediate|close|pack``: access-review
campaigns (``portal_admin.reviews``, no Qt) on the command line.

Every command works on the campaign file alone, without a server, except ``create`` when it
takes the scope's snapshot itself, ``remediate`` and ``close``. The reviewer is named with
``--reviewer`` (offline commands) and is identified by this installation's key (the OS
keyring: the key that signs evidence packs); the commands that sign in also know the
server's identity of the person (``GET /profile``). Every text from a file or a server is
printed through ``files.terminal.printable`` (no escape sequence reaches the terminal). Exit
status: 0 done, 1 refused by the campaign (a verification that finds changes, a merge or
decision refused, a remediation refused or that did not finish), 2 the command line or an
input file cannot be used (a hostile or damaged campaign file included; nothing recorded),
or a step that needs ``--allow-undecided`` / ``--allow-unremediated``; ``verify`` 3: nothing
signed, or a signer this installation does not trust.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from portal_admin.evidence import keys
from portal_admin.evidence.snapshot import SnapshotError, take_snapshot
from portal_admin.evidence.trust import TrustError
from portal_admin.files.terminal import printable
from portal_admin.reviews import campaign as campaigns
from portal_admin.reviews import closing, decisions, opening, signoff, split_merge
from portal_admin.reviews import pack as review_pack
from portal_admin.reviews.create import ScopeFilter, Settings, create_campaign

from .errors import EXIT_FAILED, EXIT_OK, UsageError
from .output import say as _say_raw
from .output import writable, write_csv, write_json_lines
from .typed import ConnectionOptions, RunOptions

if TYPE_CHECKING:
    from portal_admin.reviews.remediation import Remediation

    from .session import Connection

#: Codes of refusals that are the input's fault (exit 2) rather than the campaign's (exit 1).
_USAGE = {
    "NOT_FOUND", "NOT_A_CAMPAIGN", "NEWER_SCHEMA", "BAD_INPUT", "FOREIGN_SQL", "SCHEMA",
    "DAMAGED", "TOO_SLOW", "UNDECIDED", "UNREMEDIATED",
}  # fmt: skip


def say(text: str) -> None:
    """A line for the person on standard error, neutralised (text from files and servers)."""
    _say_raw(printable(text))


def out(text: str) -> None:
    """A line of output on standard output, neutralised."""
    print(printable(text))


STATUS_HEADER = (
    "id", "decision", "justification", "kind", "label", "name", "status", "portal",
    "institution", "updated", "flags", "flag reasons", "decided", "decided by", "part",
)  # fmt: skip


@dataclass(frozen=True)
class CreateCommand:
    """``review create``: the campaign file, its settings, and its scope (a snapshot given, or
    one taken now from the connection's server)."""

    out: str
    name: str
    due: str | None
    revocation: str
    snapshot: str | None
    since: str | None
    portal: tuple[str, ...] | None
    institution: tuple[str, ...] | None
    status: tuple[str, ...] | None
    stale_days: int
    reviewer: str | None
    connection: ConnectionOptions


@dataclass(frozen=True)
class StatusCommand:
    """``review status``: the report's format, and the items CSV (which items, how)."""

    campaign: str
    items: str | None
    undecided: bool
    flagged: bool
    delimiter: str
    format: str


@dataclass(frozen=True)
class SplitCommand:
    """``review split``: by what, where to, and who reviews each part (``VALUE=NAME``)."""

    campaign: str
    by: str
    out_dir: str
    reviewer: tuple[str, ...] | None


@dataclass(frozen=True)
class MergeCommand:
    """``review merge``: the part files to merge back."""

    campaign: str
    parts: tuple[str, ...]


@dataclass(frozen=True)
class DecideCommand:
    """``review decide``: a decisions CSV, or one ``--item`` with its decision; who decides."""

    campaign: str
    csv: str | None
    item: str | None
    decision: str | None
    justification: str | None
    reviewer: str | None


@dataclass(frozen=True)
class SignCommand:
    """``review sign``: who signs, and whether undecided items may be signed off."""

    campaign: str
    reviewer: str | None
    allow_undecided: bool


@dataclass(frozen=True)
class VerifyCommand:
    """``review verify``: the key every sign-off must use (default: the trusted ones)."""

    campaign: str
    fingerprint: str | None


@dataclass(frozen=True)
class RemediateCommand:
    """``review remediate``: the reviewer's key as given, the connection, how the jobs run."""

    campaign: str
    fingerprint: str | None
    connection: ConnectionOptions
    run: RunOptions


@dataclass(frozen=True)
class CloseCommand:
    """``review close``: the closing snapshot's place; closing with Revokes not carried out."""

    campaign: str
    snapshot: str | None
    allow_unremediated: bool
    connection: ConnectionOptions


@dataclass(frozen=True)
class PackCommand:
    """``review pack``: the pack's place; a one-off key when this installation's is unusable."""

    campaign: str
    out: str
    ephemeral_key: bool


class Refused(Exception):
    """The campaign refused (exit 1)."""


def _fail(exc: campaigns.CampaignError) -> Exception:
    if exc.code in _USAGE:
        return UsageError(printable(f"{exc} ({exc.code})"))
    return Refused(f"refused ({exc.code}): {exc}")


@contextmanager
def opened(path: str) -> Iterator[campaigns.Campaign]:
    """The campaign file, closed after; a file that is not one: exit 2 naming why."""
    try:
        campaign = campaigns.Campaign.open(Path(path))
    except campaigns.CampaignError as exc:
        raise _fail(exc) from None
    try:
        yield campaign
    finally:
        campaign.close()


Handler = TypeVar("Handler", bound=Callable[..., Any])


def guarded(fn: Handler) -> Handler:
    """A command whose campaign refusals end in a named message: exit 2 for unusable input,
    1 for a refusal of the campaign's (never a traceback)."""

    def refused(exc: Exception) -> int:
        if isinstance(exc, sqlite3.DatabaseError) and opening.too_slow(exc):
            raise UsageError("the campaign file took too long to read: refused (TOO_SLOW)")
        if isinstance(exc, sqlite3.DatabaseError):  # damaged, locked too long, disk full
            exc = Refused(f"the campaign file cannot be used: {exc}")
        if isinstance(exc, campaigns.CampaignError):
            exc = _fail(exc)
        if isinstance(exc, UsageError):
            raise exc
        return _refused(exc)  # type: ignore[arg-type]

    if inspect.iscoroutinefunction(fn):

        @functools.wraps(fn)
        async def run_async(cmd: object) -> int:
            try:
                return int(await fn(cmd))
            except (campaigns.CampaignError, Refused, sqlite3.DatabaseError) as exc:
                return refused(exc)

        return cast(Handler, run_async)

    @functools.wraps(fn)
    def run(cmd: object) -> int:
        try:
            return int(fn(cmd))
        except (campaigns.CampaignError, Refused, sqlite3.DatabaseError) as exc:
            return refused(exc)

    return cast(Handler, run)


def _refused(exc: Refused) -> int:
    say(f"portal-admin-cli: {exc}")
    return EXIT_FAILED


def _signer(s: signoff.Signoff) -> str:
    """A sign-off for a person: reviewer, part, time, key, trust verdict, server identity."""
    trust = {
        "own": "this installation's key",
        "trusted": f"trusted as {s.trusted_name!r}",
        "pinned": "the key given with --fingerprint",
        "untrusted": "NOT TRUSTED by this installation",
    }.get(s.trust, "")
    account = (
        f"; signed in as {s.account_email or s.account_id}"
        + (f" (account {s.account_id})" if s.account_id and s.account_email else "")
        if s.account_id or s.account_email
        else "; not signed in"
    )
    old = "; format 1 (does not cover the revocation action)" if s.format < signoff.FORMAT else ""
    mark = "  SIGNATURE DOES NOT VERIFY" if not s.valid else ""
    return (
        f"signed off by {s.reviewer} ({s.part or 'the whole campaign'}) at {s.signed_at}:"
        f" key {s.fingerprint}{'; ' + trust if trust else ''}{account}{old}{mark}"
    )


def _key() -> Any:
    try:
        return keys.signing_key()
    except keys.KeyUnavailable as exc:
        raise UsageError(f"this installation's key is needed: {exc}") from None


def _reviewer(name: str | None) -> decisions.Reviewer:
    if not name:
        raise UsageError("name the reviewer with --reviewer NAME (an email, say)")
    try:
        return decisions.reviewer_of(name)
    except keys.KeyUnavailable as exc:
        raise UsageError(f"this installation's key is needed: {exc}") from None
    except campaigns.CampaignError as exc:
        raise UsageError(str(exc)) from None


def _split_list(values: tuple[str, ...] | None) -> list[str]:
    return [v.strip() for each in values or [] for v in each.split(",") if v.strip()]


# create -------------------------------------------------------------------------------------


@guarded
async def create(cmd: CreateCommand) -> int:
    """Make a campaign from a snapshot (taken now unless --snapshot names one)."""
    out = writable(cmd.out)
    if out.exists():
        raise UsageError(f"{out} exists already: a campaign is never overwritten")
    due = cmd.due or (datetime.now(UTC).date() + timedelta(days=14)).isoformat()
    try:
        date.fromisoformat(due)
    except ValueError:
        raise UsageError(f"--due: not a date (YYYY-MM-DD): {due!r}") from None
    settings = Settings(
        name=cmd.name,
        due=due,
        revocation=cmd.revocation,
        scope_filter=ScopeFilter(
            _split_list(cmd.portal), _split_list(cmd.institution), _split_list(cmd.status)
        ),
        stale_days=cmd.stale_days,
        reviewer=cmd.reviewer or "",
    )
    since = Path(cmd.since) if cmd.since else None
    try:
        settings.check()
    except campaigns.CampaignError as exc:
        raise UsageError(str(exc)) from None
    if cmd.snapshot:
        scope = Path(cmd.snapshot)
        made = _made(out, scope, settings, since)
    else:
        from .session import connect

        scope = out.with_name(f"{out.name}.scope.sqlite3")
        if scope.exists():
            raise UsageError(f"{scope} exists already")
        async with connect(cmd.connection) as conn:
            context = conn.context()
            settings = dataclasses.replace(settings, created_by=context.account)
            say(f"taking the scope's snapshot into {scope}")
            try:
                await take_snapshot(
                    conn.client, scope, profile=context.profile, server=context.server,
                    account=context.account,
                )  # fmt: skip
            except SnapshotError as exc:
                raise UsageError(str(exc)) from None
        made = _made(out, scope, settings, since)
    return made


def _made(out: Path, scope: Path, settings: Settings, since: Path | None) -> int:
    try:
        campaign = create_campaign(out, scope, settings, since=since)
    except campaigns.CampaignError as exc:
        raise _fail(exc) from None
    with campaign:
        totals = campaign.totals()
        flags = ", ".join(f"{n} {code}" for code, n in campaign.flag_counts().items())
        say(
            f"campaign {campaign.name!r} written to {out}: {totals['items']:,} items"
            f" ({totals['flagged']:,} flagged{': ' + flags if flags else ''}); due {settings.due}"
        )
    return EXIT_OK


# status -------------------------------------------------------------------------------------


@guarded
def status(cmd: StatusCommand) -> int:
    """Totals and flags (as text, or one JSON line); with --items, every item as CSV (a
    decisions template)."""
    with opened(cmd.campaign) as campaign:
        record = status_record(campaign)
        if cmd.format == "json":
            write_json_lines([record], None)
        else:
            _show_status(record)
        if cmd.items:
            query = campaigns.Query(
                decision="UNDECIDED" if cmd.undecided else None,
                flagged=True if cmd.flagged else None,
            )
            write_csv(
                [STATUS_HEADER, *_status_rows(campaign, query)],
                str(writable(cmd.items)),
                cmd.delimiter,
            )
            say(f"{campaign.count(query):,} items written to {cmd.items}")
    return EXIT_OK


def status_record(campaign: campaigns.Campaign) -> dict[str, Any]:
    """The campaign's status as one record (``review status --format json``; docs/cli.md)."""
    meta = campaign.meta
    scope = meta.get("scope") or {}
    return {
        "campaign": campaign.name,
        "part": meta.get("part") or "",
        "due": meta.get("due") or "",
        "revocation": campaign.revocation,
        "scope_server": scope.get("server") or "",
        "scope_finished": scope.get("finished") or "",
        "totals": review_pack.totals(campaign),
        "flags": campaign.flag_counts(),
        "signoffs": [
            {
                "reviewer": s.reviewer,
                "part": s.part,
                "signed_at": s.signed_at,
                "fingerprint": s.fingerprint,
                "items": s.items,
            }
            for s in signoff.signoffs(campaign)
        ],
        "closed": bool(meta.get("closed")),
        "closed_at": meta.get("closed_at") or "",
        "closed_by": meta.get("closed_by") or "",
    }


def _show_status(record: dict[str, Any]) -> None:
    part = f" (part {record['part']})" if record["part"] else ""
    out(
        f"campaign: {record['campaign']}{part}, due {record['due'] or None},"
        f" revocation {record['revocation']}"
    )
    out(f"scope: {record['scope_server'] or None} at {record['scope_finished'] or None}")
    for key, value in record["totals"].items():
        out(f"{key}: {value:,}")
    for code, n in record["flags"].items():
        out(f"flag {code}: {n:,}")
    for s in record["signoffs"]:
        out(
            f"signed off by {s['reviewer']} at {s['signed_at']} with key {s['fingerprint']}"
            " (not checked: review verify checks)"
        )
    if record["closed"]:
        out(f"closed at {record['closed_at'] or None} by {record['closed_by'] or None}")


def _status_rows(campaign: campaigns.Campaign, query: campaigns.Query) -> Iterator[tuple[Any, ...]]:
    where, params = query.where("i.")
    rows = campaign.conn.execute(
        "SELECT i.id, i.kind, i.label, i.name, i.status, i.portal, i.institution, i.updated,"  # noqa: S608
        " (SELECT group_concat(code, ' ') FROM flags WHERE item = i.seq),"
        " (SELECT group_concat(reason, '; ') FROM flags WHERE item = i.seq),"
        " i.decision, d.reviewer, i.part FROM items AS i"
        f" LEFT JOIN decisions AS d ON d.seq = i.decision_seq WHERE {where} ORDER BY i.seq",
        params,
    )
    for r in rows:
        words = decisions.Decision(r[10]).words if r[10] else ""
        yield (r[0], "", "", *r[1:10], words, r[11] or "", r[12])


# decide -------------------------------------------------------------------------------------


@guarded
def decide(cmd: DecideCommand) -> int:
    """Record decisions from a CSV (id, decision, justification) or one --item."""
    if bool(cmd.csv) == bool(cmd.item):
        raise UsageError("give a decisions CSV or --item ID --decision WORD")
    if cmd.csv:
        try:
            data = Path(cmd.csv).read_bytes()
        except OSError as exc:
            raise UsageError(f"{cmd.csv}: {exc.strerror or exc}") from None
        try:
            entries = decisions.read_csv(data)
        except campaigns.CampaignError as exc:
            raise UsageError(f"{cmd.csv}: {exc}; nothing recorded") from None
        source = f"csv {Path(cmd.csv).name}"
    else:
        assert cmd.item is not None  # a CSV or an item: checked above
        chosen = decisions.parse_decision(cmd.decision or "")
        if chosen is None:
            raise UsageError('--decision is Keep, Revoke or "Don\'t know"')
        entries = [decisions.Entry(cmd.item, chosen, cmd.justification or "")]
        source = "command line"
    reviewer = _reviewer(cmd.reviewer)
    with opened(cmd.campaign) as campaign:
        try:
            recorded = decisions.record(campaign, entries, reviewer, source=source)
        except campaigns.CampaignError as exc:
            where = f"{cmd.csv}: " if cmd.csv else ""
            if exc.code in ("BAD_INPUT", "UNKNOWN_ITEM", "SELF"):
                raise UsageError(f"{where}{exc}; nothing recorded") from None
            return _refused(Refused(f"{where}{exc}; nothing recorded"))
        totals = campaign.totals()
    say(
        f"{recorded:,} decisions recorded by {reviewer.name} (key {reviewer.fingerprint});"
        f" {totals['decided']:,} of {totals['items']:,} items decided"
    )
    return EXIT_OK


# split and merge ----------------------------------------------------------------------------


@guarded
def split(cmd: SplitCommand) -> int:
    """One file per portal or institution."""
    reviewers: dict[str, str] = {}
    for each in cmd.reviewer or ():
        value, sep, name = each.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"--reviewer VALUE=NAME, not {each!r}")
        reviewers[value.strip()] = name.strip()
    with opened(cmd.campaign) as campaign:
        try:
            paths = split_merge.split(campaign, cmd.by, Path(cmd.out_dir), reviewers)
        except campaigns.CampaignError as exc:
            if exc.code in _USAGE:
                raise UsageError(str(exc)) from None
            return _refused(Refused(f"refused ({exc.code}): {exc}"))
        for path in paths:
            with campaigns.Campaign.open(path) as part:
                out(f"{path}\t{part.meta.get('part')}\t{part.count():,} items")
    return EXIT_OK


@guarded
def merge(cmd: MergeCommand) -> int:
    """Merge decided part files back; each file all or nothing."""
    refused = 0
    with opened(cmd.campaign) as campaign:
        for path in cmd.parts:
            try:
                merged = split_merge.merge(campaign, Path(path))
            except campaigns.CampaignError as exc:
                say(f"{path}: refused ({exc.code}): {exc}")
                refused += 1
                continue
            say(
                f"{path}: merged {merged.decisions:,} decisions and {merged.signoffs} sign-offs"
                f" ({merged.part or 'the whole campaign'})"
            )
        totals = campaign.totals()
    say(f"{totals['decided']:,} of {totals['items']:,} items decided")
    return EXIT_FAILED if refused else EXIT_OK


# sign and verify ----------------------------------------------------------------------------


@guarded
def sign(cmd: SignCommand) -> int:
    """Sign the file's decisions with this installation's key; they are frozen after. Items
    without a decision: exit 2 naming how many, nothing signed, unless --allow-undecided."""
    if not cmd.reviewer:
        raise UsageError("name the reviewer with --reviewer NAME")
    key = _key()
    with opened(cmd.campaign) as campaign:
        undecided = campaign.undecided()
        try:
            done = signoff.sign(campaign, cmd.reviewer, key, allow_undecided=cmd.allow_undecided)
        except campaigns.CampaignError as exc:
            if exc.code == "UNDECIDED":
                raise UsageError(
                    f"{undecided:,} of {campaign.count():,} items have no decision: signing off"
                    " now freezes them as not reviewed. Decide them, or sign with"
                    " --allow-undecided; nothing signed (UNDECIDED)"
                ) from None
            if exc.code in _USAGE:
                raise _fail(exc) from None
            return _refused(Refused(f"refused ({exc.code}): {exc}"))
    say(
        f"signed off by {done.reviewer}: {done.items:,} items ({undecided:,} undecided: they"
        f" stay not reviewed) at {done.signed_at}"
    )
    say(f"key fingerprint: {done.fingerprint}  (give it to whoever remediates, by another channel)")
    return EXIT_OK


@guarded
def verify(cmd: VerifyCommand) -> int:
    """Check every sign-off: 0 intact and trusted, 1 changed (naming items), 2 not a
    campaign, 3 unsigned or signed by a key this installation does not trust."""
    with opened(cmd.campaign) as campaign:
        try:
            check = signoff.verify(campaign, cmd.fingerprint)
        except TrustError as exc:
            raise UsageError(str(exc)) from None
    for s in check.signoffs:
        out(_signer(s))
    for problem in check.problems:
        out(problem)
    if check.unsigned:
        out(f"not signed off: {check.unsigned:,} items")
    if check.undecided:
        out(f"not reviewed (no decision): {check.undecided:,} items")
    verdict = {
        "intact": "intact",
        "changed": "CHANGED since sign-off",
        "unsigned": "not signed off",
    }[check.status]
    if check.status == "intact" and check.untrusted:
        verdict = (
            "intact, but signed with a key this installation does not trust: check the"
            " fingerprint with the reviewer, then evidence trust add FINGERPRINT --name NAME"
            " (or --fingerprint)"
        )
    out(f"{cmd.campaign}: {verdict}")
    return check.exit_status


# remediate ----------------------------------------------------------------------------------


@guarded
async def remediate(cmd: RemediateCommand) -> int:
    """Plan the revocations as a bulk job (the dry run), then run it unless --dry-run."""
    from portal_admin.reviews import remediation

    from .session import connect

    out = str(writable(cmd.run.out)) if cmd.run.out else None
    with opened(cmd.campaign) as campaign:
        async with connect(cmd.connection) as conn:
            try:
                plan = await remediation.remediate(
                    campaign, conn.client, conn.context(), expected_fingerprint=cmd.fingerprint
                )  # the context carries the signed-in account's id and email (GET /profile)
            except campaigns.CampaignError as exc:
                if exc.code in _USAGE:
                    raise UsageError(str(exc)) from None
                return _refused(Refused(f"refused ({exc.code}): {exc}"))
            except TrustError as exc:
                raise UsageError(str(exc)) from None
            for s in plan.signoffs:
                say(f"{_signer(s)} (compare the key with the one the reviewer gave)")
            if plan.same_person:
                say(
                    f"warning: {plan.administrator} remediates decisions they made or signed"
                    " off (separation of duties); the campaign records both: "
                    + "; ".join(plan.reasons[:5])
                )
            for item, change in sorted(plan.changed.items()):
                say(f"changed since the scope: {item}: {change}")
            for item in plan.manual:
                say(f"to do by hand (no bulk action): revoke {item}")
            try:
                return await _run_jobs(conn, plan, cmd.run, out)
            finally:
                plan.close()


async def _run_jobs(conn: Connection, plan: Remediation, run: RunOptions, out: str | None) -> int:
    """Show each job's plan; unless a dry run, confirm (production) and run them in turn."""
    from .bulk import summary as plan_summary
    from .running import confirm_and_run, write_plan

    if not plan.jobs:
        say("no signed-off Revoke to carry out by a bulk job")
        return EXIT_OK
    outs: list[str | None] = []
    for n, job in enumerate(plan.jobs):
        say(f"job {job.id} ({'found again' if plan.resumed else 'planned'}): {plan_summary(job)}")
        path = Path(out) if out else None
        if path is not None and n:
            path = path.with_name(f"{path.stem}.{job.meta()['kind']}{path.suffix}")
        outs.append(str(path) if path else None)
    if run.dry_run:
        for job, plan_out in zip(plan.jobs, outs, strict=True):
            write_plan(job, run, plan_out, shown=False)
        say("dry run: nothing was sent")
        return EXIT_OK
    # paused or failed: the next ones wait (resume with review remediate, or jobs resume)
    return await confirm_and_run(conn, plan.jobs, run, outs)


# close and pack -----------------------------------------------------------------------------


@guarded
async def close(cmd: CloseCommand) -> int:
    """Take the closing snapshot and check every decision against it. Signed-off Revokes no
    remediation carried out: exit 2 naming how many, nothing done, unless
    --allow-unremediated (closing makes remediation impossible from then on)."""
    from portal_admin.reviews import remediation

    from .session import connect

    with opened(cmd.campaign) as campaign:
        if campaign.meta.get("closed"):
            say(f"campaign {campaign.name!r} is closed already")
            return EXIT_OK
        left = remediation.unremediated(campaign)
        if left and not cmd.allow_unremediated:
            raise UsageError(
                f"{len(left):,} signed-off Revokes were not carried out (first: {left[0]}):"
                " once closed, the campaign cannot be remediated. Run review remediate, or"
                " close with --allow-unremediated; nothing done (UNREMEDIATED)"
            )
        async with connect(cmd.connection) as conn:
            counts = await closing.close(
                campaign, conn.client, account=conn.email, profile=conn.profile.name,
                snapshot_path=Path(cmd.snapshot) if cmd.snapshot else None,
            )  # fmt: skip
        for outcome, n in counts.items():
            out(f"{outcome}: {n:,}")
        if left:
            say(f"closed with {len(left):,} signed-off Revokes not carried out (recorded)")
        say(
            f"campaign {campaign.name!r} closed;"
            f" closing snapshot {campaign.meta['closing']['snapshot']}"
        )
    return EXIT_OK


@guarded
def pack(cmd: PackCommand) -> int:
    """The campaign's signed evidence pack."""
    out = writable(cmd.out)
    try:
        key = keys.signing_key()
        note = ""
    except keys.KeyUnavailable as exc:
        if not cmd.ephemeral_key:
            raise UsageError(
                f"no pack can be signed: {exc} (--ephemeral-key signs with a one-off key)"
            ) from None
        key = keys.signing_key(keys.MemoryStore())
        note = " (ephemeral key: made for this pack alone)"
    with opened(cmd.campaign) as campaign:
        manifest = review_pack.write(campaign, out, key)
    say(f"access review pack written to {cmd.out}; signed by key {manifest['fingerprint']}{note}")
    return EXIT_OK
