"""The security area: IP whitelist, MFA, backup codes, OTP revoke, sessions, login history."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from portal_admin.sandbox.ids import sha256_hex
from portal_admin.sandbox.state import SandboxState

S = "/web/v1/system/security"


def ok(response: httpx.Response) -> Any:
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["success"] is True and body["code"] == "2000", body
    return body["data"]


def err(response: httpx.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["success"] is False and body["code"] == code and body["data"] is None, body


MUTATIONS = [
    ("POST", f"{S}/ip-whitelist", {"ips": ["192.0.2.1"]}),
    ("POST", f"{S}/ip-whitelist/enable", None),
    ("POST", f"{S}/ip-whitelist/disable", None),
    ("POST", f"{S}/mfa/backup-codes/generate", None),
    ("POST", f"{S}/mfa/otp/revoke", None),
]
READS = [
    "ip-whitelist",
    "mfa",
    "mfa/backup-codes",
    "sessions",
    "sessions/config",
    "sessions/history",
]


@pytest.mark.parametrize("path", READS)
async def test_reads_need_a_token(client: httpx.AsyncClient, path: str) -> None:
    err(await client.get(f"{S}/{path}"), 401, "ACCESS.TOKEN_MISSING")
    bad = {"Authorization": "Bearer not-a-token"}
    err(await client.get(f"{S}/{path}", headers=bad), 401, "4010")


@pytest.mark.parametrize("path", READS)
async def test_auditor_may_read(
    client: httpx.AsyncClient, auditor_headers: dict[str, str], path: str
) -> None:
    ok(await client.get(f"{S}/{path}", headers=auditor_headers))


@pytest.mark.parametrize(("method", "path", "body"), MUTATIONS)
async def test_auditor_may_not_change(
    client: httpx.AsyncClient,
    auditor_headers: dict[str, str],
    method: str,
    path: str,
    body: Any,
) -> None:
    err(
        await client.request(method, path, json=body, headers=auditor_headers),
        403,
        "ACCESS.PERMISSION_DENIED",
    )
    err(await client.request(method, path, json=body), 401, "ACCESS.TOKEN_MISSING")


async def test_ip_whitelist_round_trip(
    client: httpx.AsyncClient, admin_headers: dict[str, str]
) -> None:
    seeded = ok(await client.get(f"{S}/ip-whitelist", headers=admin_headers))
    assert seeded["enabled"] is False
    assert {e["ip"] for e in seeded["entries"]} >= {"203.0.113.0/24", "2001:db8::/32"}
    kept = next(e for e in seeded["entries"] if e["ip"] == "203.0.113.0/24")
    ips = ["203.0.113.0/24", " 10.1.2.3 ", "2001:DB8:0:0::1", "192.0.2.7/32", "10.1.2.3"]
    data = ok(await client.post(f"{S}/ip-whitelist", json={"ips": ips}, headers=admin_headers))
    assert [e["ip"] for e in data["entries"]] == [
        "203.0.113.0/24",  # kept: oldest first
        "10.1.2.3",
        "192.0.2.7",
        "2001:db8::1",
    ]
    assert len(data["entries"]) == 4
    entry = next(e for e in data["entries"] if e["ip"] == "203.0.113.0/24")
    assert entry["createdAt"] == kept["createdAt"]  # kept entries keep their time
    assert set(entry) == {"ip", "createdAt"}
    enabled = ok(await client.post(f"{S}/ip-whitelist/enable", headers=admin_headers))
    assert enabled["enabled"] is True
    again = ok(await client.get(f"{S}/ip-whitelist", headers=admin_headers))
    assert again["enabled"] is True and len(again["entries"]) == 4
    disabled = ok(await client.post(f"{S}/ip-whitelist/disable", headers=admin_headers))
    assert disabled["enabled"] is False
    cleared = ok(await client.post(f"{S}/ip-whitelist", json={"ips": []}, headers=admin_headers))
    assert cleared["entries"] == []


@pytest.mark.parametrize(
    "body",
    [
        None,
        {},
        {"ips": "10.0.0.1"},
        {"ips": [1234]},
        {"ips": ["10.0.0.256"]},
        {"ips": ["10.0.0.1/8"]},
        {"ips": ["example.com"]},
        {"ips": ["10.0.0.0/33"]},
        {"ips": [""]},
        {"ips": [None]},
        {"ips": ["10.0.0.1"] * 2 + [f"10.0.1.{n}" for n in range(100)]},
    ],
)
async def test_ip_whitelist_rejects_bad_input(
    client: httpx.AsyncClient, admin_headers: dict[str, str], body: Any
) -> None:
    err(
        await client.post(f"{S}/ip-whitelist", json=body, headers=admin_headers),
        400,
        "VALIDATION.INVALID_PARAMETER",
    )


async def test_malformed_json_is_400(
    client: httpx.AsyncClient, admin_headers: dict[str, str]
) -> None:
    response = await client.post(
        f"{S}/ip-whitelist",
        content=b"{not json",
        headers={**admin_headers, "Content-Type": "application/json"},
    )
    err(response, 400, "VALIDATION.INVALID_PARAMETER")


async def test_mfa_settings_localized(
    client: httpx.AsyncClient, admin_headers: dict[str, str]
) -> None:
    en = ok(await client.get(f"{S}/mfa", headers=admin_headers))
    assert [s["mfaMethod"]["code"] for s in en] == ["EMAIL", "OTP"]
    assert {s["mfaMethod"]["value"] for s in en} == {10011001, 10011002}
    for setting in en:
        assert set(setting) == {"mfaMethod", "isEnabled", "isPrimary", "verifiedAt"}
        assert setting["isEnabled"] is True
    ja = ok(await client.get(f"{S}/mfa", headers={**admin_headers, "Accept-Language": "ja"}))
    assert ja[1]["mfaMethod"]["label"] == "認証アプリ"
    assert en[1]["mfaMethod"]["label"] == "Authenticator app"


async def test_backup_codes_generate_once_and_replace(
    client: httpx.AsyncClient, admin_headers: dict[str, str], state: SandboxState
) -> None:
    summary = ok(await client.get(f"{S}/mfa/backup-codes", headers=admin_headers))
    assert summary == {"remainingCount": 8, "totalGenerated": 10}
    first = ok(await client.post(f"{S}/mfa/backup-codes/generate", headers=admin_headers))
    codes = first["codes"]
    assert len(codes) == 10 == len(set(codes))
    assert first["remainingCount"] == 10 and first["totalGenerated"] == 10
    # only hashes are stored
    stored = {r[0] for r in state.db.query("SELECT code_hash FROM mfa_backup_codes")}
    assert not any(code in stored for code in codes)
    assert sha256_hex(codes[0].replace("-", "")) in stored
    second = ok(await client.post(f"{S}/mfa/backup-codes/generate", headers=admin_headers))
    assert not set(second["codes"]) & set(codes)
    assert sha256_hex(codes[0].replace("-", "")) not in {
        r[0] for r in state.db.query("SELECT code_hash FROM mfa_backup_codes")
    }
    summary = ok(await client.get(f"{S}/mfa/backup-codes", headers=admin_headers))
    assert summary == {"remainingCount": 10, "totalGenerated": 10}
    assert "codes" not in summary


async def test_otp_revoke(client: httpx.AsyncClient, admin_headers: dict[str, str]) -> None:
    after = ok(await client.post(f"{S}/mfa/otp/revoke", headers=admin_headers))
    by_code = {s["mfaMethod"]["code"]: s for s in after}
    assert by_code["OTP"]["isEnabled"] is False and by_code["OTP"]["verifiedAt"] is None
    assert by_code["EMAIL"]["isEnabled"] is True and by_code["EMAIL"]["isPrimary"] is True
    again = ok(await client.post(f"{S}/mfa/otp/revoke", json={}, headers=admin_headers))
    assert again == after  # idempotent
    assert ok(await client.get(f"{S}/mfa", headers=admin_headers)) == after


async def test_sessions_mark_the_current_one(
    client: httpx.AsyncClient, admin_headers: dict[str, str]
) -> None:
    sessions = ok(await client.get(f"{S}/sessions", headers=admin_headers))
    assert len(sessions) >= 2
    assert [s["isCurrent"] for s in sessions].count(True) == 1
    assert sessions[0]["isCurrent"] is True
    for session in sessions:
        assert set(session) == {
            "sessionId",
            "clientIp",
            "userAgent",
            "loginTime",
            "lastActivityTime",
            "isCurrent",
        }


async def test_sessions_config(client: httpx.AsyncClient, admin_headers: dict[str, str]) -> None:
    config = ok(await client.get(f"{S}/sessions/config", headers=admin_headers))
    assert config["maxSessions"] == 3
    assert config["ssoEnabled"] is False
    assert config["accountBizId"].startswith("ACC")
    assert set(config) == {
        "accountBizId",
        "ssoEnabled",
        "maxSessions",
        "passwordChangedAt",
        "lastLoginAt",
        "lastLoginIp",
    }


async def test_login_history_pages_and_filters(
    client: httpx.AsyncClient, admin_headers: dict[str, str]
) -> None:
    first = ok(await client.get(f"{S}/sessions/history", headers=admin_headers))
    pagination = first["pagination"]
    assert pagination["pageSize"] == 20 and pagination["currentPage"] == 1
    assert pagination["totalRecords"] >= 40 and pagination["hasNext"] is True
    assert pagination["paginated"] is True and pagination["empty"] is False
    times = [i["loginTime"] for i in first["items"]]
    assert times == sorted(times, reverse=True)
    second = ok(await client.get(f"{S}/sessions/history?page=2", headers=admin_headers))
    assert second["pagination"]["currentPage"] == 2
    assert not {i["bizId"] for i in second["items"]} & {i["bizId"] for i in first["items"]}
    failures = ok(
        await client.get(f"{S}/sessions/history?result=2&size=100", headers=admin_headers)
    )
    assert failures["items"] and all(i["loginResult"] == 2 for i in failures["items"])
    assert all(i["failureReason"] for i in failures["items"])
    same = ok(
        await client.get(f"{S}/sessions/history?result=FAILURE&size=100", headers=admin_headers)
    )
    assert same["pagination"]["totalRecords"] == failures["pagination"]["totalRecords"]
    capped = ok(await client.get(f"{S}/sessions/history?size=1000", headers=admin_headers))
    assert capped["pagination"]["pageSize"] == 100
    window = ok(
        await client.get(
            f"{S}/sessions/history",
            params={"from": times[5], "to": times[1]},
            headers=admin_headers,
        )
    )
    assert [i["loginTime"] for i in window["items"]] == times[1:6]
    beyond = ok(await client.get(f"{S}/sessions/history?page=99", headers=admin_headers))
    assert beyond["items"] == [] and beyond["pagination"]["empty"] is True
    oldest = ok(await client.get(f"{S}/sessions/history?sort=loginTime,asc", headers=admin_headers))
    assert oldest["items"][0]["loginTime"] < times[0]


@pytest.mark.parametrize(
    "query",
    [
        "page=-1",
        "size=-5",
        "size=0",
        "page=abc",
        "result=7",
        "result=maybe",
        "from=yesterday",
        "to=2026-13-45",
        "sort=password,asc",
        "sort=loginTime,sideways",
    ],
)
async def test_login_history_rejects_bad_query(
    client: httpx.AsyncClient, admin_headers: dict[str, str], query: str
) -> None:
    err(
        await client.get(f"{S}/sessions/history?{query}", headers=admin_headers),
        400,
        "VALIDATION.INVALID_PARAMETER",
    )
