"""Roles and institution portals (spec 4.8; contract on roles/delete and portals)."""

from __future__ import annotations

from typing import Any

import pytest

from ._support import (
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    SYS,
    Api,
    error,
    is_enum_item,
    login,
    ok,
    parse_iso,
)
from .conftest import StartSandbox

pytestmark = pytest.mark.http

DELETE = f"{SYS}/roles/delete"
PORTALS = f"{SYS}/institutions/portals"
ROLE_FIELDS = {
    "bizId",
    "workspaceBizId",
    "roleName",
    "roleType",
    "description",
    "permissionCodes",
    "createdAt",
    "updatedAt",
}
TENANT_FOR_CREATION = 10010102


def _roles(api: Api, token: str) -> list[dict[str, Any]]:
    data = ok(api.get(f"{SYS}/roles", token=token))
    assert isinstance(data, list)
    return data


def _owner(roles: list[dict[str, Any]]) -> dict[str, Any]:
    owners = [r for r in roles if r["roleType"]["code"] == "OWNER"]
    assert owners, "no OWNER role listed"
    return owners[0]


def test_roles_list(api: Api, admin_token: str) -> None:
    roles = _roles(api, admin_token)
    assert len(roles) >= 4, "OWNER, the auditor's role, a role with members, one without"
    for role in roles:
        missing = ROLE_FIELDS - role.keys()
        assert not missing, f"Role lacks {sorted(missing)}: {role}"
        is_enum_item(role["roleType"])
        assert role["roleType"]["value"] in (10010901, 10010902)
        assert (
            role["roleType"]["value"]
            == {"OWNER": 10010901, "CUSTOM": 10010902}[role["roleType"]["code"]]
        )
        assert isinstance(role["permissionCodes"], list)
        parse_iso(role["createdAt"])
        parse_iso(role["updatedAt"])
    assert sum(r["roleType"]["code"] == "OWNER" for r in roles) >= 1
    assert sum(r["roleType"]["code"] == "CUSTOM" for r in roles) >= 3


def test_role_by_id(api: Api, admin_token: str) -> None:
    for role in _roles(api, admin_token):
        assert ok(api.get(f"{SYS}/roles/{role['bizId']}", token=admin_token)) == role


def test_unknown_role(api: Api, admin_token: str) -> None:
    error(
        api.get(f"{SYS}/roles/no-such-role-000", token=admin_token),
        404,
        {"RESOURCE.NOT_FOUND", "4040"},
    )


def test_roles_without_token(api: Api) -> None:
    error(api.get(f"{SYS}/roles"), 401, "ACCESS.TOKEN_MISSING")


def test_delete_owner_role_is_protected(api: Api, admin_token: str) -> None:
    owner = _owner(_roles(api, admin_token))
    body = {"workspaceId": owner["workspaceBizId"], "roleId": owner["bizId"]}
    error(api.post(DELETE, body, token=admin_token), 409, "WORKSPACE.OWNER_ROLE_PROTECTED")


def test_delete_owner_role_by_query_params(api: Api, admin_token: str) -> None:
    owner = _owner(_roles(api, admin_token))
    params = {"workspaceId": owner["workspaceBizId"], "roleId": owner["bizId"]}
    resp = api.request("POST", DELETE, params=params, token=admin_token)
    error(resp, 409, "WORKSPACE.OWNER_ROLE_PROTECTED")


