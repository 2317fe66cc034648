"""At 100,000 accounts, filtered and sorted account queries use an index, never a table scan."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest
from sandbox_flows import SYSTEM, bearer, ok

from portal_admin.sandbox import SandboxConfig, create_app
from portal_admin.sandbox.routes.accounts import QueryBody, query_sql
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


def plan(state: SandboxState, body: dict[str, object], sorts: list[str]) -> list[str]:
    page_sql, count_sql, params = query_sql(QueryBody.model_validate(body), sorts)
    lines = [
        str(r["detail"])
        for sql, args in ((page_sql, [*params, 20, 0]), (count_sql, params))
        for r in state.db.query("EXPLAIN QUERY PLAN " + sql, args)
    ]
    return lines


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


def test_seeding_100k_is_fast(big: tuple[object, SandboxState, float]) -> None:
    _, state, seconds = big
    assert state.db.scalar("SELECT count(*) FROM accounts") == N + 4
    assert seconds < 20, seconds


@pytest.mark.parametrize(("body", "sorts"), CASES)
def test_filtered_sorted_query_uses_an_index(
    big: tuple[object, SandboxState, float], body: dict[str, object], sorts: list[str]
) -> None:
    _, state, _ = big
    lines = plan(state, body, sorts)
    print("\n".join(lines))  # the plan, shown with -s
    account_lines = [ln for ln in lines if "accounts" in ln]
    assert account_lines, lines
    for line in account_lines:
        # "SCAN accounts" alone is a full table scan; with an index it names the index.
        assert not line.strip().endswith("SCAN accounts"), lines
        assert "USING" in line, lines
    assert any(ln.startswith("SEARCH") for ln in lines), lines


async def test_query_answers_quickly(big: tuple[object, SandboxState, float]) -> None:
    app, state, _ = big
    admin = state.db.scalar("SELECT biz_id FROM accounts WHERE email_key = 'admin@sandbox.test'")
    token = sign_in(state, str(admin)).access_token
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),  # type: ignore[arg-type]
        base_url="http://t",
        headers={"X-PORTAL-ACCESS-CODE": "SANDBOX", **bearer(token)},
    ) as c:
        for body, sorts in CASES:
            started = time.perf_counter()
            resp = await c.post(
                f"{SYSTEM}/accounts/admin/query",
                json={**body, "size": 50},
                params=[("sort", s) for s in sorts],
            )
            elapsed = time.perf_counter() - started
            data = ok(resp)
            assert elapsed < 1.0, (body, sorts, elapsed)
            assert len(data["accounts"]) <= 50
