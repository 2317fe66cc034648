"""``accounts query``: every account the filters match (all pages), as CSV or JSON lines."""

from __future__ import annotations

from typing import Any

from portal_admin.jobs import targets as pick

from .errors import EXIT_OK
from .output import say, writable, write_csv, write_json_lines
from .session import connect
from .targets import account_filters

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


async def query_accounts(args: Any) -> int:
    """Fetch every matching account, then write them to ``--out`` or standard output."""
    if args.out:
        writable(args.out)
    async with connect(args) as conn:
        rows = [
            {"id": target.id, **target.record}
            async for target in pick.all_accounts(
                conn.client, sort=args.sort, **account_filters(args)
            )
        ]
    if args.format == "json":
        write_json_lines(rows, args.out)
    else:
        table = [list(COLUMNS), *([row.get(key, "") for key in COLUMNS] for row in rows)]
        write_csv(table, args.out, args.delimiter)
    say(f"{len(rows):,} accounts" + (f": {args.out}" if args.out else ""))
    return EXIT_OK
