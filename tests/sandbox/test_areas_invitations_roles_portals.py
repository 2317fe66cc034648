"""The invitations, roles and portals areas."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from portal_admin.sandbox.state import SandboxState
from portal_admin.sandbox.tokens import sign_in

SYS = "/web/v1/system"
INV = f"{SYS}/invitations"
PORTALS = f"{SYS}/institutions/portals"


def ok(response: httpx.Response) -> Any:
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["success"] is True and body["code"] == "2000", body
    return body["data"]


def err(response: httpx.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["success"] is False and body["code"] == code and body["data"] is None, body
    assert "Traceback" not in response.text


INVITATION_FIELDS = {
    "bizId",
    "workspaceBizId",
    "workspaceName",
    "inviterBizId",
    "inviterName",
    "inviteeEmail",
    "inviteeAccountBizId",
    "inviteeAccountName",
    "invitationStatus",
    "message",
    "expiresAt",
    "acceptedAt",
    "createdAt",
    "canAccept",
}


# -- invitations ---------------------------------------------------------------------------


async def test_workspace_invitations_cover_every_status(
    client: httpx.AsyncClient, admin_headers: dict[str, str]
) -> None:
    items = ok(await client.get(INV, headers=admin_headers))
    statuses = {i["invitationStatus"]["code"] for i in items}
    assert statuses == {"PENDING", "ACCEPTED", "DECLINED", "EXPIRED", "CANCELLED"}
    for item in items:
        assert set(item) >= INVITATION_FIELDS
        assert item["canAccept"] is (item["invitationStatus"]["code"] == "PENDING")
    created = [i["createdAt"] for i in items]
    assert created == sorted(created, reverse=True)


async def test_invitation_labels_follow_accept_language(
    client: httpx.AsyncClient, admin_headers: dict[str, str]
) -> None:
    zh = ok(await client.get(INV, headers={**admin_headers, "Accept-Language": "zh-CN"}))
    vi = ok(await client.get(INV, headers={**admin_headers, "Accept-Language": "vi"}))
    pending_zh = next(i for i in zh if i["invitationStatus"]["code"] == "PENDING")
    pending_vi = next(i for i in vi if i["invitationStatus"]["code"] == "PENDING")
    assert pending_zh["invitationStatus"]["label"] == "待处理"
    assert pending_vi["invitationStatus"]["label"] == "Đang chờ"
    assert pending_zh["invitationStatus"]["value"] == 10050301


async def test_create_and_cancel_invitation(
    client: httpx.AsyncClient, admin_headers: dict[str, str]
) -> None:
    body = {"inviteeEmail": "new.person@example.org", "message": "Hi!", "expirationDays": 3}
    created = ok(await client.post(INV, json=body, headers=admin_headers))
    assert set(created) >= INVITATION_FIELDS
    assert created["invitationStatus"]["code"] == "PENDING"
    assert created["canAccept"] is True and created["message"] == "Hi!"
    assert created["inviteeAccountBizId"] is None
    mail = ok(await client.get("/sandbox/mailbox", params={"to": "new.person@example.org"}))
    assert mail and "Invitation" in mail[0]["subject"]
    # a second pending invitation to the same address is refused
    err(
        await client.post(INV, json=body, headers=admin_headers),
        400,
        "VALIDATION.INVALID_PARAMETER",
    )
    cancelled = ok(
        await client.post(
            f"{INV}/cancel",
            json={"invitationBizId": created["bizId"], "reason": "typo"},
            headers=admin_headers,
        )
    )
    assert cancelled["invitationStatus"]["code"] == "CANCELLED"
    assert cancelled["canAccept"] is False and cancelled["cancelReason"] == "typo"
    # cancelling twice: no longer pending
    err(
        await client.post(
            f"{INV}/cancel", json={"invitationBizId": created["bizId"]}, headers=admin_headers
        ),
        400,
        "VALIDATION.INVALID_PARAMETER",
    )


async def test_invitation_expires_with_the_clock(
    client: httpx.AsyncClient, admin_headers: dict[str, str], state: SandboxState
) -> None:
    body = {"inviteeEmail": "late@example.org", "expirationDays": 1}
    created = ok(await client.post(INV, json=body, headers=admin_headers))
    ok(await client.post("/sandbox/clock/advance", json={"seconds": 86_401}))
    admin = state.db.scalar("SELECT biz_id FROM accounts WHERE email_key = 'admin@sandbox.test'")
    fresh = {"Authorization": "Bearer " + sign_in(state, admin).access_token}
    items = ok(await client.get(INV, headers=fresh))
    mine = next(i for i in items if i["bizId"] == created["bizId"])
    assert mine["invitationStatus"]["code"] == "EXPIRED" and mine["canAccept"] is False


@pytest.mark.parametrize(
    "body",
    [
        None,
        {},
        {"inviteeEmail": "not-an-email"},
        {"inviteeEmail": "a@b"},
        {"inviteeEmail": 42},
        {"inviteeEmail": "x" * 300 + "@example.com"},
        {"inviteeEmail": "ok@example.com", "expirationDays": 0},
        {"inviteeEmail": "ok@example.com", "expirationDays": 31},
        {"inviteeEmail": "ok@example.com", "expirationDays": "soon"},
        {"inviteeEmail": "ok@example.com", "message": "m" * 501},
        {"inviteeEmail": "admin@sandbox.test"},  # already a member
        [1, 2, 3],
    ],
)
async def test_create_invitation_rejects_bad_input(
    client: httpx.AsyncClient, admin_headers: dict[str, str], body: Any
) -> None:
    err(
        await client.post(INV, json=body, headers=admin_headers),
        400,
        "VALIDATION.INVALID_PARAMETER",
    )


@pytest.mark.parametrize(
    "body", [None, {}, {"invitationBizId": "INV-NOPE"}, {"invitationBizId": 7}, {"reason": "x"}]
)
async def test_cancel_rejects_unknown_or_missing_ids(
    client: httpx.AsyncClient, admin_headers: dict[str, str], body: Any
) -> None:
    err(
        await client.post(f"{INV}/cancel", json=body, headers=admin_headers),
        400,
        "VALIDATION.INVALID_PARAMETER",
    )


async def test_auditor_reads_but_cannot_invite(
    client: httpx.AsyncClient, auditor_headers: dict[str, str]
) -> None:
    assert ok(await client.get(INV, headers=auditor_headers))
    err(
        await client.post(INV, json={"inviteeEmail": "a@example.com"}, headers=auditor_headers),
        403,
        "ACCESS.PERMISSION_DENIED",
    )
    err(
        await client.post(f"{INV}/cancel", json={"invitationBizId": "x"}, headers=auditor_headers),
        403,
        "ACCESS.PERMISSION_DENIED",
    )
    err(await client.get(INV), 401, "ACCESS.TOKEN_MISSING")


async def test_own_invitations_and_status_filter(
    client: httpx.AsyncClient, admin_headers: dict[str, str]
) -> None:
    everything = ok(await client.get(f"{SYS}/profile/invitations", headers=admin_headers))
    assert {i["invitationStatus"]["code"] for i in everything} == {
        "PENDING",
        "ACCEPTED",
        "DECLINED",
        "EXPIRED",
        "CANCELLED",
    }
    assert all(i["inviteeEmail"] == "admin@sandbox.test" for i in everything)
    assert all(i["inviteeAccountBizId"] for i in everything)
    for item in everything:
        assert item["canAccept"] is (item["invitationStatus"]["code"] == "PENDING")
    repeated = ok(
        await client.get(
            f"{SYS}/profile/invitations?statuses=10050301&statuses=10050304", headers=admin_headers
        )
    )
    commas = ok(
        await client.get(
            f"{SYS}/profile/invitations?statuses=10050301,10050304", headers=admin_headers
        )
    )
    assert repeated == commas
    assert {i["invitationStatus"]["code"] for i in commas} == {"PENDING", "EXPIRED"}


async def test_own_invitations_errors(
    client: httpx.AsyncClient, admin_headers: dict[str, str]
) -> None:
    err(
        await client.get(f"{SYS}/profile/invitations", headers={"Authorization": "Bearer junk"}),
        401,
        "4010",
    )
    err(await client.get(f"{SYS}/profile/invitations"), 401, "ACCESS.TOKEN_MISSING")
    err(
        await client.get(f"{SYS}/profile/invitations?statuses=123", headers=admin_headers),
        400,
        "VALIDATION.INVALID_PARAMETER",
    )


# -- roles ---------------------------------------------------------------------------------


async def _roles(client: httpx.AsyncClient, headers: dict[str, str]) -> dict[str, Any]:
    return {r["roleName"]: r for r in ok(await client.get(f"{SYS}/roles", headers=headers))}


async def test_list_and_get_roles(client: httpx.AsyncClient, admin_headers: dict[str, str]) -> None:
    roles = await _roles(client, admin_headers)
    assert {"Owner", "Auditor", "Support", "Reporting"} <= set(roles)
    owner = roles["Owner"]
    assert owner["roleType"] == {
        "code": "OWNER",
        "value": 10010901,
        "label": "Owner",
        "description": owner["roleType"]["description"],
    }
    assert roles["Support"]["roleType"]["value"] == 10010902
    for field in ("bizId", "workspaceBizId", "description", "permissionCodes", "createdAt"):
        assert field in owner
    one = ok(await client.get(f"{SYS}/roles/{owner['bizId']}", headers=admin_headers))
    assert one == owner
    ja = ok(
        await client.get(
            f"{SYS}/roles/{owner['bizId']}", headers={**admin_headers, "Accept-Language": "ja"}
        )
    )
    assert ja["roleType"]["label"] == "オーナー"
    err(await client.get(f"{SYS}/roles/ROLNOPE", headers=admin_headers), 404, "RESOURCE.NOT_FOUND")


async def test_delete_role_rules(
    client: httpx.AsyncClient, admin_headers: dict[str, str], state: SandboxState
) -> None:
    roles = await _roles(client, admin_headers)
    workspace = roles["Owner"]["workspaceBizId"]
    delete = f"{SYS}/roles/delete"

    async def attempt(role: str) -> httpx.Response:
        body = {"workspaceId": workspace, "roleId": roles[role]["bizId"]}
        return await client.post(delete, json=body, headers=admin_headers)

    err(await attempt("Owner"), 409, "WORKSPACE.OWNER_ROLE_PROTECTED")
    err(await attempt("Support"), 409, "WORKSPACE.ROLE_IN_USE")
    assert ok(await attempt("Reporting")) is None
    assert "Reporting" not in await _roles(client, admin_headers)
    err(
        await client.get(f"{SYS}/roles/{roles['Reporting']['bizId']}", headers=admin_headers),
        404,
        "RESOURCE.NOT_FOUND",
    )
    err(await attempt("Reporting"), 404, "RESOURCE.NOT_FOUND")


async def test_delete_role_by_query_parameters(
    client: httpx.AsyncClient, admin_headers: dict[str, str]
) -> None:
    roles = await _roles(client, admin_headers)
    role = roles["Reporting"]
    params = {"workspaceId": role["workspaceBizId"], "roleId": role["bizId"]}
    assert (
        ok(await client.post(f"{SYS}/roles/delete", params=params, headers=admin_headers)) is None
    )


@pytest.mark.parametrize("body", [None, {}, {"roleId": 5}, {"workspaceId": "WSP"}])
async def test_delete_role_bad_input(
    client: httpx.AsyncClient, admin_headers: dict[str, str], body: Any
) -> None:
    err(
        await client.post(f"{SYS}/roles/delete", json=body, headers=admin_headers),
        400,
        "VALIDATION.INVALID_PARAMETER",
    )


async def test_delete_role_permissions_and_tokens(
    client: httpx.AsyncClient, admin_headers: dict[str, str], auditor_headers: dict[str, str]
) -> None:
    roles = await _roles(client, admin_headers)
    body = {"roleId": roles["Reporting"]["bizId"]}
    err(
        await client.post(f"{SYS}/roles/delete", json=body, headers=auditor_headers),
        403,
        "ACCESS.PERMISSION_DENIED",
    )
    err(
        await client.post(f"{SYS}/roles/delete", json=body, headers={"Authorization": "Bearer x"}),
        401,
        "4010",
    )
    assert await _roles(client, auditor_headers)  # the auditor may read


# -- portals -------------------------------------------------------------------------------


async def test_create_portal(client: httpx.AsyncClient, admin_headers: dict[str, str]) -> None:
    for portal_type in (10010101, 10010102, 35010201, 35010202, 10010103, 10010104):
        body = {"portalType": portal_type, "domain": f"p{portal_type}.example.com"}
        portal = ok(await client.post(PORTALS, json=body, headers=admin_headers))
        assert portal["portalType"] == portal_type
        assert portal["portalStatus"] == 10080101
        assert portal["remark"] is None
        assert isinstance(portal["id"], int)
        assert set(portal) == {
            "id",
            "institutionBizId",
            "portalType",
            "domain",
            "portalStatus",
            "remark",
            "createdAt",
            "updatedAt",
        }
    longest = {"portalType": 10010102, "domain": "d" * 255, "remark": "r" * 255}
    assert (
        ok(await client.post(PORTALS, json=longest, headers=admin_headers))["domain"] == "d" * 255
    )


@pytest.mark.parametrize(
    "body",
    [
        None,
        {},
        {"domain": "x.example.com"},
        {"portalType": 10010102},
        {"portalType": 10010102, "domain": ""},
        {"portalType": 10010102, "domain": "d" * 256},
        {"portalType": 10010102, "domain": "x.example.com", "remark": "r" * 256},
        {"portalType": 99999999, "domain": "x.example.com"},
        {"portalType": True, "domain": "x.example.com"},
        {"portalType": "SYSTEM", "domain": "x.example.com"},
        {"portalType": 10010102, "domain": 12},
        {"portalType": 10010102, "domain": "a b.example.com"},
        "a string",
    ],
)
async def test_create_portal_validation_is_4000(
    client: httpx.AsyncClient, admin_headers: dict[str, str], body: Any
) -> None:
    err(await client.post(PORTALS, json=body, headers=admin_headers), 400, "4000")


async def test_create_portal_other_errors(
    client: httpx.AsyncClient, admin_headers: dict[str, str], auditor_headers: dict[str, str]
) -> None:
    body = {"portalType": 10010102, "domain": "x.example.com"}
    err(
        await client.post(
            PORTALS, json={**body, "institutionBizId": "INSNOPE"}, headers=admin_headers
        ),
        404,
        "4040",
    )
    err(await client.post(PORTALS, json=body, headers={"Authorization": "Bearer x"}), 401, "4010")
    err(await client.post(PORTALS, json=body), 401, "ACCESS.TOKEN_MISSING")
    err(
        await client.post(PORTALS, json=body, headers=auditor_headers),
        403,
        "ACCESS.PERMISSION_DENIED",
    )
    malformed = await client.post(
        PORTALS, content=b"{", headers={**admin_headers, "Content-Type": "application/json"}
    )
    err(malformed, 400, "4000")


async def test_portals_are_seeded_for_an_institution(
    client: httpx.AsyncClient, admin_headers: dict[str, str], state: SandboxState
) -> None:
    count = state.db.scalar("SELECT COUNT(*) FROM portals")
    assert count and count >= 4
    institution = state.db.scalar("SELECT biz_id FROM institutions ORDER BY rowid DESC LIMIT 1")
    body = {"portalType": 10010103, "domain": "x.example.com", "institutionBizId": institution}
    assert (
        ok(await client.post(PORTALS, json=body, headers=admin_headers))["institutionBizId"]
        == institution
    )
