"""Notification channel types and channels (spec 4.7)."""

from __future__ import annotations

from typing import Any

import pytest

from ._support import SYS, Api, check_shape_a, error, is_enum_item, ok, parse_iso

pytestmark = pytest.mark.http

NOTE = f"{SYS}/notifications"
INVALID = "VALIDATION.INVALID_PARAMETER"
TYPE_FIELDS = {
    "bizId",
    "typeCode",
    "typeValue",
    "typeName",
    "typeDescription",
    "typeStatus",
    "displayOrder",
    "iconUrl",
    "extraConfig",
    "createdAt",
    "updatedAt",
    "enabled",
}

WRITE_PATHS = [
    "channel-types/create",
    "channel-types/delete",
    "channel-types/disable",
    "channel-types/enable",
    "channel-types/update",
    "channels/activate",
    "channels/create",
    "channels/deactivate",
    "channels/delete",
    "channels/update",
    "email/validate/imap",
    "email/validate/smtp",
]


def _types(api: Api, token: str, body: dict[str, Any]) -> dict[str, Any]:
    data = ok(api.post(f"{NOTE}/channel-types/query", body, token=token))
    check_shape_a(data)
    return data


def test_channel_types_query(api: Api, admin_token: str) -> None:
    data = _types(api, admin_token, {})
    assert data["items"], "seeded channel types missing"
    for item in data["items"]:
        missing = TYPE_FIELDS - item.keys()
        assert not missing, f"channel type lacks {sorted(missing)}: {item}"
        is_enum_item(item["typeStatus"])
        assert item["typeStatus"]["value"] in (80010301, 80010302)
        assert {"ENABLED": 80010301, "DISABLED": 80010302}[item["typeStatus"]["code"]] == item[
            "typeStatus"
        ]["value"]
        assert isinstance(item["enabled"], bool)
        assert isinstance(item["typeValue"], int)
        assert isinstance(item["displayOrder"], int)
        assert item["iconUrl"] is None or isinstance(item["iconUrl"], str)
        parse_iso(item["createdAt"])
        parse_iso(item["updatedAt"])


def test_channel_types_query_with_all_nulls(api: Api, admin_token: str) -> None:
    body = {"bizId": None, "typeCode": None, "typeStatus": None, "enabledOnly": False}
    assert _types(api, admin_token, body)["items"]


def test_channel_types_enabled_only(api: Api, admin_token: str) -> None:
    data = _types(api, admin_token, {"enabledOnly": True})
    assert all(item["enabled"] is True for item in data["items"])


def test_channel_types_filter_status(api: Api, admin_token: str) -> None:
    for value in (80010301, 80010302):
        data = _types(api, admin_token, {"typeStatus": value})
        assert all(item["typeStatus"]["value"] == value for item in data["items"])


def test_channel_types_filter_biz_id_and_code(api: Api, admin_token: str) -> None:
    first = _types(api, admin_token, {})["items"][0]
    by_id = _types(api, admin_token, {"bizId": first["bizId"]})["items"]
    assert [i["bizId"] for i in by_id] == [first["bizId"]]
    by_code = _types(api, admin_token, {"typeCode": first["typeCode"]})["items"]
    assert first["bizId"] in {i["bizId"] for i in by_code}
    assert all(i["typeCode"] == first["typeCode"] for i in by_code)


def test_channels_query(api: Api, admin_token: str) -> None:
    data = ok(api.post(f"{NOTE}/channels/query", {}, token=admin_token))
    check_shape_a(data)
    assert data["items"], "seeded channels missing"
    body = {
        "bizId": None,
        "institutionBizId": None,
        "channelCategory": None,
        "channelStatus": None,
        "activeOnly": True,
    }
    check_shape_a(ok(api.post(f"{NOTE}/channels/query", body, token=admin_token)))


@pytest.mark.parametrize("path", WRITE_PATHS)
def test_empty_object_body_is_invalid(api: Api, admin_token: str, path: str) -> None:
    error(api.post(f"{NOTE}/{path}", {}, token=admin_token), 400, INVALID)


@pytest.mark.parametrize("path", WRITE_PATHS)
def test_no_body_is_invalid(api: Api, admin_token: str, path: str) -> None:
    resp = api.request(
        "POST",
        f"{NOTE}/{path}",
        token=admin_token,
        content=b"",
        headers={"Content-Type": "application/json"},
    )
    error(resp, 400, INVALID)


@pytest.mark.parametrize(
    "path", ["channel-types/query", "channels/query", "channel-types/create", "channels/create"]
)
def test_notifications_without_token(api: Api, path: str) -> None:
    error(api.post(f"{NOTE}/{path}", {}), 401, "ACCESS.TOKEN_MISSING")


@pytest.mark.parametrize(
    "body",
    [{"typeStatus": "ENABLED"}, {"enabledOnly": "yes"}, {"bizId": 7}],
    ids=["status-string", "flag-string", "id-number"],
)
def test_channel_types_query_wrong_types(api: Api, admin_token: str, body: dict[str, Any]) -> None:
    error(api.post(f"{NOTE}/channel-types/query", body, token=admin_token), 400, INVALID)
