"""The auditor: read permissions only (contract "Seeded demo data"; spec 5.5)."""

from __future__ import annotations

from typing import Any

import pytest

from ._support import AUDITOR_EMAIL, SYS, Api, error, ok

pytestmark = pytest.mark.http

DENIED = "ACCESS.PERMISSION_DENIED"


def _some_account(api: Api, token: str) -> dict[str, Any]:
    data = ok(api.post(f"{SYS}/accounts/admin/query", {"page": 0, "size": 20}, token=token))
    return next(a for a in data["accounts"] if a["accountEmail"] != AUDITOR_EMAIL)


@pytest.mark.parametrize(
    "path", ["roles", "invitations", "profile", "profile/invitations", "security/mfa"]
)
def test_auditor_reads(api: Api, auditor_token: str, path: str) -> None:
    ok(api.get(f"{SYS}/{path}", token=auditor_token))


def test_auditor_reads_notifications(api: Api, auditor_token: str) -> None:
    ok(api.post(f"{SYS}/notifications/channel-types/query", {}, token=auditor_token))
    ok(api.post(f"{SYS}/notifications/channels/query", {}, token=auditor_token))


def test_auditor_cannot_change_status(api: Api, auditor_token: str) -> None:
    target = _some_account(api, auditor_token)
    resp = api.post(
        f"{SYS}/accounts/admin/status",
        {"userBizId": target["bizId"], "action": "SUSPEND"},
        token=auditor_token,
    )
    error(resp, 403, DENIED)


def test_auditor_cannot_update(api: Api, auditor_token: str) -> None:
    target = _some_account(api, auditor_token)
    resp = api.post(
        f"{SYS}/accounts/admin/update",
        {"userBizId": target["bizId"], "accountName": "Auditor Was Here"},
        token=auditor_token,
    )
    error(resp, 403, DENIED)


def test_auditor_cannot_reset_passwords(api: Api, auditor_token: str) -> None:
    target = _some_account(api, auditor_token)
    resp = api.post(
        f"{SYS}/accounts/admin/password/reset", {"userBizId": target["bizId"]}, token=auditor_token
    )
    error(resp, 403, DENIED)


def test_auditor_cannot_delete_roles(api: Api, auditor_token: str) -> None:
    roles = ok(api.get(f"{SYS}/roles", token=auditor_token))
    custom = next(r for r in roles if r["roleType"]["code"] == "CUSTOM")
    resp = api.post(
        f"{SYS}/roles/delete",
        {"workspaceId": custom["workspaceBizId"], "roleId": custom["bizId"]},
        token=auditor_token,
    )
    error(resp, 403, DENIED)


def test_auditor_cannot_create_portals(api: Api, auditor_token: str) -> None:
    resp = api.post(
        f"{SYS}/institutions/portals",
        {"portalType": 10010102, "domain": "auditor.example.test"},
        token=auditor_token,
    )
    error(resp, 403, DENIED)


def test_auditor_cannot_invite(api: Api, auditor_token: str) -> None:
    resp = api.post(
        f"{SYS}/invitations",
        {"inviteeEmail": "from-auditor@example.test", "message": "m", "expirationDays": 3},
        token=auditor_token,
    )
    error(resp, 403, DENIED)


def test_auditor_cannot_cancel_invitations(api: Api, auditor_token: str, admin_token: str) -> None:
    listed = ok(api.get(f"{SYS}/invitations", token=admin_token))
    biz_id = listed[0]["bizId"] if listed else "no-such-invitation"
    resp = api.post(
        f"{SYS}/invitations/cancel", {"invitationBizId": biz_id, "reason": "x"}, token=auditor_token
    )
    error(resp, 403, DENIED)


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("notifications/channel-types/create", {"typeCode": "X", "typeName": "X"}),
        ("notifications/channels/create", {"channelName": "X"}),
        ("notifications/channel-types/disable", {"bizId": "x"}),
        ("notifications/channels/delete", {"bizId": "x"}),
    ],
)
def test_auditor_cannot_write_notifications(
    api: Api, auditor_token: str, path: str, body: dict[str, Any]
) -> None:
    error(api.post(f"{SYS}/{path}", body, token=auditor_token), 403, DENIED)
