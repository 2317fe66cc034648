"""Seed data per the contract table, reproducibility, file persistence, sandbox-only endpoints."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from sandbox_flows import SYSTEM, err, login, mailbox, ok

from portal_admin.protocol.enums import ACCOUNT_STATUS
from portal_admin.protocol.operations import ALL_PERMISSIONS, READ_PERMISSIONS
from portal_admin.sandbox import SandboxConfig, create_app
from portal_admin.sandbox.state import SandboxState
from portal_admin.sandbox.totp import code_at, step_of
from support.accounts import ADMIN, APPROVAL, AUDITOR, NEWUSER


def test_demo_accounts(state: SandboxState) -> None:
    rows = {r["email"]: r for r in state.db.query("SELECT * FROM accounts WHERE id <= 4")}
    assert set(rows) == {ADMIN[0], AUDITOR[0], APPROVAL[0], NEWUSER}
    assert rows[ADMIN[0]]["status"] == "ACTIVE" and rows[ADMIN[0]]["portal"] == "SYSTEM"
    assert rows[AUDITOR[0]]["status"] == "ACTIVE"
    assert rows[APPROVAL[0]]["pending_approval"] == 1
    assert rows[NEWUSER]["password_hash"] is None and rows[NEWUSER]["status"] == "PENDING_INIT"
    methods = {
        (r[0], r[1])
        for r in state.db.query(
            "SELECT a.email, m.method FROM mfa_settings m JOIN accounts a"
            " ON a.biz_id = m.account_biz_id WHERE a.id <= 4"
        )
    }
    assert {
        (ADMIN[0], "EMAIL"),
        (ADMIN[0], "OTP"),
        (AUDITOR[0], "OTP"),
        (APPROVAL[0], "EMAIL"),
    } <= methods
    assert (APPROVAL[0], "OTP") not in methods


def test_roles_and_workspaces(state: SandboxState) -> None:
    roles = state.db.query(
        "SELECT r.*, (SELECT count(*) FROM workspace_members m WHERE m.role_biz_id = r.biz_id)"
        " AS members FROM roles r JOIN workspaces w ON w.biz_id = r.workspace_biz_id"
        " WHERE w.name = 'Sandbox Operations'"
    )
    by_name = {r["role_name"]: r for r in roles}
    assert json.loads(by_name["Owner"]["permission_codes"]) == list(ALL_PERMISSIONS)
    assert by_name["Owner"]["role_type"] == "OWNER"
    assert set(json.loads(by_name["Auditor"]["permission_codes"])) == set(READ_PERMISSIONS)
    custom = [r for r in roles if r["role_type"] == "CUSTOM"]
    assert any(r["members"] > 0 and r["role_name"] != "Auditor" for r in custom)
    assert any(r["members"] == 0 for r in custom)
    assert state.db.scalar("SELECT count(*) FROM institutions") >= 2


def test_generated_accounts(state: SandboxState) -> None:
    statuses = {r[0] for r in state.db.query("SELECT DISTINCT status FROM accounts WHERE id > 4")}
    assert set(ACCOUNT_STATUS.codes) <= statuses
    emails = [r[0] for r in state.db.query("SELECT email_key FROM accounts")]
    assert len(emails) == len(set(emails)) == 44
    languages = {r[0] for r in state.db.query("SELECT default_language FROM accounts")}
    assert {"en", "zh", "zh-Hant", "ja", "vi"} <= languages
    names = [r[0] for r in state.db.query("SELECT name FROM accounts")]
    assert any(any("\u4e00" <= ch <= "\u9fff" for ch in n) for n in names)
    assert any(any("\u0400" <= ch <= "\u04ff" for ch in n) for n in names)


def test_admin_sessions_and_history(state: SandboxState) -> None:
    admin = state.db.scalar("SELECT biz_id FROM accounts WHERE id = 1")
    results = {
        r[0]
        for r in state.db.query(
            "SELECT login_result FROM login_history WHERE account_biz_id = ?", (admin,)
        )
    }
    assert {1, 2} <= results
    active = state.db.scalar(
        "SELECT count(*) FROM auth_sessions WHERE account_biz_id = ? AND ended_at IS NULL",
        (admin,),
    )
    assert active >= 2


def test_reproducible_with_the_seed() -> None:
    def emails(seed: int) -> list[str]:
        app = create_app(SandboxConfig(seed_accounts=30, seed=seed))
        state: SandboxState = app.state.sandbox
        result = [r[0] for r in state.db.query("SELECT biz_id || email FROM accounts ORDER BY id")]
        state.db.close()
        return result

    assert emails(7) == emails(7)
    assert emails(7) != emails(8)


def test_file_database_keeps_changes(tmp_path: Path) -> None:
    path = str(tmp_path / "sandbox.sqlite3")
    app = create_app(SandboxConfig(db=path, seed_accounts=15))
    state: SandboxState = app.state.sandbox
    key_id = state.secure_channel.key_id
    state.db.execute("UPDATE accounts SET name = 'Renamed' WHERE id = 2")
    count = state.db.scalar("SELECT count(*) FROM accounts")
    state.db.close()
    again = create_app(SandboxConfig(db=path, seed_accounts=500))
    state = again.state.sandbox
    assert state.db.scalar("SELECT name FROM accounts WHERE id = 2") == "Renamed"
    assert state.db.scalar("SELECT count(*) FROM accounts") == count
    assert state.secure_channel.key_id == key_id
    state.db.close()


async def test_mailbox(client: httpx.AsyncClient) -> None:
    mails = await mailbox(client, "NewUser@Sandbox.Test")
    assert len(mails) == 1
    assert set(mails[0]) == {"id", "to", "subject", "body", "code", "token", "sessionId", "sentAt"}
    assert mails[0]["sentAt"].endswith("Z")
    await login(client, *ADMIN)
    await login(client, *ADMIN)
    admin_mail = await mailbox(client, ADMIN[0])
    assert admin_mail[0]["id"] > admin_mail[1]["id"]  # newest first
    assert admin_mail[0]["code"].isdigit() and admin_mail[0]["token"] is None
    assert await mailbox(client, "nobody@sandbox.test") == []
    err(await client.get("/sandbox/mailbox"), 400, "VALIDATION.INVALID_PARAMETER")


async def test_totp_endpoint(client: httpx.AsyncClient, state: SandboxState) -> None:
    data = ok(await client.get("/sandbox/totp", params={"email": ADMIN[0]}))
    assert data["code"] == code_at(data["secret"], step_of(state.clock.now()))
    err(await client.get("/sandbox/totp", params={"email": APPROVAL[0]}), 404, "RESOURCE.NOT_FOUND")
    err(await client.get("/sandbox/totp", params={"email": "x@y.z"}), 404, "RESOURCE.NOT_FOUND")
    err(await client.get("/sandbox/totp"), 400, "VALIDATION.INVALID_PARAMETER")


async def test_clock_advance(client: httpx.AsyncClient, state: SandboxState) -> None:
    before = state.clock.now()
    data = ok(await client.post("/sandbox/clock/advance", json={"seconds": 86400}))
    assert data["now"].endswith("Z")
    assert state.clock.now() >= before + 86400
    ok(await client.post("/sandbox/clock/advance", json={"seconds": 0.5}))
    for bad in (
        {"seconds": -1},
        {"seconds": "5"},
        {},
        None,
        {"seconds": True},
        [5],
        {"seconds": 1e300},
    ):
        err(
            await client.post("/sandbox/clock/advance", json=bad),
            400,
            "VALIDATION.INVALID_PARAMETER",
        )


async def test_clock_and_rotation_need_the_test_clock() -> None:
    app = create_app(SandboxConfig(seed_accounts=0))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        err(await c.post("/sandbox/clock/advance", json={"seconds": 5}), 404, "RESOURCE.NOT_FOUND")
        err(await c.post("/sandbox/secure-channel/rotate-key"), 404, "RESOURCE.NOT_FOUND")
    app.state.sandbox.db.close()


@pytest.mark.parametrize("lang", ["en", "zh", "zh-Hant", "ja", "vi"])
async def test_enum_labels_follow_the_language(
    client: httpx.AsyncClient, admin_headers: dict[str, str], lang: str
) -> None:
    from portal_admin.sandbox.i18n import enum_item

    resp = await client.post(
        f"{SYSTEM}/accounts/admin/query",
        json={"email": "admin@"},
        headers={**admin_headers, "Accept-Language": lang},
    )
    status = ok(resp)["accounts"][0]["accountStatus"]
    assert status == enum_item(ACCOUNT_STATUS, "ACTIVE", lang)
