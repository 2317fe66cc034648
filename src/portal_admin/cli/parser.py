"""The command line's grammar (argparse). Each command names its handler as ``module:function``
of this package, imported only when that command runs (``--help`` and ``jobs list`` stay quick).
"""

from __future__ import annotations

import argparse
from typing import Any

from portal_admin import __version__
from portal_admin.protocol.bodies import EXPIRATION_DAYS

from . import options

DELIMITER_CHOICES = ("comma", "semicolon", "tab")
ENVIRONMENTS = ("production", "staging", "test", "sandbox")
LANGUAGES = ("en", "zh", "zh-Hant", "ja", "vi")

DESCRIPTION = """\
Accounts, bulk changes and jobs from the command line, on the engine the desktop program
uses (docs/cli.md). Connection options go before AREA or after COMMAND.

exit status: 0 every target succeeded or was skipped as planned; 1 some failed or have an
unknown outcome, the job paused (resume it), or the server refused; 2 the command line, an
input file or a confirmation cannot be used (nothing was sent)."""


class _EmailBeforeArea(argparse.Action):
    """``--email`` before AREA: it used to name the account to sign in as, which after COMMAND
    is the accounts filter; one word, one meaning: the account to sign in as is ``--user``."""

    def __call__(self, parser: argparse.ArgumentParser, *_: Any, **__: Any) -> None:
        parser.error(
            "--email is the accounts filter (after COMMAND); "
            "sign in as an account with --user EMAIL"
        )


def _connection(parser: argparse.ArgumentParser, *, top: bool) -> None:
    """Where to connect and how to sign in. Before AREA they have defaults; after COMMAND they
    are only set when given (so that they do not undo what was given before AREA). After
    COMMAND. ``--email`` is always the accounts filter; the account to sign in as is ``--user``."""

    def default(value: Any) -> Any:
        return value if top else argparse.SUPPRESS

    group = parser.add_argument_group("connection (one of --sandbox, --profile, --server)")
    group.add_argument(
        "--sandbox",
        action="store_true",
        default=default(False),
        help="the built-in sandbox, in process (the desktop program's --sandbox data)",
    )
    group.add_argument(
        "--profile", metavar="NAME", default=default(None), help="a connection profile"
    )
    group.add_argument(
        "--server", metavar="URL", default=default(None), help="a server by its base URL"
    )
    group.add_argument("--access-code", metavar="CODE", default=default(None), help="with --server")
    group.add_argument(
        "--environment",
        choices=ENVIRONMENTS,
        default=default(None),
        help="with --server: what it is (default production: runs are confirmed)",
    )
    if top:
        group.add_argument("--email", action=_EmailBeforeArea, help=argparse.SUPPRESS)
    group.add_argument(
        "--user",
        dest="user",
        metavar="EMAIL",
        default=default(None),
        help="the account to sign in as (the built-in sandbox: its administrator)",
    )
    group.add_argument(
        "--password-env",
        metavar="VAR",
        default=default(None),
        help="read the password from this environment variable (else asked on the terminal)",
    )
    group.add_argument(
        "--sandbox-mfa",
        action="store_true",
        default=default(False),
        help="take the second factor from a sandbox on this computer (loopback only)",
    )
    group.add_argument(
        "--keep-session",
        action="store_true",
        default=default(False),
        help="without a keyring: keep the sign-in in an owner-only file for 8 hours, for the "
        "next commands (logout ends it)",
    )
    group.add_argument(
        "--lang", choices=LANGUAGES, default=default("en"), help="the server's labels"
    )


def _command(
    area: Any, name: str, handler: str, help_text: str, *, connects: bool = True
) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = area.add_parser(name, help=help_text, description=help_text)
    parser.set_defaults(handler=handler)
    if connects:
        _connection(parser, top=False)
    return parser


