"""``accounts query``: every account the filters match (all pages), as CSV or JSON lines."""

from __future__ import annotations

from dataclasses import dataclass

from portal_admin.jobs import targets as pick

from .errors import EXIT_OK
from .output import say, writable, write_csv, write_json_lines
from .session import connect
from .targets import account_filters
from .typed import AccountFilters, ConnectionOptions

#: The CSV's columns (the plan record's keys, which are also the JSON's).
COLUMNS = (
    "id",
    "email",
    "name",
    "status",
    "portal",
    "institution",
    "language",
    "timezone",
    "country",
    "remark",
)


@dataclass(frozen=True)
class QueryCommand:
    """``accounts query``: the filters, the order, and where and how the accounts go."""

    connection: ConnectionOptions
    filters: AccountFilters
    sort: str
    format: str
    out: str | None
    delimiter: str


async def query_accounts(cmd: QueryCommand) -> int:
    """Fetch every matching account, then write them to ``--out`` or standard output."""
    if cmd.out:
        writable(cmd.out)
    async with connect(cmd.connection) as conn:
        rows = [
            {"id": target.id, **target.record}
            async for target in pick.all_accounts(
                conn.client, sort=cmd.sort, **account_filters(cmd.filters)
            )
        ]
    if cmd.format == "json":
        write_json_lines(rows, cmd.out)
    else:
        table = [list(COLUMNS), *([row.get(key, "") for key in COLUMNS] for row in rows)]
        write_csv(table, cmd.out, cmd.delimiter)
    say(f"{len(rows):,} accounts" + (f": {cmd.out}" if cmd.out else ""))
    return EXIT_OK
