"""At 100,000 accounts, filtered and sorted account queries use an index, never a table scan."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import httpx
import pytest
from sandbox_flows import SYSTEM, bearer, ok

from portal_admin.protocol.bodies import AccountQuery
from portal_admin.protocol.enums import ACCOUNT_STATUS
from portal_admin.sandbox import SandboxConfig, create_app
from portal_admin.sandbox.routes.accounts import query_sql
from portal_admin.sandbox.state import SandboxState
from portal_admin.sandbox.tokens import sign_in

pytestmark = pytest.mark.slow

N = 100_000


@pytest.fixture(scope="module")
def big() -> Iterator[tuple[object, SandboxState, float]]:
    started = time.perf_counter()
    app = create_app(SandboxConfig(seed_accounts=N))
    seconds = time.perf_counter() - started
    state: SandboxState = app.state.sandbox
    yield app, state, seconds
    state.db.close()


def tree(state: SandboxState, sql: str, args: list[object]) -> list[str]:
    """The query plan of ``sql``, one line per step, indented two spaces per level."""
    depth: dict[int, int] = {0: -1}
    lines = []
    for r in state.db.query("EXPLAIN QUERY PLAN " + sql, args):
        depth[r["id"]] = depth.get(r["parent"], -1) + 1
        lines.append("  " * depth[r["id"]] + str(r["detail"]))
    return lines


def plans(
    state: SandboxState, body: dict[str, object], sorts: list[str]
) -> tuple[list[str], list[str]]:
    """The plans of a query's page (of 20) and of its total."""
    page_sql, count_sql, params = query_sql(AccountQuery.model_validate(body), sorts)
    return tree(state, page_sql, [*params, 20, 0]), tree(state, count_sql, params)


def plan(state: SandboxState, body: dict[str, object], sorts: list[str]) -> list[str]:
    page, count = plans(state, body, sorts)
    return [line.strip() for line in page + count]


#: A step reading a table of the accounts area: the verb, the table, how.
READ = re.compile(r"(SCAN|SEARCH) (accounts|account_words)\b(.*)")


CASES = [
    ({"accountStatus": 35010101}, ["accountEmail,asc"]),
    ({"accountStatus": 35010102}, ["accountName,desc"]),
    ({"accountStatus": 35010103}, ["createdAt,desc"]),
    ({"accountStatus": 35010104}, ["updatedAt,asc"]),
    ({"accountStatus": 35010101}, []),
    ({"accountPortal": 35010202}, ["createdAt,desc"]),
    ({"email": "james."}, ["accountEmail,asc"]),
    ({"email": "wang"}, ["createdAt,desc"]),
    ({"name": "nguyen"}, ["accountName,asc"]),
    ({"name": "sato hanako"}, ["updatedAt,desc"]),
    ({"name": "王"}, ["accountEmail,desc"]),
    ({"institutionBizId": "INS0"}, ["createdAt,asc"]),
    ({"accountStatus": 35010101, "accountPortal": 35010202, "email": "a"}, ["accountName,asc"]),
    ({"accountStatus": 35010101, "name": "li"}, ["createdAt,desc"]),
]


def test_seeding_100k(big: tuple[object, SandboxState, float]) -> None:
    """Every account is there (how fast: bench/, not a timed test)."""
    _, state, _ = big
    assert state.db.scalar("SELECT count(*) FROM accounts") == N + 4


@pytest.mark.parametrize(("body", "sorts"), CASES)
def test_filtered_sorted_query_uses_an_index(
    big: tuple[object, SandboxState, float], body: dict[str, object], sorts: list[str]
) -> None:
    _, state, _ = big
    lines = plan(state, body, sorts)
    print("\n".join(lines))  # the plan, shown with -s
    reads = [m for m in map(READ.fullmatch, lines) if m]
    assert any(m[2] == "accounts" for m in reads), lines
    for m in reads:
        # Every read of accounts or account_words is a SEARCH of an index: "SCAN accounts" is a
        # full table scan, "SCAN ... USING INDEX" a full index scan; a filter never needs one.
        assert m[1] == "SEARCH" and " USING " in m[3], lines


@pytest.mark.parametrize("direction", ["asc", "desc"])
@pytest.mark.parametrize("text", ["mar", "nguyen", "王"])
def test_name_search_in_name_order_reads_the_word_table(
    big: tuple[object, SandboxState, float], text: str, direction: str
) -> None:
    """A one-word name search sorted by name (the benchmark's "name~'mar' by name"): the total
    and the page's order come from account_words alone; accounts are read for the page only."""
    _, state, _ = big
    page, count = plans(state, {"name": text}, [f"accountName,{direction}"])
    print("\n".join(["page:", *page, "count:", *count]))
    words = "SEARCH account_words USING PRIMARY KEY (word>? AND word<?)"
    # one row per account (prev_word): no DISTINCT b-tree, no account row
    assert count == [words], count
    # the page of 20 is chosen in a subquery on the word table...
    first = page[0]
    assert first.startswith(("MATERIALIZE", "CO-ROUTINE")), page
    inner = [line.strip() for line in page[1:] if line.startswith("  ")]
    assert inner[0] == words and not any("accounts" in line for line in inner), page
    # ...then only its rows are read, by id (not each match through an IN list, then sorted)
    outer = [line for line in page[1:] if not line.startswith("  ")]
    assert [line for line in outer if READ.fullmatch(line)] == [
        "SEARCH accounts USING INTEGER PRIMARY KEY (rowid=?)"
    ], page
    assert not any("LIST SUBQUERY" in line for line in page), page


def test_status_query_reads_an_index_in_order(big: tuple[object, SandboxState, float]) -> None:
    """status=ACTIVE by updated desc (the benchmark's query): the page of 20 walks
    (status, updated_at) in order, no sort, 20 rows read; the total counts a covering index
    (70% of the table: what it costs)."""
    _, state, _ = big
    active = ACCOUNT_STATUS.value_of("ACTIVE")
    for direction in ("asc", "desc"):
        page, count = plans(state, {"accountStatus": active}, [f"updatedAt,{direction}"])
        print("\n".join(["page:", *page, "count:", *count]))
        assert page == ["SEARCH accounts USING INDEX ix_accounts_status_updated (status=?)"]
        assert len(count) == 1 and count[0].startswith("SEARCH accounts USING COVERING INDEX")
        assert count[0].endswith("(status=?)"), count


async def test_each_query_answers_a_page(big: tuple[object, SandboxState, float]) -> None:
    """Each case answers over HTTP (how fast is benchmark 5's, docs/performance.md; that it
    reads indexes is the tests above)."""
    app, state, _ = big
    admin = state.db.scalar("SELECT biz_id FROM accounts WHERE email_key = 'admin@sandbox.test'")
    token = sign_in(state, str(admin)).access_token
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),  # type: ignore[arg-type]
        base_url="http://t",
        headers={"X-PORTAL-ACCESS-CODE": "SANDBOX", **bearer(token)},
    ) as c:
        for body, sorts in CASES:
            resp = await c.post(
                f"{SYSTEM}/accounts/admin/query",
                json={**body, "size": 50},
                params=[("sort", s) for s in sorts],
            )
            data = ok(resp)
            assert len(data["accounts"]) <= 50