def _try_delete_customs(
    api: Api, token: str, use_query: bool
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Delete every CUSTOM role; (deleted, refused as in use)."""
    deleted, in_use = [], []
    for role in _roles(api, token):
        if role["roleType"]["code"] != "CUSTOM":
            continue
        ids = {"workspaceId": role["workspaceBizId"], "roleId": role["bizId"]}
        if use_query:
            resp = api.request("POST", DELETE, params=ids, token=token)
        else:
            resp = api.post(DELETE, ids, token=token)
        if resp.status_code == 200:
            assert ok(resp) is None
            deleted.append(role)
        else:
            error(resp, 409, "WORKSPACE.ROLE_IN_USE")
            in_use.append(role)
    return deleted, in_use


@pytest.mark.parametrize("use_query", [False, True], ids=["body", "query-params"])
def test_delete_custom_roles(start_sandbox: StartSandbox, use_query: bool) -> None:
    server = start_sandbox()
    api = server.api()
    try:
        token = login(api, ADMIN_EMAIL, ADMIN_PASSWORD).access
        deleted, in_use = _try_delete_customs(api, token, use_query)
        assert deleted, "the seeded custom role without members could not be deleted"
        assert len(in_use) >= 2, "the auditor's role and the role with members must be in use"
        remaining = {r["bizId"] for r in _roles(api, token)}
        for role in deleted:
            assert role["bizId"] not in remaining, "a deleted role is still listed"
            error(
                api.get(f"{SYS}/roles/{role['bizId']}", token=token),
                404,
                {"RESOURCE.NOT_FOUND", "4040"},
            )
        for role in in_use:
            assert role["bizId"] in remaining
    finally:
        api.close()


@pytest.mark.parametrize(
    "body", [{}, {"workspaceId": "w"}, {"roleId": 5}], ids=["empty", "no-role", "number"]
)
def test_delete_invalid_body(api: Api, admin_token: str, body: dict[str, Any]) -> None:
    error(api.post(DELETE, body, token=admin_token), 400, {"VALIDATION.INVALID_PARAMETER", "4000"})


def test_delete_unknown_role(api: Api, admin_token: str) -> None:
    owner = _owner(_roles(api, admin_token))
    resp = api.post(
        DELETE,
        {"workspaceId": owner["workspaceBizId"], "roleId": "no-such-role"},
        token=admin_token,
    )
    error(resp, None, None)


def test_delete_without_token(api: Api) -> None:
    error(api.post(DELETE, {"workspaceId": "w", "roleId": "r"}), 401, None)


def test_delete_invalid_token(api: Api) -> None:
    error(api.post(DELETE, {"workspaceId": "w", "roleId": "r"}, token="bad.token.x"), 401, "4010")


# -- portals ----------------------------------------------------------------------------------


def _admin_account(api: Api, token: str) -> dict[str, Any]:
    data = ok(
        api.post(
            f"{SYS}/accounts/admin/query",
            {"email": ADMIN_EMAIL, "page": 0, "size": 20},
            token=token,
        )
    )
    return next(a for a in data["accounts"] if a["accountEmail"] == ADMIN_EMAIL)


def check_portal(portal: dict[str, Any]) -> None:
    fields = {
        "id",
        "institutionBizId",
        "portalType",
        "domain",
        "portalStatus",
        "remark",
        "createdAt",
        "updatedAt",
    }
    missing = fields - portal.keys()
    assert not missing, f"Portal lacks {sorted(missing)}: {portal}"
    assert isinstance(portal["id"], int) and not isinstance(portal["id"], bool)
    assert isinstance(portal["institutionBizId"], str)
    assert isinstance(portal["portalType"], int)
    assert isinstance(portal["portalStatus"], int)
    parse_iso(portal["createdAt"])
    parse_iso(portal["updatedAt"])


def test_create_portal_without_institution(api: Api, admin_token: str) -> None:
    data = ok(
        api.post(
            PORTALS,
            {"portalType": TENANT_FOR_CREATION, "domain": "tenant-a.example.test", "remark": "A"},
            token=admin_token,
        )
    )
    check_portal(data)
    assert data["portalStatus"] == 10080101
    assert data["portalType"] == TENANT_FOR_CREATION
    assert data["domain"] == "tenant-a.example.test"
    assert data["remark"] == "A"
    assert data["institutionBizId"] == _admin_account(api, admin_token)["institutionBizId"]


def test_create_portal_with_institution(api: Api, admin_token: str) -> None:
    institution = _admin_account(api, admin_token)["institutionBizId"]
    data = ok(
        api.post(
            PORTALS,
            {
                "institutionBizId": institution,
                "portalType": TENANT_FOR_CREATION,
                "domain": "tenant-b.example.test",
            },
            token=admin_token,
        )
    )
    check_portal(data)
    assert data["institutionBizId"] == institution
    assert data["remark"] is None


def test_portal_limits_255(api: Api, admin_token: str) -> None:
    domain = "d" * 242 + ".example.test"
    assert len(domain) == 255
    data = ok(
        api.post(
            PORTALS,
            {"portalType": TENANT_FOR_CREATION, "domain": domain, "remark": "r" * 255},
            token=admin_token,
        )
    )
    assert data["domain"] == domain
    assert data["remark"] == "r" * 255


@pytest.mark.parametrize(
    "body",
    [
        {"portalType": TENANT_FOR_CREATION, "domain": "d" * 256},
        {"portalType": TENANT_FOR_CREATION, "domain": "ok.example.test", "remark": "r" * 256},
        {"portalType": TENANT_FOR_CREATION, "domain": "x" * 100_000},
    ],
    ids=["domain-256", "remark-256", "domain-100k"],
)
def test_portal_over_255(api: Api, admin_token: str, body: dict[str, Any]) -> None:
    error(api.post(PORTALS, body, token=admin_token), 400, {"4000", "VALIDATION.INVALID_PARAMETER"})


@pytest.mark.parametrize(
    "body",
    [
        {"domain": "no-type.example.test"},
        {"portalType": TENANT_FOR_CREATION},
        {},
        {"portalType": None, "domain": "null-type.example.test"},
        {"portalType": TENANT_FOR_CREATION, "domain": None},
    ],
    ids=["no-type", "no-domain", "empty", "null-type", "null-domain"],
)
def test_portal_missing_fields_is_4000(api: Api, admin_token: str, body: dict[str, Any]) -> None:
    error(api.post(PORTALS, body, token=admin_token), None, "4000")


@pytest.mark.parametrize(
    "body",
    [
        {"portalType": "tenant", "domain": "t.example.test"},
        {"portalType": TENANT_FOR_CREATION, "domain": ["a"]},
    ],
    ids=["type-string", "domain-array"],
)
def test_portal_wrong_types(api: Api, admin_token: str, body: dict[str, Any]) -> None:
    error(
        api.post(PORTALS, body, token=admin_token), None, {"4000", "VALIDATION.INVALID_PARAMETER"}
    )


def test_portal_unknown_institution_is_4040(api: Api, admin_token: str) -> None:
    resp = api.post(
        PORTALS,
        {
            "institutionBizId": "no-such-institution",
            "portalType": TENANT_FOR_CREATION,
            "domain": "nowhere.example.test",
        },
        token=admin_token,
    )
    error(resp, 404, "4040")


def test_portal_invalid_token_is_4010(api: Api) -> None:
    resp = api.post(
        PORTALS, {"portalType": TENANT_FOR_CREATION, "domain": "x.example.test"}, token="bad.tok.en"
    )
    error(resp, 401, "4010")


def test_portal_without_token(api: Api) -> None:
    resp = api.post(PORTALS, {"portalType": TENANT_FOR_CREATION, "domain": "x.example.test"})
    error(resp, 401, {"4010", "ACCESS.TOKEN_MISSING"})
