"""``portal-admin-cli``: accounts, bulk changes and jobs from the command line, on the engine
the desktop program uses (docs/cli.md). No Qt is imported.

Exit status: 0 when every target succeeded or was skipped as planned, 1 when some failed, are
of unknown outcome, or the job paused (it can be resumed), 2 for a command line or an input
file that cannot be used.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence

from portal_admin.client.errors import PortalError

from . import commands
from .session import UsageError

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def _connection_options() -> argparse.ArgumentParser:
    parent = argparse.ArgumentParser(add_help=False)
    group = parent.add_argument_group("connection")
    group.add_argument("--sandbox", action="store_true", help="the built-in sandbox")
    group.add_argument("--profile", metavar="NAME", help="a connection profile of the program")
    group.add_argument("--server", metavar="URL", help="a server by its base URL")
    group.add_argument("--access-code", metavar="CODE", help="portal access code (--server)")
    group.add_argument(
        "--environment",
        choices=("production", "staging", "test", "sandbox"),
        default="production",
        help="what --server is (default production: changes are confirmed)",
    )
    group.add_argument("--user", metavar="EMAIL", help="the account to sign in as")
    group.add_argument(
        "--password-env", metavar="VAR", help="read the password from this environment variable"
    )
    group.add_argument(
        "--sandbox-mfa",
        action="store_true",
        help="take the authenticator code from a loopback sandbox's /sandbox/totp",
    )
    group.add_argument(
        "--lang", choices=("en", "zh", "zh-Hant", "ja", "vi"), default="en", help="server labels"
    )
    return parent


def _filters(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("account filters")
    group.add_argument("--status", help="account status code, e.g. ACTIVE, SUSPENDED")
    group.add_argument("--portal", help="portal type code, e.g. SYSTEM, TENANT")
    group.add_argument("--institution", metavar="ID", help="institution business id")
    group.add_argument("--email", help="email filter (as the Accounts panel's)")
    group.add_argument("--name", help="name filter (as the Accounts panel's)")


def _run_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("running")
    group.add_argument("--dry-run", action="store_true", help="plan only: send nothing")
    group.add_argument("--concurrency", type=int, default=4, metavar="N", help="default 4")
    group.add_argument("--out", metavar="FILE", help="the plan (dry run) or result CSV")
    group.add_argument(
        "--delimiter", choices=("comma", "semicolon", "tab"), default="comma", help="CSV"
    )
    group.add_argument(
        "--confirm", type=int, metavar="N", help="on production: the number of targets to change"
    )
    group.add_argument("--progress", action="store_true", help="progress on stderr (not a TTY)")


def _account_targets(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("targets (one of)")
    group.add_argument("--file", metavar="CSV", help="a CSV or list of emails or ids ('-': stdin)")
    group.add_argument("--ids", metavar="ID,...", help="account ids")
    group.add_argument(
        "--all-matching", action="store_true", help="every account the filters match"
    )
    _filters(parser)


def build_parser() -> argparse.ArgumentParser:
    """The whole command line."""
    conn = _connection_options()
    parser = argparse.ArgumentParser(prog="portal-admin-cli", description=__doc__.split("\n")[0])
    areas = parser.add_subparsers(dest="area", required=True, metavar="AREA")

    accounts = areas.add_parser("accounts", help="read accounts").add_subparsers(
        dest="command", required=True, metavar="COMMAND"
    )
    query = accounts.add_parser("query", parents=[conn], help="every account the filters match")
    _filters(query)
    query.add_argument("--sort", default="accountEmail,asc", help="field,asc|desc")
    query.add_argument("--format", choices=("csv", "json"), default="csv")
    query.add_argument("--out", metavar="FILE", help="default: standard output")
    query.add_argument("--delimiter", choices=("comma", "semicolon", "tab"), default="comma")

    bulk = areas.add_parser("bulk", help="change many accounts or invitations").add_subparsers(
        dest="command", required=True, metavar="COMMAND"
    )
    status = bulk.add_parser("status", parents=[conn], help="activate, suspend or deactivate")
    status.add_argument(
        "--action", required=True, type=str.upper, choices=("ACTIVATE", "SUSPEND", "DEACTIVATE")
    )
    status.add_argument("--reason")
    reset = bulk.add_parser("reset-password", parents=[conn], help="mail password-reset links")
    update = bulk.add_parser("update", parents=[conn], help="set one field to one value")
    update.add_argument(
        "--field", required=True, choices=("language", "timezone", "country", "remark")
    )
    update.add_argument("--value", required=True)
    for command in (status, reset, update):
        _account_targets(command)
        _run_options(command)
    invite = bulk.add_parser("invite", parents=[conn], help="invite the emails of a CSV")
    invite.add_argument("--file", required=True, metavar="CSV", help="emails ('-': stdin)")
    invite.add_argument("--message")
    invite.add_argument("--expiration-days", type=int, default=7, metavar="N")
    _run_options(invite)
    cancel = bulk.add_parser("cancel-invitations", parents=[conn], help="cancel invitations")
    cancel.add_argument("--file", metavar="CSV", help="invitation ids or invitee emails")
    cancel.add_argument("--all-pending", action="store_true", help="every pending invitation")
    cancel.add_argument(
        "--older-than", type=int, metavar="DAYS", help="with --all-pending: created before"
    )
    cancel.add_argument("--reason", default="")
    _run_options(cancel)

    jobs = areas.add_parser("jobs", help="bulk jobs kept on this computer").add_subparsers(
        dest="command", required=True, metavar="COMMAND"
    )
    jobs.add_parser("list", help="every job, newest first")
    show = jobs.add_parser("show", help="one job's lines")
    show.add_argument("job", metavar="ID")
    resume = jobs.add_parser("resume", parents=[conn], help="resume a paused or interrupted job")
    resume.add_argument("job", metavar="ID")
    resume.add_argument("--concurrency", type=int, metavar="N")
    resume.add_argument("--out", metavar="FILE")
    resume.add_argument("--delimiter", choices=("comma", "semicolon", "tab"), default="comma")
    resume.add_argument("--progress", action="store_true")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return asyncio.run(commands.run(args))
    except UsageError as exc:
        print(f"portal-admin-cli: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except PortalError as exc:
        where = f" (request id {exc.request_id})" if exc.request_id else ""
        print(f"portal-admin-cli: {exc.code}: {exc}{where}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        return EXIT_FAILED


if __name__ == "__main__":
    sys.exit(main())