def _account_filters(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("account filters (as the Accounts panel's)")
    group.add_argument(
        "--status", metavar="CODE", type=options.account_status,
        help="ACTIVE, SUSPENDED, DEACTIVATED, ... (or its number)",
    )  # fmt: skip
    group.add_argument(
        "--portal", metavar="CODE", type=options.portal, help="SYSTEM, TENANT, PARTNER, ..."
    )
    group.add_argument("--institution", metavar="ID", help="an institution's business id")
    group.add_argument("--email", metavar="TEXT", help="emails that start with TEXT (any case)")
    group.add_argument(
        "--name", metavar="TEXT", help="names with a word that starts with TEXT (any case)"
    )


def _account_targets(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("targets (one of)")
    group.add_argument(
        "--file", metavar="CSV", help="a CSV with an email or id column, or one per line; - stdin"
    )
    group.add_argument("--ids", metavar="ID,...", help="account ids (or emails), comma-separated")
    group.add_argument(
        "--all-matching", action="store_true", help="every account the filters below match"
    )
    _account_filters(parser)


def _running(parser: argparse.ArgumentParser, *, resume: bool = False) -> None:
    group = parser.add_argument_group("running")
    if not resume:
        group.add_argument(
            "--dry-run", action="store_true", help="make and show the plan only: send nothing"
        )
    group.add_argument(
        "--concurrency",
        type=options.whole(1, 64),
        default=None if resume else 4,
        metavar="N",
        help="requests at once (default: the job's)" if resume else "requests at once (4)",
    )
    group.add_argument(
        "--out",
        metavar="FILE",
        help="the result CSV (default: beside the job file)"
        if resume
        else "the plan CSV (--dry-run) or the result CSV (default: beside the job file)",
    )
    group.add_argument("--delimiter", choices=DELIMITER_CHOICES, default="comma", help="CSV")
    group.add_argument(
        "--confirm",
        "--yes-i-typed",
        dest="confirm",
        type=options.whole(0),
        metavar="N",
        help="production: the number of targets that will change (instead of typing it)",
    )
    group.add_argument(
        "--progress", action="store_true", help="show progress even when stderr is no terminal"
    )
    group.add_argument(
        "--format", choices=("text", "json"), default="text",
        help="json: the plan (--dry-run) or the result as JSON lines, to --out or standard"
        " output (the result CSV is still kept beside the job file)",
    )  # fmt: skip


def _accounts(areas: Any) -> None:
    accounts = areas.add_parser("accounts", help="read accounts").add_subparsers(
        dest="command", required=True, metavar="COMMAND"
    )
    query = _command(accounts, "query", "query:query_accounts", "every account the filters match")
    _account_filters(query)
    query.add_argument(
        "--sort", default="accountEmail,asc", type=options.sort, help="FIELD,asc|desc"
    )
    query.add_argument("--format", choices=("csv", "json"), default="csv", help="json: JSON lines")
    query.add_argument("--out", metavar="FILE", help="default: standard output")
    query.add_argument("--delimiter", choices=DELIMITER_CHOICES, default="comma", help="CSV")


def _bulk(areas: Any) -> None:
    bulk = areas.add_parser("bulk", help="change many accounts or invitations").add_subparsers(
        dest="command", required=True, metavar="COMMAND"
    )
    status = _command(bulk, "status", "bulk:run_bulk", "activate, suspend or deactivate accounts")
    status.add_argument(
        "--action", required=True, type=str.upper, choices=("ACTIVATE", "SUSPEND", "DEACTIVATE")
    )
    status.add_argument("--reason", help="kept with the status change")
    reset = _command(bulk, "reset-password", "bulk:run_bulk", "mail password-reset links")
    update = _command(bulk, "update", "bulk:run_bulk", "set one field of accounts to one value")
    update.add_argument(
        "--field", required=True, choices=("language", "timezone", "country", "remark")
    )
    update.add_argument("--value", required=True)
    for command in (status, reset, update):
        _account_targets(command)
        _running(command)

    invite = _command(bulk, "invite", "bulk:run_bulk", "invite the emails of a CSV")
    invite.add_argument(
        "--file",
        required=True,
        metavar="CSV",
        help="emails (columns message and expirationDays win over the options); - stdin",
    )
    invite.add_argument("--message", help="the invitation's message")
    invite.add_argument(
        "--expiration-days", type=options.whole(*EXPIRATION_DAYS), default=7, metavar="N",
        help=f"{EXPIRATION_DAYS[0]} to {EXPIRATION_DAYS[1]} (7)",
    )  # fmt: skip
    _running(invite)

    cancel = _command(bulk, "cancel-invitations", "bulk:run_bulk", "cancel pending invitations")
    group = cancel.add_argument_group("targets (one of)")
    group.add_argument("--file", metavar="CSV", help="invitation ids or invitee emails; - stdin")
    group.add_argument("--ids", metavar="ID,...", help="invitation ids, comma-separated")
    group.add_argument("--all-pending", action="store_true", help="every pending invitation")
    group.add_argument(
        "--older-than",
        type=options.whole(0),
        metavar="DAYS",
        help="every pending invitation created more than DAYS days ago",
    )
    cancel.add_argument("--reason", default="", help="kept with each cancellation")
    _running(cancel)


def _jobs(areas: Any) -> None:
    jobs = areas.add_parser("jobs", help="bulk jobs kept on this computer").add_subparsers(
        dest="command", required=True, metavar="COMMAND"
    )
    listed = _command(
        jobs, "list", "job_commands:list_jobs", "every job, newest first", connects=False
    )
    listed.add_argument(
        "--format", choices=("text", "json"), default="text", help="json: JSON lines"
    )
    show = _command(
        jobs, "show", "job_commands:show_job", "one job: its lines as CSV", connects=False
    )
    show.add_argument("job", metavar="ID", help="a job id (or its start)")
    show.add_argument("--out", metavar="FILE", help="default: standard output")
    show.add_argument("--delimiter", choices=DELIMITER_CHOICES, default="comma", help="CSV")
    show.add_argument("--format", choices=("csv", "json"), default="csv", help="json: JSON lines")
    resume = _command(
        jobs,
        "resume",
        "job_commands:resume_job",
        "go on with a paused or interrupted job (on its own server unless one is named)",
    )
    resume.add_argument("job", metavar="ID", help="a job id (or its start)")
    _running(resume, resume=True)
    revert = _command(
        jobs,
        "revert",
        "revert:job_revert",
        "set back every change a bulk job made (a job of its own; docs/undo.md)",
    )
    revert.add_argument("job", metavar="ID", help="a job id (or its start)")
    _revert_options(revert)
    _running(revert)


def _verification(areas: Any) -> None:
    evidence = areas.add_parser("evidence", help="evidence packs").add_subparsers(
        dest="command", required=True, metavar="COMMAND"
    )
    verify = _command(
        evidence,
        "verify",
        "evidence:verify_pack",
        "check an evidence pack's signature and every file's hash",
        connects=False,
    )
    verify.add_argument("pack", metavar="PACK.zip")
    verify.add_argument(
        "--fingerprint",
        metavar="HEX",
        type=options.fingerprint,
        help="the signing key's fingerprint (trusted for this check)",
    )
    _report_format(verify)
    verify.description = (
        "Check an evidence pack's signature and every file's hash, and who signed it. Exit"
        " status: 0 intact and signed by a trusted key (this installation's, one added with"
        " 'evidence trust add', or the --fingerprint given), 1 changed (or another key than"
        " --fingerprint), 2 not a pack, 3 signed by a key that is not trusted."
    )
    trust = evidence.add_parser(
        "trust", help="the keys trusted to sign packs", description="the keys trusted to sign packs"
    ).add_subparsers(dest="trust_command", required=True, metavar="COMMAND")
    add = _command(
        trust, "add", "evidence:trust_add", "trust a key to sign packs, under a name",
        connects=False,
    )  # fmt: skip
    add.add_argument(
        "fingerprint", metavar="FINGERPRINT", type=options.fingerprint, help="64 hex digits"
    )
    add.add_argument("--name", metavar="NAME", required=True, help="whose key it is")
    _command(
        trust, "list", "evidence:trust_list", "this installation's key and the trusted keys",
        connects=False,
    )  # fmt: skip
    remove = _command(
        trust, "remove", "evidence:trust_remove", "stop trusting a key", connects=False
    )
    remove.add_argument("fingerprint", metavar="FINGERPRINT", type=options.fingerprint)
    snapshot = _command(
        evidence,
        "snapshot",
        "evidence:snapshot",
        "read everything an access review needs into one snapshot file (reads only)",
    )
    snapshot.add_argument("out", metavar="SNAPSHOT.sqlite3")
    diff = _command(
        evidence, "diff", "evidence:diff", "what changed between two snapshots", connects=False
    )
    diff.add_argument("old", metavar="OLD.sqlite3")
    diff.add_argument("new", metavar="NEW.sqlite3")
    diff.add_argument("--out", metavar="FILE.csv", help="the changes as CSV")
    pack = _command(
        evidence,
        "pack",
        "evidence:pack",
        "write a signed evidence pack of a snapshot, a diff or the journal",
        connects=False,
    )
    pack.add_argument("out", metavar="PACK.zip")
    source = pack.add_mutually_exclusive_group(required=True)
    source.add_argument("--snapshot", metavar="SNAPSHOT.sqlite3")
    source.add_argument("--diff", nargs=2, metavar=("OLD", "NEW"))
    source.add_argument("--journal", action="store_true", help="this computer's journal")
    pack.add_argument(
        "--since", metavar="ISO", type=options.moment, help="journal records from this time"
    )
    pack.add_argument(
        "--until", metavar="ISO", type=options.moment, help="journal records until this time"
    )
    pack.add_argument(
        "--ephemeral-key",
        action="store_true",
        help="when this installation's key cannot be read (a key file locked by a passphrase): "
        "sign with a key made for this pack alone (marked so)",
    )
    journal = areas.add_parser("journal", help="the journal of changes").add_subparsers(
        dest="command", required=True, metavar="COMMAND"
    )
    check = _command(
        journal,
        "verify",
        "evidence:verify_journal",
        "check the journal's hash chain",
        connects=False,
    )
    check.add_argument("path", metavar="PATH", nargs="?", help="default: this computer's journal")
    undo = _command(
        journal,
        "revert",
        "revert:journal_revert",
        "set back the values these journal records changed (a job of its own; docs/undo.md)",
    )
    undo.add_argument(
        "seqs", metavar="SEQ", type=options.whole(1), nargs="+", help="journal record numbers"
    )
    _revert_options(undo)
    _running(undo)
    check.add_argument(
        "--fingerprint",
        metavar="HEX",
        type=options.fingerprint,
        help="the key the checkpoints must be signed with (default: this installation's)",
    )
    _report_format(check)
    _forwarding(journal)


def _report_format(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--format", choices=("text", "json"), default="text",
        help="json: what was found as one JSON line (docs/cli.md names its fields)",
    )  # fmt: skip


def _forwarding(journal: Any) -> None:
    """``journal forward``, ``export`` and ``rebuild``: the journal for a SIEM (docs/siem.md)."""
    forward = _command(
        journal, "forward", "forward:forward",
        "send the journal's records and checkpoints to a SIEM, from where it got last time",
        connects=False,
    )  # fmt: skip
    forward.description = (
        "Send the journal's records and signed checkpoints to a destination, and keep, per"
        " destination, the last record it accepted (seq and hash). Without --once, follow the"
        " journal as it grows until stopped (SIGTERM, Ctrl+C). Exit status: 0 done or stopped,"
        " 1 the destination failed (its place is kept) or the journal was rewritten, 2 an"
        " unusable command line. See docs/siem.md."
    )
    forward.add_argument(
        "--to", metavar="URL",
        help="syslog+tls://HOST:PORT, syslog+tcp://HOST:PORT, file:///PATH or hec+https://HOST:PORT",
    )  # fmt: skip
    forward.add_argument("--format", choices=("rfc5424", "cef", "json"), default="rfc5424")
    forward.add_argument("--once", action="store_true", help="send what there is, then exit")
    forward.add_argument(
        "--status", action="store_true", help="list the destinations, their cursor, how far behind"
    )
    forward.add_argument(
        "--reset", action="store_true", help="forget the destination's place: send everything again"
    )
    forward.add_argument(
        "--ca-bundle", metavar="FILE", help="TLS: trust these CAs (else the system's)"
    )
    forward.add_argument("--client-cert", metavar="FILE", help="TLS: a client certificate (PEM)")
    forward.add_argument("--client-key", metavar="FILE", help="TLS: its private key (PEM)")
    forward.add_argument(
        "--token-env", metavar="VAR", default="PORTAL_ADMIN_HEC_TOKEN",
        help="HEC: the environment variable holding the token (PORTAL_ADMIN_HEC_TOKEN)",
    )  # fmt: skip
    forward.add_argument(
        "--ack-timeout", type=float, default=120.0, metavar="S",
        help="HEC: seconds to wait for the indexer's acknowledgement (120)",
    )  # fmt: skip
    forward.add_argument("--journal", metavar="PATH", help="default: this computer's journal")
    forward.add_argument(
        "--batch", type=int, default=1000, metavar="N", help="records a batch (1000)"
    )
    forward.add_argument(
        "--poll",
        type=float,
        default=0.5,
        metavar="S",
        help="following: seconds between looks (0.5)",
    )
    export = _command(
        journal, "export", "forward:export",
        "write the journal's records, each with its seq and hash, as JSON lines or CSV",
        connects=False,
    )  # fmt: skip
    export.add_argument("--format", choices=("jsonl", "csv"), default="jsonl")
    export.add_argument("--since-seq", type=int, default=0, metavar="N", help="records from seq N")
    export.add_argument("--out", metavar="FILE", help="default: standard output")
    export.add_argument("--delimiter", choices=DELIMITER_CHOICES, default="comma", help="CSV")
    export.add_argument("--journal", metavar="PATH", help="default: this computer's journal")
    rebuild = _command(
        journal, "rebuild", "forward:rebuild",
        "a journal and its checkpoints file from what a receiver stored (the json format)",
        connects=False,
    )  # fmt: skip
    rebuild.add_argument("received", metavar="RECEIVED", nargs="+", help="files of received lines")
    rebuild.add_argument("--out", metavar="DIR", required=True, help="where to write them")


def _revert_options(command: Any) -> None:
    """What ``jobs revert`` and ``journal revert`` take besides ``_running``'s options."""
    command.add_argument(
        "--reason", default="", help="why (kept with each change, as a bulk change's reason)"
    )
    command.add_argument(
        "--accept-unauthenticated",
        action="store_true",
        help="revert journal records no checkpoint of this installation vouches for and no"
        " job file confirms (check them first: anyone who can write the journal could add them)",
    )


def _reviews(areas: Any) -> None:
    review = areas.add_parser(
        "review", help="access-review campaigns (docs/reviews.md)"
    ).add_subparsers(dest="command", required=True, metavar="COMMAND")
    create = _command(
        review, "create", "review:create",
        "a campaign from a snapshot (taken now from the server unless --snapshot names one)",
    )  # fmt: skip
    create.add_argument("out", metavar="CAMPAIGN.review")
    create.add_argument("--name", required=True, help="the campaign's name")
    create.add_argument(
        "--due", metavar="YYYY-MM-DD", type=options.day, help="the due date (default: in 14 days)"
    )
    create.add_argument(
        "--revocation", type=str.upper, choices=("SUSPEND", "DEACTIVATE"), default="SUSPEND",
        help="what a Revoke does to an account (SUSPEND)",
    )  # fmt: skip
    create.add_argument("--snapshot", metavar="SNAPSHOT.sqlite3", help="the scope (no server)")
    create.add_argument(
        "--since", metavar="FILE", help="an earlier snapshot or campaign: flags new and reactivated"
    )
    create.add_argument(
        "--portal", action="append", metavar="CODE", type=options.listed(options.portal),
        help="only these portals (repeat)",
    )  # fmt: skip
    create.add_argument("--institution", action="append", metavar="ID", help="only these")
    create.add_argument(
        "--status", action="append", metavar="CODE",
        type=options.listed(options.account_status),
        help="only these statuses (repeat; default: every account with access)",
    )  # fmt: skip
    create.add_argument(
        "--stale-days", type=options.whole(1, 36_500), default=180, metavar="N", help="(180)"
    )
    create.add_argument("--reviewer", metavar="NAME", help="the reviewer (their account flagged)")
    status = _command(
        review, "status", "review:status", "totals, flags and sign-offs", connects=False
    )
    status.add_argument("campaign", metavar="CAMPAIGN.review")
    status.add_argument("--items", metavar="FILE.csv", help="every item as CSV (a template)")
    status.add_argument("--undecided", action="store_true", help="with --items: undecided only")
    status.add_argument("--flagged", action="store_true", help="with --items: flagged only")
    status.add_argument("--delimiter", choices=DELIMITER_CHOICES, default="comma", help="CSV")
    _report_format(status)
    split = _command(
        review, "split", "review:split", "one file per portal or institution", connects=False
    )
    split.add_argument("campaign", metavar="CAMPAIGN.review")
    split.add_argument("--by", required=True, choices=("portal", "institution"))
    split.add_argument("--out-dir", required=True, metavar="DIR")
    split.add_argument(
        "--reviewer", action="append", metavar="VALUE=NAME", help="who reviews a part (repeat)"
    )
    merge = _command(
        review, "merge", "review:merge", "merge decided part files back", connects=False
    )
    merge.add_argument("campaign", metavar="CAMPAIGN.review")
    merge.add_argument("parts", metavar="PART.review", nargs="+")
    decide = _command(
        review, "decide", "review:decide",
        "record decisions: a CSV of id, decision, justification, or one --item", connects=False,
    )  # fmt: skip
    decide.add_argument("campaign", metavar="CAMPAIGN.review")
    decide.add_argument("csv", metavar="DECISIONS.csv", nargs="?")
    decide.add_argument("--item", metavar="ID")
    decide.add_argument("--decision", metavar="WORD", help="Keep, Revoke or Don't know")
    decide.add_argument("--justification", metavar="TEXT")
    decide.add_argument("--reviewer", metavar="NAME", help="who decides (required)")
    sign = _command(
        review, "sign", "review:sign", "sign off the decisions with this installation's key",
        connects=False,
    )  # fmt: skip
    sign.add_argument("campaign", metavar="CAMPAIGN.review")
    sign.add_argument("--reviewer", metavar="NAME", help="who signs (required)")
    sign.add_argument(
        "--allow-undecided",
        action="store_true",
        help="sign even though some items have no decision (they stay not reviewed)",
    )
    verify = _command(
        review, "verify", "review:verify",
        "check the sign-offs: 0 intact, 1 changed, 2 not a campaign, 3 not signed or untrusted",
        connects=False,
    )  # fmt: skip
    verify.add_argument("campaign", metavar="CAMPAIGN.review")
    verify.add_argument(
        "--fingerprint", metavar="HEX", type=options.fingerprint,
        help="the key every sign-off must use",
    )  # fmt: skip
    remediate = _command(
        review, "remediate", "review:remediate",
        "plan every signed-off Revoke as a bulk job (dry run), then run it",
    )  # fmt: skip
    remediate.add_argument("campaign", metavar="CAMPAIGN.review")
    remediate.add_argument(
        "--fingerprint", metavar="HEX", type=options.fingerprint,
        help="the reviewer's key, as given",
    )  # fmt: skip
    _running(remediate)
    close = _command(
        review, "close", "review:close", "the closing snapshot and the check of every decision"
    )
    close.add_argument("campaign", metavar="CAMPAIGN.review")
    close.add_argument("--snapshot", metavar="FILE", help="where the closing snapshot goes")
    close.add_argument(
        "--allow-unremediated",
        action="store_true",
        help="close even though signed-off Revokes were not carried out (final)",
    )
    pack = _command(
        review, "pack", "review:pack", "the campaign's signed evidence pack", connects=False
    )
    pack.add_argument("campaign", metavar="CAMPAIGN.review")
    pack.add_argument("out", metavar="PACK.zip")
    pack.add_argument(
        "--ephemeral-key", action="store_true",
        help="when this installation's key cannot be read (a key file locked by a passphrase): "
        "sign with a key made for this pack alone",
    )  # fmt: skip


def _doctor(areas: Any) -> None:
    doctor = areas.add_parser(
        "doctor",
        help="check the connection to a server, step by step (never signs in)",
        description="Check DNS, TCP, the proxy, TLS, the API envelope, the clock, the Secure "
        "Channel, the pre-login headers and the label languages of a server, without "
        "credentials. Exit status: 0 every step ok, 1 a step failed, 2 the command line "
        "cannot be used, 3 warnings only.",
    )
    doctor.set_defaults(handler="doctor:run_doctor")
    doctor.add_argument("url", metavar="URL", nargs="?", help="the server's base URL")
    where = doctor.add_argument_group("server (URL, or one of --sandbox, --profile)")
    where.add_argument(
        "--sandbox",
        action="store_true",
        default=argparse.SUPPRESS,
        help="the built-in sandbox, in process",
    )
    where.add_argument(
        "--profile", metavar="NAME", default=argparse.SUPPRESS, help="a connection profile"
    )
    where.add_argument(
        "--access-code",
        metavar="CODE",
        default=argparse.SUPPRESS,
        help="the portal access code (never shown in the report)",
    )
    where.add_argument("--ca-bundle", metavar="FILE", help="verify TLS with these CA certificates")
    proxies = where.add_mutually_exclusive_group()
    proxies.add_argument(
        "--proxy", metavar="URL", help="through this HTTP proxy (default: HTTPS_PROXY, NO_PROXY...)"
    )
    proxies.add_argument("--no-proxy", action="store_true", help="no proxy, whatever is set")
    output = doctor.add_argument_group("report")
    output.add_argument(
        "--format", choices=("text", "json"), default="text", help="the report as text or JSON"
    )
    output.add_argument(
        "--json", dest="format", action="store_const", const="json", help="= --format json"
    )
    output.add_argument("--out", metavar="FILE", help="also save the report to FILE")
    output.add_argument(
        "--timeout", type=options.seconds, default=10.0, metavar="S", help="seconds per step (10)"
    )


def _profiles(areas: Any) -> None:
    profiles = areas.add_parser("profiles", help="connection profiles and profile files")
    commands = profiles.add_subparsers(dest="command", required=True, metavar="COMMAND")
    listed = _command(
        commands, "list", "profiles:list_profiles", "list the profiles", connects=False
    )
    listed.add_argument("--json", action="store_true", help="as JSON")
    export = _command(
        commands,
        "export",
        "profiles:export",
        "write profiles to a profile file (no password, token or, by default, access code)",
        connects=False,
    )
    export.add_argument("file", metavar="FILE")
    export.add_argument("--name", action="append", metavar="NAME", help="only these (repeat)")
    export.add_argument(
        "--access-code", action="store_true", help="include the portal access codes"
    )
    imported = _command(
        commands,
        "import",
        "profiles:import_",
        "add a profile file's profiles (all or nothing; managed ones are never replaced)",
        connects=False,
    )
    imported.add_argument("file", metavar="FILE")
    imported.add_argument(
        "--replace", action="store_true", help="replace own profiles of the same name"
    )


def _logout(areas: Any) -> None:
    text = (
        "end the kept sign-in of a server and account: the server forgets it, and so do the "
        "keyring or the session file"
    )
    logout = areas.add_parser("logout", help=text, description=text)
    logout.set_defaults(handler="session:logout")
    _connection(logout, top=False)


def build_parser() -> argparse.ArgumentParser:
    """The whole command line."""
    parser = argparse.ArgumentParser(
        prog="portal-admin-cli",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    _connection(parser, top=True)
    areas = parser.add_subparsers(dest="area", required=True, metavar="AREA")
    _accounts(areas)
    _bulk(areas)
    _jobs(areas)
    _verification(areas)
    _reviews(areas)
    _doctor(areas)
    _profiles(areas)
    _logout(areas)
    return parser
