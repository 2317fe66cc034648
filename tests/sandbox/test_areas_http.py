"""The S2 areas over loopback HTTP against the real ``portal-sandbox serve``."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.http

SYS = "/web/v1/system"


def ok(response: httpx.Response) -> Any:
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["success"] is True and body["code"] == "2000", body
    return body["data"]


async def sign_in(client: httpx.AsyncClient, email: str, password: str) -> dict[str, str]:
    """The Authorization header after the whole EMAIL sign-in flow."""
    start = ok(
        await client.post(f"{SYS}/auth/login/initiate", json={"email": email, "password": password})
    )
    session = start["sessionId"]
    ok(
        await client.post(
            f"{SYS}/auth/login/mfa/send", json={"sessionId": session, "method": 10011001}
        )
    )
    mail = ok(await client.get("/sandbox/mailbox", params={"to": email}))
    code = next(m["code"] for m in mail if m["code"])
    done = ok(
        await client.post(
            f"{SYS}/auth/login/complete",
            json={"sessionId": session, "method": 10011001, "code": code},
        )
    )
    return {"Authorization": f"Bearer {done['accessToken']}"}


async def test_areas_over_http(http_client: httpx.AsyncClient) -> None:
    admin = await sign_in(http_client, "admin@sandbox.test", "Sandbox-Admin-2026!")
    auditor = await sign_in(http_client, "auditor@sandbox.test", "Sandbox-Audit-2026!")
    # constants, public and localized
    zh = ok(
        await http_client.get(
            f"{SYS}/constants/notification-channel-statuses", headers={"Accept-Language": "zh"}
        )
    )
    assert [i["label"] for i in zh] == ["已激活", "未激活"]
    # security
    sessions = ok(await http_client.get(f"{SYS}/security/sessions", headers=admin))
    assert sum(s["isCurrent"] for s in sessions) == 1
    history = ok(await http_client.get(f"{SYS}/security/sessions/history", headers=admin))
    assert history["pagination"]["pageSize"] == 20
    # invitations
    email = f"http-{uuid.uuid4().hex[:8]}@example.org"
    created = ok(
        await http_client.post(f"{SYS}/invitations", json={"inviteeEmail": email}, headers=admin)
    )
    assert created["invitationStatus"]["code"] == "PENDING"
    denied = await http_client.post(
        f"{SYS}/invitations/cancel", json={"invitationBizId": created["bizId"]}, headers=auditor
    )
    assert denied.status_code == 403 and denied.json()["code"] == "ACCESS.PERMISSION_DENIED"
    # roles
    roles = ok(await http_client.get(f"{SYS}/roles", headers=admin))
    owner = next(r for r in roles if r["roleType"]["code"] == "OWNER")
    protected = await http_client.post(
        f"{SYS}/roles/delete", json={"roleId": owner["bizId"]}, headers=admin
    )
    assert (
        protected.status_code == 409
        and protected.json()["code"] == "WORKSPACE.OWNER_ROLE_PROTECTED"
    )
    # portals
    portal = ok(
        await http_client.post(
            f"{SYS}/institutions/portals",
            json={"portalType": 10010102, "domain": f"{uuid.uuid4().hex}.example.com"},
            headers=admin,
        )
    )
    assert portal["portalStatus"] == 10080101
    too_long = await http_client.post(
        f"{SYS}/institutions/portals",
        json={"portalType": 10010102, "domain": "d" * 256},
        headers=admin,
    )
    assert too_long.status_code == 400 and too_long.json()["code"] == "4000"
    # notifications
    types = ok(
        await http_client.post(f"{SYS}/notifications/channel-types/query", json={}, headers=auditor)
    )
    assert types["pagination"]["totalRecords"] >= 4
    empty = await http_client.post(f"{SYS}/notifications/channels/create", headers=admin)
    assert empty.status_code == 400 and empty.json()["code"] == "VALIDATION.INVALID_PARAMETER"
    channels = ok(
        await http_client.post(
            f"{SYS}/notifications/channels/query", json={"channelCategory": "EMAIL"}, headers=admin
        )
    )
    assert all(c["config"].get("password") in (None, "", "********") for c in channels["items"])
