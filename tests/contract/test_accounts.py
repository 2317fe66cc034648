"""Account administration (spec 4.4, 8; contract "Bodies the specification leaves open")."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from ._support import (
    ADMIN_EMAIL,
    AUDITOR_EMAIL,
    SYS,
    Api,
    error,
    is_enum_item,
    ok,
    parse_iso,
)

pytestmark = pytest.mark.http

QUERY = f"{SYS}/accounts/admin/query"
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


def check_account(account: dict[str, Any]) -> None:
    missing = ACCOUNT_FIELDS - account.keys()
    assert not missing, f"Account lacks {sorted(missing)}: {account}"
    for name in (
        "bizId",
        "institutionBizId",
        "accountEmail",
        "accountPhone",
        "accountName",
        "defaultLanguage",
        "defaultTimezone",
        "defaultCountry",
    ):
        assert isinstance(account[name], str), (name, account)
    assert account["accountRemark"] is None or isinstance(account["accountRemark"], str)
    is_enum_item(account["accountPortal"])
    is_enum_item(account["accountStatus"])
    for name in ("createdAt", "updatedAt"):
        stamp = parse_iso(account[name])
        assert stamp.utcoffset() is not None and stamp.utcoffset().total_seconds() == 0, (
            f"{name} is not a UTC timestamp: {account[name]}"
        )


def query(api: Api, token: str, body: dict[str, Any] | None = None, **params: Any) -> Any:
    return ok(api.post(QUERY, {"page": 0, "size": 20, **(body or {})}, token=token, params=params))


def find_account(api: Api, token: str, email: str) -> dict[str, Any]:
    data = query(api, token, {"email": email, "size": 100})
    for account in data["accounts"]:
        if account["accountEmail"] == email:
            return account
    raise AssertionError(f"account {email} not found: {data}")


def _status_values(api: Api) -> dict[str, int]:
    data = ok(api.get(f"{SYS}/constants/user-account-statuses"))
    return {item["code"]: item["value"] for item in data}


# -- query ------------------------------------------------------------------------------------


def test_query_default_shape(api: Api, admin_token: str) -> None:
    data = ok(api.post(QUERY, {}, token=admin_token))
    assert {"accounts", "totalElements", "totalPages", "currentPage", "pageSize"} <= set(data)
    assert data["pageSize"] == 20
    assert len(data["accounts"]) == 20
    assert data["totalElements"] >= 2004
    assert data["totalPages"] == -(-data["totalElements"] // 20)
    for account in data["accounts"]:
        check_account(account)


def test_query_with_nulls_uses_defaults(api: Api, admin_token: str) -> None:
    body = {
        "institutionBizId": None,
        "accountPortal": None,
        "accountStatus": None,
        "email": None,
        "name": None,
        "page": 0,
        "size": 20,
    }
    data = ok(api.post(QUERY, body, token=admin_token))
    assert len(data["accounts"]) == 20


def test_query_generated_accounts_have_distinct_emails(api: Api, admin_token: str) -> None:
    emails: list[str] = []
    for page in range(3):
        emails += [
            a["accountEmail"]
            for a in query(api, admin_token, {"page": page, "size": 100})["accounts"]
        ]
    assert len(emails) == 300
    assert len(set(emails)) == 300


def test_seeded_accounts_in_every_status(api: Api, admin_token: str) -> None:
    for code, value in _status_values(api).items():
        data = query(api, admin_token, {"accountStatus": value, "size": 5})
        assert data["totalElements"] >= 1, f"no seeded account in status {code}"
        for account in data["accounts"]:
            assert account["accountStatus"]["value"] == value


def test_seeded_names_in_several_scripts(api: Api, admin_token: str) -> None:
    accounts = query(api, admin_token, {"size": 100}, sort="accountName,desc")["accounts"]
    names = [a["accountName"] for a in accounts]
    assert any(not name.isascii() for name in names), "no names beyond ASCII"


def test_query_filter_email(api: Api, admin_token: str) -> None:
    data = query(api, admin_token, {"email": ADMIN_EMAIL})
    emails = [a["accountEmail"] for a in data["accounts"]]
    assert ADMIN_EMAIL in emails
    assert all(ADMIN_EMAIL in e.lower() for e in emails)


def test_query_filter_name(api: Api, admin_token: str) -> None:
    admin = find_account(api, admin_token, ADMIN_EMAIL)
    data = query(api, admin_token, {"name": admin["accountName"]})
    assert admin["bizId"] in {a["bizId"] for a in data["accounts"]}


def test_query_filter_institution_and_portal(api: Api, admin_token: str) -> None:
    admin = find_account(api, admin_token, ADMIN_EMAIL)
    data = query(api, admin_token, {"institutionBizId": admin["institutionBizId"], "size": 50})
    assert data["accounts"]
    assert all(a["institutionBizId"] == admin["institutionBizId"] for a in data["accounts"])
    portal = admin["accountPortal"]["value"]
    data = query(api, admin_token, {"accountPortal": portal, "size": 50})
    assert data["accounts"]
    assert all(a["accountPortal"]["value"] == portal for a in data["accounts"])


def test_page_size_capped_at_100(api: Api, admin_token: str) -> None:
    data = query(api, admin_token, {"size": 1000})
    assert data["pageSize"] == 100
    assert len(data["accounts"]) == 100


def test_page_size_101_capped(api: Api, admin_token: str) -> None:
    data = query(api, admin_token, {"size": 101})
    assert len(data["accounts"]) == 100


@pytest.mark.parametrize("body", [{"page": -1}, {"size": -1}, {"page": -5, "size": -5}])
def test_negative_page_or_size(api: Api, admin_token: str, body: dict[str, int]) -> None:
    error(api.post(QUERY, {"page": 0, "size": 20, **body}, token=admin_token), 400, INVALID)


def test_page_beyond_the_last_is_empty(api: Api, admin_token: str) -> None:
    data = query(api, admin_token, {"page": 100000, "size": 100})
    assert data["accounts"] == []
    assert data["totalElements"] >= 2004


def test_pages_do_not_overlap(api: Api, admin_token: str) -> None:
    first = query(api, admin_token, {"page": 0, "size": 10}, sort="accountEmail,asc")["accounts"]
    second = query(api, admin_token, {"page": 1, "size": 10}, sort="accountEmail,asc")["accounts"]
    assert {a["bizId"] for a in first}.isdisjoint({a["bizId"] for a in second})
    assert first[-1]["accountEmail"] <= second[0]["accountEmail"]


@pytest.mark.parametrize(
    "body",
    [{"page": "zero"}, {"size": "big"}, {"accountStatus": "ACTIVE"}, {"page": [0]}, {"email": 5}],
    ids=["page-string", "size-string", "status-string", "page-array", "email-number"],
)
def test_query_wrong_types(api: Api, admin_token: str, body: dict[str, Any]) -> None:
    error(api.post(QUERY, {"page": 0, "size": 20, **body}, token=admin_token), 400, INVALID)


def _sorted_ok(values: list[Any], reverse: bool) -> bool:
    return values == sorted(values, reverse=reverse)


def _text_sorted(values: list[str], reverse: bool) -> bool:
    return _sorted_ok(values, reverse) or _sorted_ok([v.casefold() for v in values], reverse)


@pytest.mark.parametrize("direction", ["asc", "desc"])
@pytest.mark.parametrize("field", ["accountEmail", "accountName", "createdAt", "updatedAt"])
def test_sort(api: Api, admin_token: str, field: str, direction: str) -> None:
    accounts = query(api, admin_token, {"size": 100}, sort=f"{field},{direction}")["accounts"]
    reverse = direction == "desc"
    if field in ("createdAt", "updatedAt"):
        stamps: list[datetime] = [parse_iso(a[field]) for a in accounts]
        assert _sorted_ok(stamps, reverse), [a[field] for a in accounts][:10]
    else:
        assert _text_sorted([a[field] for a in accounts], reverse), [a[field] for a in accounts][
            :10
        ]


def test_sort_direction_changes_order(api: Api, admin_token: str) -> None:
    asc = query(api, admin_token, {"size": 5}, sort="accountEmail,asc")["accounts"]
    desc = query(api, admin_token, {"size": 5}, sort="accountEmail,desc")["accounts"]
    assert asc[0]["accountEmail"] != desc[0]["accountEmail"]


def test_sort_is_repeatable(api: Api, admin_token: str) -> None:
    resp = api.post(
        QUERY,
        {"page": 0, "size": 100},
        token=admin_token,
        params=[("sort", "accountName,asc"), ("sort", "accountEmail,desc")],
    )
    accounts = ok(resp)["accounts"]
    names = [a["accountName"] for a in accounts]
    assert _text_sorted(names, False)


@pytest.mark.parametrize(
    "sort", ["password,asc", "noSuchField,desc", "passwordHash,asc", "accountEmail;drop table,asc"]
)
def test_unsortable_field(api: Api, admin_token: str, sort: str) -> None:
    resp = api.post(QUERY, {"page": 0, "size": 20}, token=admin_token, params={"sort": sort})
    error(resp, 400, INVALID)


def test_query_without_token(api: Api) -> None:
    error(api.post(QUERY, {"page": 0, "size": 20}), 401, "ACCESS.TOKEN_MISSING")


def test_query_with_invalid_token(api: Api) -> None:
    error(api.post(QUERY, {"page": 0, "size": 20}, token="not.a.token"), 401, "4010")


def test_auditor_may_query(api: Api, auditor_token: str) -> None:
    data = query(api, auditor_token)
    assert data["accounts"]


# -- single account ---------------------------------------------------------------------------


def test_get_account(api: Api, admin_token: str) -> None:
    admin = find_account(api, admin_token, ADMIN_EMAIL)
    ok(api.get(f"{SYS}/accounts/admin/{admin['bizId']}", token=admin_token))


def test_get_unknown_account(api: Api, admin_token: str) -> None:
    resp = api.get(f"{SYS}/accounts/admin/no-such-account-000", token=admin_token)
    error(resp, 404, "RESOURCE.NOT_FOUND")


def test_get_account_without_token(api: Api, admin_token: str) -> None:
    admin = find_account(api, admin_token, ADMIN_EMAIL)
    error(api.get(f"{SYS}/accounts/admin/{admin['bizId']}"), 401, "ACCESS.TOKEN_MISSING")


# -- status -----------------------------------------------------------------------------------


def _active_accounts(api: Api, token: str, count: int) -> list[dict[str, Any]]:
    active = _status_values(api)["ACTIVE"]
    data = query(api, token, {"accountStatus": active, "size": 100})
    picked = [a for a in data["accounts"] if not a["accountEmail"].endswith("@sandbox.test")]
    assert len(picked) >= count
    return picked[-count:]


def _change(api: Api, token: str, biz_id: str, action: str, **extra: Any) -> Any:
    return api.post(
        f"{SYS}/accounts/admin/status",
        {"userBizId": biz_id, "action": action, **extra},
        token=token,
    )


@pytest.fixture
def status_api(api: Api, admin_token: str) -> tuple[Api, str]:
    """Status and update tests change generated accounts only, on the shared server."""
    return api, admin_token


def test_status_suspend_and_activate(status_api: tuple[Api, str]) -> None:
    api, token = status_api
    account = _active_accounts(api, token, 1)[0]
    data = ok(_change(api, token, account["bizId"], "SUSPEND", reason="contract test"))
    assert set(data) >= {"userBizId", "email", "displayName", "status"}, data
    assert data["userBizId"] == account["bizId"]
    assert data["email"] == account["accountEmail"]
    assert isinstance(data["displayName"], str)
    assert isinstance(data["status"], str)
    suspended = find_account(api, token, account["accountEmail"])
    assert suspended["accountStatus"]["code"] != "ACTIVE"
    again = ok(_change(api, token, account["bizId"], "ACTIVATE"))
    assert again["userBizId"] == account["bizId"]
    assert again["status"] != data["status"]
    assert find_account(api, token, account["accountEmail"])["accountStatus"]["code"] == "ACTIVE"


def test_status_deactivate(status_api: tuple[Api, str]) -> None:
    api, token = status_api
    account = _active_accounts(api, token, 2)[0]
    data = ok(_change(api, token, account["bizId"], "DEACTIVATE"))
    assert data["userBizId"] == account["bizId"]
    assert isinstance(data["status"], str)
    assert find_account(api, token, account["accountEmail"])["accountStatus"]["code"] != "ACTIVE"


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"action": "SUSPEND"},
        {"userBizId": "", "action": "SUSPEND"},
        {"userBizId": "x", "action": "EXPLODE"},
        {"userBizId": "x", "action": 1},
        {"userBizId": "x"},
    ],
    ids=["empty", "no-user", "empty-user", "bad-action", "number-action", "no-action"],
)
def test_status_invalid_body(api: Api, admin_token: str, body: dict[str, Any]) -> None:
    if body.get("userBizId") == "x":
        body = {**body, "userBizId": find_account(api, admin_token, AUDITOR_EMAIL)["bizId"]}
    resp = api.post(f"{SYS}/accounts/admin/status", body, token=admin_token)
    error(resp, 400, INVALID)


def test_status_unknown_account(api: Api, admin_token: str) -> None:
    resp = _change(api, admin_token, "no-such-account-000", "SUSPEND")
    error(resp, None, {"RESOURCE.NOT_FOUND", INVALID})


def test_status_without_token(api: Api) -> None:
    error(_change(api, None, "whatever", "SUSPEND"), 401, "ACCESS.TOKEN_MISSING")  # type: ignore[arg-type]


# -- update -----------------------------------------------------------------------------------


def test_update_answers_the_updated_account(status_api: tuple[Api, str]) -> None:
    api, token = status_api
    account = _active_accounts(api, token, 3)[0]
    changes = {
        "accountName": "Zoë Contract-Test 試験",
        "accountPhone": "+15550001234",
        "accountRemark": "updated by the contract suite",
        "defaultLanguage": "ja",
        "defaultTimezone": "Asia/Tokyo",
        "defaultCountry": "JP",
    }
    data = ok(
        api.post(
            f"{SYS}/accounts/admin/update", {"userBizId": account["bizId"], **changes}, token=token
        )
    )
    check_account(data)
    assert data["bizId"] == account["bizId"]
    for name, value in changes.items():
        assert data[name] == value, (name, data)
    again = find_account(api, token, account["accountEmail"])
    for name, value in changes.items():
        assert again[name] == value, (name, again)
    assert parse_iso(again["updatedAt"]) >= parse_iso(account["updatedAt"])


def test_update_only_some_fields(status_api: tuple[Api, str]) -> None:
    api, token = status_api
    account = _active_accounts(api, token, 4)[0]
    data = ok(
        api.post(
            f"{SYS}/accounts/admin/update",
            {"userBizId": account["bizId"], "accountRemark": "only the remark"},
            token=token,
        )
    )
    assert data["accountRemark"] == "only the remark"
    assert data["accountName"] == account["accountName"]
    assert data["accountEmail"] == account["accountEmail"]


@pytest.mark.parametrize(
    "body",
    [{}, {"userBizId": ""}, {"userBizId": None}, {"userBizId": 12}],
    ids=["empty", "empty-id", "null-id", "number-id"],
)
def test_update_without_user(api: Api, admin_token: str, body: dict[str, Any]) -> None:
    resp = api.post(f"{SYS}/accounts/admin/update", {**body, "accountName": "x"}, token=admin_token)
    error(resp, 400, INVALID)


def test_update_unknown_account(api: Api, admin_token: str) -> None:
    resp = api.post(
        f"{SYS}/accounts/admin/update",
        {"userBizId": "no-such-account-000", "accountName": "x"},
        token=admin_token,
    )
    error(resp, None, {"RESOURCE.NOT_FOUND", INVALID})


def test_update_oversized_name(api: Api, admin_token: str) -> None:
    target = find_account(api, admin_token, AUDITOR_EMAIL)
    resp = api.post(
        f"{SYS}/accounts/admin/update",
        {"userBizId": target["bizId"], "accountName": "N" * 100_000},
        token=admin_token,
    )
    assert resp.status_code < 500, resp.text
    if resp.status_code != 200:
        error(resp, 400, INVALID)


def test_update_wrong_types(api: Api, admin_token: str) -> None:
    target = find_account(api, admin_token, AUDITOR_EMAIL)
    resp = api.post(
        f"{SYS}/accounts/admin/update",
        {"userBizId": target["bizId"], "accountName": {"nested": True}},
        token=admin_token,
    )
    error(resp, 400, INVALID)


# -- admin password reset ---------------------------------------------------------------------


def test_admin_password_reset_empty_body(api: Api, admin_token: str) -> None:
    resp = api.post(f"{SYS}/accounts/admin/password/reset", {}, token=admin_token)
    error(resp, 400, INVALID)


def test_admin_password_reset_unknown_account(api: Api, admin_token: str) -> None:
    resp = api.post(
        f"{SYS}/accounts/admin/password/reset", {"userBizId": "nope-000"}, token=admin_token
    )
    error(resp, None, {"RESOURCE.NOT_FOUND", INVALID})
