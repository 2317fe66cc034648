"""Account administration: query (both shapes), get, status, password reset, update."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from sandbox_flows import SYSTEM, err, login, mailbox, ok

from portal_admin.protocol.enums import ACCOUNT_STATUS
from portal_admin.sandbox import SandboxConfig, create_app
from portal_admin.sandbox.state import SandboxState
from portal_admin.sandbox.text import search_key

QUERY = f"{SYSTEM}/accounts/admin/query"
STATUS = f"{SYSTEM}/accounts/admin/status"
RESET = f"{SYSTEM}/accounts/admin/password/reset"
UPDATE = f"{SYSTEM}/accounts/admin/update"
INVALID = "VALIDATION.INVALID_PARAMETER"
ACCOUNT_FIELDS = {
    "bizId",
    "institutionBizId",
    "accountEmail",
    "accountPhone",
    "accountName",
    "accountRemark",
    "accountPortal",
    "accountStatus",
    "createdAt",
    "updatedAt",
    "defaultLanguage",
    "defaultTimezone",
    "defaultCountry",
}


async def query(
    client: httpx.AsyncClient, headers: dict[str, str], body: Any = None, **params: Any
) -> dict[str, Any]:
    data: dict[str, Any] = ok(
        await client.post(QUERY, json=body or {}, headers=headers, params=params)
    )
    return data


def biz_of(state: SandboxState, email: str) -> str:
    return str(state.db.scalar("SELECT biz_id FROM accounts WHERE email_key = ?", (email,)))


async def test_query_shape_accounts(
    client: httpx.AsyncClient, admin_headers: dict[str, str], state: SandboxState
) -> None:
    data = await query(client, admin_headers, {"page": 0, "size": 10})
    assert set(data) == {"accounts", "totalElements", "totalPages", "currentPage", "pageSize"}
    total = state.db.scalar("SELECT count(*) FROM accounts")
    assert data["totalElements"] == total and data["pageSize"] == 10
    assert data["totalPages"] == -(-total // 10) and data["currentPage"] == 0
    assert len(data["accounts"]) == 10
    for account in data["accounts"]:
        assert set(account) == ACCOUNT_FIELDS
        assert {"code", "value", "label", "description"} <= set(account["accountStatus"])
        assert account["createdAt"].endswith("Z")


async def test_query_shape_content() -> None:
    app = create_app(SandboxConfig(seed_accounts=10, account_query_shape="content"))
    state: SandboxState = app.state.sandbox
    from portal_admin.sandbox.tokens import sign_in

    token = sign_in(state, biz_of(state, "admin@sandbox.test")).access_token
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url="http://t",
        headers={"X-PORTAL-ACCESS-CODE": "SANDBOX", "Authorization": f"Bearer {token}"},
    ) as c:
        data = ok(await c.post(QUERY, json={"page": 1, "size": 5}))
    assert set(data) == {"content", "totalElements", "totalPages", "page", "size"}
    assert data["page"] == 1 and data["size"] == 5 and len(data["content"]) == 5
    state.db.close()


async def test_paging(client: httpx.AsyncClient, admin_headers: dict[str, str]) -> None:
    first = await query(client, admin_headers, {"page": 0, "size": 7})
    second = await query(client, admin_headers, {"page": 1, "size": 7})
    assert not {a["bizId"] for a in first["accounts"]} & {a["bizId"] for a in second["accounts"]}
    capped = await query(client, admin_headers, {"size": 1000})
    assert capped["pageSize"] == 100
    beyond = await query(client, admin_headers, {"page": 999, "size": 20})
    assert beyond["accounts"] == [] and beyond["totalElements"] == first["totalElements"]
    default = await query(client, admin_headers, None)
    assert default["pageSize"] == 20 and default["currentPage"] == 0
    for bad in (
        {"page": -1},
        {"size": -1},
        {"size": 0},
        {"page": "1"},
        {"size": 2.5},
        {"page": True},
    ):
        err(await client.post(QUERY, json=bad, headers=admin_headers), 400, INVALID)


@pytest.mark.parametrize("field", ["accountEmail", "accountName", "createdAt", "updatedAt"])
@pytest.mark.parametrize("direction", ["asc", "desc"])
async def test_sort(
    client: httpx.AsyncClient, admin_headers: dict[str, str], field: str, direction: str
) -> None:
    data = await query(client, admin_headers, {"size": 100}, sort=f"{field},{direction}")
    values = [a[field] for a in data["accounts"]]
    if field == "accountName":
        values = [v.casefold() for v in values]
    assert values == sorted(values, reverse=direction == "desc")


async def test_sort_in_body_and_repeated(
    client: httpx.AsyncClient, admin_headers: dict[str, str]
) -> None:
    data = await query(
        client, admin_headers, {"size": 100, "sort": ["accountStatus,asc", "accountEmail,desc"]}
    )
    keys = [(a["accountStatus"]["code"], a["accountEmail"]) for a in data["accounts"]]
    assert [k[0] for k in keys] == sorted(k[0] for k in keys)
    resp = await client.post(
        QUERY,
        json={},
        headers=admin_headers,
        params=[("sort", "createdAt,desc"), ("sort", "bizId,asc")],
    )
    ok(resp)


@pytest.mark.parametrize("sort", ["password,asc", "passwordHash", "accountEmail,up", "x;y,asc"])
async def test_unsortable(
    client: httpx.AsyncClient, admin_headers: dict[str, str], sort: str
) -> None:
    resp = await client.post(QUERY, json={}, headers=admin_headers, params={"sort": sort})
    err(resp, 400, INVALID)


async def test_filters(
    client: httpx.AsyncClient, admin_headers: dict[str, str], state: SandboxState
) -> None:
    data = await query(client, admin_headers, {"email": "ADMIN@", "size": 100})
    assert [a["accountEmail"] for a in data["accounts"]] == ["admin@sandbox.test"]
    for code in (*ACCOUNT_STATUS.codes, "REGISTERED"):
        value = ACCOUNT_STATUS.value_of(code)
        data = await query(client, admin_headers, {"accountStatus": value, "size": 100})
        assert data["totalElements"] >= 1, code
        assert {a["accountStatus"]["code"] for a in data["accounts"]} == {code}
    alt_active = await query(client, admin_headers, {"accountStatus": 10010202})
    active = await query(client, admin_headers, {"accountStatus": 35010101})
    assert alt_active["totalElements"] == active["totalElements"]
    portal = await query(client, admin_headers, {"accountPortal": 10010101, "size": 100})
    assert {a["accountPortal"]["code"] for a in portal["accounts"]} == {"SYSTEM"}
    inst = state.db.scalar("SELECT institution_biz_id FROM accounts WHERE id = 10")
    data = await query(client, admin_headers, {"institutionBizId": inst, "size": 100})
    assert data["totalElements"] >= 1
    assert {a["institutionBizId"] for a in data["accounts"]} == {inst}
    empty = await query(client, admin_headers, {"institutionBizId": "INS-NONE"})
    assert empty["accounts"] == [] and empty["totalElements"] == 0 and empty["totalPages"] == 0
    for bad in (
        {"accountStatus": 1},
        {"accountPortal": 99},
        {"accountStatus": "ACTIVE"},
        {"email": 5},
        {"name": "x" * 300},
    ):
        err(await client.post(QUERY, json=bad, headers=admin_headers), 400, INVALID)


async def test_name_filter(
    client: httpx.AsyncClient, admin_headers: dict[str, str], state: SandboxState
) -> None:
    data = await query(client, admin_headers, {"name": "sandbox", "size": 100})
    names = {a["accountName"] for a in data["accounts"]}
    assert {"Sandbox Administrator", "Sandbox Auditor"} <= names
    data = await query(client, admin_headers, {"name": "AUDIT"})
    assert [a["accountName"] for a in data["accounts"]] == ["Sandbox Auditor"]
    data = await query(client, admin_headers, {"name": "sandbox adm"})
    assert [a["accountName"] for a in data["accounts"]] == ["Sandbox Administrator"]
    # accents and case are ignored; scripts other than Latin match by prefix
    row = state.db.one("SELECT name FROM accounts WHERE default_language = 'vi' LIMIT 1")
    assert row is not None
    family = row[0].split()[0]
    data = await query(client, admin_headers, {"name": family.lower(), "size": 100})
    assert row[0] in {a["accountName"] for a in data["accounts"]}
    zh = state.db.one("SELECT name FROM accounts WHERE default_language = 'zh' LIMIT 1")
    assert zh is not None
    data = await query(client, admin_headers, {"name": zh[0][0], "size": 100})
    assert zh[0] in {a["accountName"] for a in data["accounts"]}


def name_search(state: SandboxState, text: str) -> list[tuple[str, int, str]]:
    """The reference answer of a one-word name search in name order: (name_fold, id, biz_id)
    of the accounts with a word that starts with the text, from the accounts table alone."""
    key = search_key(text)
    rows = state.db.query("SELECT id, biz_id, name, name_fold FROM accounts")
    found = [r for r in rows if any(w.startswith(key) for w in search_key(r["name"]).split())]
    return sorted((str(r["name_fold"]), int(r["id"]), str(r["biz_id"])) for r in found)


@pytest.mark.parametrize("sandbox_config", [SandboxConfig(seed_accounts=1500, test_clock=True)])
async def test_name_search_in_name_order(
    client: httpx.AsyncClient, admin_headers: dict[str, str], state: SandboxState
) -> None:
    # Renamed through the API (the word table follows): two words with the same prefix, a
    # tie on the whole name (broken by id), case and accents (sorted by casefold, not key).
    renames = {
        11: "Mara Marsh",
        12: "Mara Marsh",
        13: "mara marsh",
        14: "Márquez Marisol",
        15: "MARK Zed",
        16: "Zed Markovic Marr",
    }
    for account_id, name in renames.items():
        biz = state.db.scalar("SELECT biz_id FROM accounts WHERE id = ?", (account_id,))
        ok(
            await client.post(
                UPDATE, json={"userBizId": biz, "accountName": name}, headers=admin_headers
            )
        )
    assert len(name_search(state, "mar")) > 60  # seeded names match too
    for text in ("mar", "MÁR", "mars", "m", "a", "nguy", "sandbox", "王", "zed", "zzz"):
        expected = name_search(state, text)
        for direction in ("asc", "desc"):
            want = [biz for *_, biz in (expected[::-1] if direction == "desc" else expected)]
            got: list[str] = []
            for page in range(0, 100):
                data = await query(
                    client,
                    admin_headers,
                    {"name": text, "page": page, "size": 37},
                    sort=f"accountName,{direction}",
                )
                assert data["totalElements"] == len(expected), (text, direction)
                got += [a["bizId"] for a in data["accounts"]]
                if len(data["accounts"]) < 37:
                    break
            assert got == want, (text, direction)
    # the old words of a renamed account no longer match; the new ones do, once each
    ids = [a["bizId"] for a in (await query(client, admin_headers, {"name": "marr"}))["accounts"]]
    renamed = state.db.scalar("SELECT biz_id FROM accounts WHERE id = 16")
    assert ids.count(renamed) == 1


async def test_word_table_of_an_older_sandbox_is_rebuilt(tmp_path: Path) -> None:
    """A database file made before account_words kept name_fold and prev_word still works."""
    path = str(tmp_path / "older.sqlite3")
    app = create_app(SandboxConfig(db=path, seed_accounts=30))
    db = app.state.sandbox.db
    current = [tuple(r) for r in db.query("SELECT * FROM account_words ORDER BY 1, 2")]
    db.executescript(
        "CREATE TABLE old_words (word TEXT NOT NULL, account_id INTEGER NOT NULL,"
        " PRIMARY KEY (word, account_id)) WITHOUT ROWID;"
        " INSERT INTO old_words SELECT word, account_id FROM account_words;"
        " DROP TABLE account_words; ALTER TABLE old_words RENAME TO account_words;"
    )
    db.close()
    again = create_app(SandboxConfig(db=path, seed_accounts=30))
    db = again.state.sandbox.db
    assert [tuple(r) for r in db.query("SELECT * FROM account_words ORDER BY 1, 2")] == current
    db.close()


async def test_permissions(
    client: httpx.AsyncClient, auditor_headers: dict[str, str], state: SandboxState
) -> None:
    err(await client.post(QUERY, json={}), 401, "ACCESS.TOKEN_MISSING")
    await query(client, auditor_headers)
    target = state.db.scalar("SELECT biz_id FROM accounts WHERE status = 'ACTIVE' AND id > 4")
    for path, body in (
        (STATUS, {"userBizId": target, "action": "SUSPEND"}),
        (RESET, {"userBizId": target}),
        (UPDATE, {"userBizId": target, "accountName": "X"}),
    ):
        err(
            await client.post(path, json=body, headers=auditor_headers),
            403,
            "ACCESS.PERMISSION_DENIED",
        )
    approval = await login(client, "approval@sandbox.test", "Sandbox-Approval-2026!")
    resp = await client.post(
        QUERY, json={}, headers={"Authorization": f"Bearer {approval['accessToken']}"}
    )
    err(resp, 403, "ACCESS.PERMISSION_DENIED")


async def test_get(
    client: httpx.AsyncClient, admin_headers: dict[str, str], state: SandboxState
) -> None:
    biz = biz_of(state, "auditor@sandbox.test")
    data = ok(await client.get(f"{SYSTEM}/accounts/admin/{biz}", headers=admin_headers))
    assert set(data) == ACCOUNT_FIELDS and data["accountEmail"] == "auditor@sandbox.test"
    err(
        await client.get(f"{SYSTEM}/accounts/admin/NOPE", headers=admin_headers),
        404,
        "RESOURCE.NOT_FOUND",
    )
    err(await client.get(f"{SYSTEM}/accounts/admin/{biz}"), 401, "ACCESS.TOKEN_MISSING")


async def test_status_transitions(
    client: httpx.AsyncClient, admin_headers: dict[str, str], state: SandboxState
) -> None:
    tokens = await login(client, "auditor@sandbox.test", "Sandbox-Audit-2026!")
    biz = biz_of(state, "auditor@sandbox.test")
    data = ok(
        await client.post(
            STATUS,
            json={"userBizId": biz, "action": "SUSPEND", "reason": "audit over"},
            headers=admin_headers,
        )
    )
    assert data == {
        "userBizId": biz,
        "email": "auditor@sandbox.test",
        "displayName": "Sandbox Auditor",
        "status": "SUSPENDED",
    }
    # the suspended account is signed out and cannot sign in
    resp = await client.get(
        f"{SYSTEM}/profile", headers={"Authorization": f"Bearer {tokens['accessToken']}"}
    )
    err(resp, 401, "4010")
    resp = await client.post(
        f"{SYSTEM}/auth/login/initiate",
        json={"email": "auditor@sandbox.test", "password": "Sandbox-Audit-2026!"},
    )
    err(resp, 401, "AUTH.INVALID_CREDENTIALS")
    err(
        await client.post(
            STATUS, json={"userBizId": biz, "action": "SUSPEND"}, headers=admin_headers
        ),
        400,
        INVALID,
    )
    data = ok(
        await client.post(
            STATUS, json={"userBizId": biz, "action": "activate"}, headers=admin_headers
        )
    )
    assert data["status"] == "ACTIVE"
    data = ok(
        await client.post(
            STATUS, json={"userBizId": biz, "action": "DEACTIVATE"}, headers=admin_headers
        )
    )
    assert data["status"] == "DEACTIVATED"


async def test_status_bad_input(
    client: httpx.AsyncClient, admin_headers: dict[str, str], state: SandboxState
) -> None:
    biz = biz_of(state, "auditor@sandbox.test")
    admin = biz_of(state, "admin@sandbox.test")
    for body in (
        None,
        {},
        {"userBizId": biz},
        {"userBizId": biz, "action": "EXPLODE"},
        {"userBizId": "", "action": "SUSPEND"},
        {"userBizId": 5, "action": "SUSPEND"},
        {"userBizId": admin, "action": "SUSPEND"},
    ):
        err(await client.post(STATUS, json=body, headers=admin_headers), 400, INVALID)
    err(
        await client.post(
            STATUS, json={"userBizId": "NOPE", "action": "SUSPEND"}, headers=admin_headers
        ),
        404,
        "RESOURCE.NOT_FOUND",
    )


async def test_admin_password_reset(
    client: httpx.AsyncClient, admin_headers: dict[str, str], state: SandboxState
) -> None:
    biz = biz_of(state, "auditor@sandbox.test")
    data = ok(await client.post(RESET, json={"userBizId": biz}, headers=admin_headers))
    assert data["sent"] is True and data["email"] == "auditor@sandbox.test"
    assert (await mailbox(client, "auditor@sandbox.test"))[0]["token"]
    err(await client.post(RESET, json={}, headers=admin_headers), 400, INVALID)
    err(await client.post(RESET, headers=admin_headers), 400, INVALID)
    err(
        await client.post(RESET, json={"userBizId": "NOPE"}, headers=admin_headers),
        404,
        "RESOURCE.NOT_FOUND",
    )


async def test_update(
    client: httpx.AsyncClient, admin_headers: dict[str, str], state: SandboxState
) -> None:
    biz = biz_of(state, "auditor@sandbox.test")
    data = ok(
        await client.post(
            UPDATE,
            json={
                "userBizId": biz,
                "accountName": "Zoë Auditor",
                "accountPhone": "+1-555-9999",
                "accountRemark": "hello",
                "defaultLanguage": "ja",
                "defaultTimezone": "Asia/Tokyo",
                "defaultCountry": "JP",
            },
            headers=admin_headers,
        )
    )
    assert data["accountName"] == "Zoë Auditor" and data["defaultCountry"] == "JP"
    assert data["accountRemark"] == "hello" and set(data) == ACCOUNT_FIELDS
    found = await query(client, admin_headers, {"name": "zoe"})
    assert [a["bizId"] for a in found["accounts"]] == [biz]
    cleared = ok(
        await client.post(
            UPDATE, json={"userBizId": biz, "accountRemark": None}, headers=admin_headers
        )
    )
    assert cleared["accountRemark"] is None and cleared["accountName"] == "Zoë Auditor"
    for body in (
        {"userBizId": ""},
        {},
        None,
        {"accountName": "x"},
        {"userBizId": biz, "accountName": ""},
        {"userBizId": biz, "accountName": None},
        {"userBizId": biz, "accountRemark": "x" * 256},
        {"userBizId": biz, "unknownField": 1},
        {"userBizId": biz, "accountPhone": 5},
    ):
        err(await client.post(UPDATE, json=body, headers=admin_headers), 400, INVALID)
    err(
        await client.post(UPDATE, json={"userBizId": "NOPE"}, headers=admin_headers),
        404,
        "RESOURCE.NOT_FOUND",
    )


async def test_activating_approves(
    client: httpx.AsyncClient, admin_headers: dict[str, str], state: SandboxState
) -> None:
    biz = biz_of(state, "approval@sandbox.test")
    data = ok(
        await client.post(
            STATUS, json={"userBizId": biz, "action": "ACTIVATE"}, headers=admin_headers
        )
    )
    assert data["status"] == "ACTIVE"
    tokens = await login(client, "approval@sandbox.test", "Sandbox-Approval-2026!")
    assert tokens["pendingApproval"] is False
