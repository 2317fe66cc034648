"""The notifications and constants areas."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from portal_admin.protocol.enums import CONSTANT_PATHS

SYS = "/web/v1/system"
N = f"{SYS}/notifications"
SMTP = {
    "host": "smtp.example.com",
    "port": 587,
    "security": "STARTTLS",
    "username": "mailer",
    "password": "s3cret-pass",
    "fromAddress": "no-reply@example.com",
}


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


MUTATIONS = [
    f"{N}/channel-types/{verb}" for verb in ("create", "update", "delete", "enable", "disable")
] + [f"{N}/channels/{verb}" for verb in ("create", "update", "delete", "activate", "deactivate")]
VALIDATES = [f"{N}/email/validate/smtp", f"{N}/email/validate/imap"]


@pytest.mark.parametrize("path", MUTATIONS + VALIDATES)
async def test_empty_body_is_400_and_auditor_is_403(
    client: httpx.AsyncClient,
    admin_headers: dict[str, str],
    auditor_headers: dict[str, str],
    path: str,
) -> None:
    err(await client.post(path, headers=admin_headers), 400, "VALIDATION.INVALID_PARAMETER")
    err(
        await client.post(path, json={}, headers=admin_headers), 400, "VALIDATION.INVALID_PARAMETER"
    )
    err(
        await client.post(path, json={"bizId": "x"}, headers=auditor_headers),
        403,
        "ACCESS.PERMISSION_DENIED",
    )
    err(await client.post(path, json={"bizId": "x"}), 401, "ACCESS.TOKEN_MISSING")


async def test_channel_type_query_and_lifecycle(
    client: httpx.AsyncClient, admin_headers: dict[str, str], auditor_headers: dict[str, str]
) -> None:
    page = ok(await client.post(f"{N}/channel-types/query", json={}, headers=auditor_headers))
    codes = [t["typeCode"] for t in page["items"]]
    assert codes == ["EMAIL", "SMS", "WEBHOOK", "IN_APP"]
    assert page["pagination"]["currentPage"] == 1 and page["pagination"]["totalRecords"] == 4
    in_app = page["items"][3]
    assert in_app["enabled"] is False and in_app["typeStatus"]["value"] == 80010302
    enabled = ok(
        await client.post(
            f"{N}/channel-types/query", json={"enabledOnly": True}, headers=admin_headers
        )
    )
    assert len(enabled["items"]) == 3
    by_status = ok(
        await client.post(
            f"{N}/channel-types/query", json={"typeStatus": 80010302}, headers=admin_headers
        )
    )
    assert [t["typeCode"] for t in by_status["items"]] == ["IN_APP"]
    created = ok(
        await client.post(
            f"{N}/channel-types/create",
            json={"typeCode": "push", "typeName": "Push", "extraConfig": {"ttl": 60}},
            headers=admin_headers,
        )
    )
    assert created["typeCode"] == "PUSH" and created["enabled"] is True
    assert created["typeValue"] >= 80010121 and created["extraConfig"] == {"ttl": 60}
    err(
        await client.post(
            f"{N}/channel-types/create",
            json={"typeCode": "PUSH", "typeName": "Again"},
            headers=admin_headers,
        ),
        400,
        "VALIDATION.INVALID_PARAMETER",
    )
    updated = ok(
        await client.post(
            f"{N}/channel-types/update",
            json={"bizId": created["bizId"], "typeName": "Push notices", "displayOrder": 9},
            headers=admin_headers,
        )
    )
    assert updated["typeName"] == "Push notices" and updated["displayOrder"] == 9
    disabled = ok(
        await client.post(
            f"{N}/channel-types/disable", json={"bizId": created["bizId"]}, headers=admin_headers
        )
    )
    assert disabled["typeStatus"]["code"] == "DISABLED" and disabled["enabled"] is False
    again = ok(
        await client.post(
            f"{N}/channel-types/enable", json={"bizId": created["bizId"]}, headers=admin_headers
        )
    )
    assert again["enabled"] is True
    assert (
        ok(
            await client.post(
                f"{N}/channel-types/delete", json={"bizId": created["bizId"]}, headers=admin_headers
            )
        )
        is None
    )
    gone = ok(
        await client.post(
            f"{N}/channel-types/query", json={"bizId": created["bizId"]}, headers=admin_headers
        )
    )
    assert gone["items"] == [] and gone["pagination"]["empty"] is True
    err(
        await client.post(
            f"{N}/channel-types/enable", json={"bizId": created["bizId"]}, headers=admin_headers
        ),
        400,
        "VALIDATION.INVALID_PARAMETER",
    )


async def test_channel_type_in_use_cannot_be_deleted(
    client: httpx.AsyncClient, admin_headers: dict[str, str]
) -> None:
    email = ok(
        await client.post(
            f"{N}/channel-types/query", json={"typeCode": "EMAIL"}, headers=admin_headers
        )
    )
    err(
        await client.post(
            f"{N}/channel-types/delete",
            json={"bizId": email["items"][0]["bizId"]},
            headers=admin_headers,
        ),
        400,
        "VALIDATION.INVALID_PARAMETER",
    )


async def test_channels_mask_secrets_and_keep_them(
    client: httpx.AsyncClient, admin_headers: dict[str, str]
) -> None:
    body = {"channelName": "Mail", "channelCategory": "EMAIL", "config": SMTP, "isDefault": True}
    created = ok(await client.post(f"{N}/channels/create", json=body, headers=admin_headers))
    assert created["config"]["password"] == "********"
    assert "s3cret-pass" not in str(created)
    assert created["channelCategory"]["value"] == 80010101
    assert created["channelStatus"]["code"] == "ACTIVE" and created["isDefault"] is True
    # sending the mask back keeps the stored password: validation with the channel succeeds
    update = {"bizId": created["bizId"], "channelName": "Mail 2", "config": created["config"]}
    updated = ok(await client.post(f"{N}/channels/update", json=update, headers=admin_headers))
    assert updated["channelName"] == "Mail 2" and updated["config"]["password"] == "********"
    check = ok(
        await client.post(
            f"{N}/email/validate/smtp",
            json={"channelBizId": created["bizId"], "password": "********"},
            headers=admin_headers,
        )
    )
    assert check["valid"] is True and check["host"] == "smtp.example.com"
    listed = ok(
        await client.post(
            f"{N}/channels/query", json={"bizId": created["bizId"]}, headers=admin_headers
        )
    )
    assert listed["items"][0]["config"]["password"] == "********"
    inactive = ok(
        await client.post(
            f"{N}/channels/deactivate", json={"bizId": created["bizId"]}, headers=admin_headers
        )
    )
    assert inactive["channelStatus"]["value"] == 80010202 and inactive["active"] is False
    active = ok(
        await client.post(
            f"{N}/channels/activate", json={"bizId": created["bizId"]}, headers=admin_headers
        )
    )
    assert active["channelStatus"]["code"] == "ACTIVE"
    assert (
        ok(
            await client.post(
                f"{N}/channels/delete", json={"bizId": created["bizId"]}, headers=admin_headers
            )
        )
        is None
    )
    err(
        await client.post(
            f"{N}/channels/activate", json={"bizId": created["bizId"]}, headers=admin_headers
        ),
        400,
        "VALIDATION.INVALID_PARAMETER",
    )


async def test_seeded_channels_and_filters(
    client: httpx.AsyncClient, admin_headers: dict[str, str]
) -> None:
    everything = ok(await client.post(f"{N}/channels/query", headers=admin_headers))
    categories = {c["channelCategory"]["code"] for c in everything["items"]}
    assert categories == {"EMAIL", "SMS", "WEBHOOK", "IN_APP"}
    assert all("********" in str(c["config"]) or not c["config"] for c in everything["items"])
    active = ok(
        await client.post(f"{N}/channels/query", json={"activeOnly": True}, headers=admin_headers)
    )
    assert active["items"] and all(c["active"] for c in active["items"])
    email = ok(
        await client.post(
            f"{N}/channels/query", json={"channelCategory": 80010101}, headers=admin_headers
        )
    )
    assert {c["channelCategory"]["code"] for c in email["items"]} == {"EMAIL"}
    small = ok(
        await client.post(f"{N}/channels/query", json={"size": 2, "page": 2}, headers=admin_headers)
    )
    assert len(small["items"]) == 2 and small["pagination"]["currentPage"] == 2
    zh = ok(
        await client.post(
            f"{N}/channels/query",
            json={"channelStatus": "INACTIVE"},
            headers={**admin_headers, "Accept-Language": "zh-Hant"},
        )
    )
    assert zh["items"] and zh["items"][0]["channelStatus"]["label"] == "未啟用"


@pytest.mark.parametrize(
    "body",
    [
        {"channelName": "x", "channelCategory": "EMAIL", "config": {**SMTP, "port": 0}},
        {"channelName": "x", "channelCategory": "EMAIL", "config": {**SMTP, "port": 70000}},
        {"channelName": "x", "channelCategory": "EMAIL", "config": {**SMTP, "security": "SSLv2"}},
        {"channelName": "x", "channelCategory": "EMAIL", "config": {**SMTP, "fromAddress": "nope"}},
        {
            "channelName": "x",
            "channelCategory": "EMAIL",
            "config": {**SMTP, "password": "********"},
        },
        {"channelName": "x", "channelCategory": "EMAIL", "config": "smtp://x"},
        {"channelName": "x", "channelCategory": "FAX", "config": {}},
        {"channelName": "x", "channelCategory": "IN_APP", "config": {}},  # type disabled
        {"channelName": "", "channelCategory": "SMS", "config": {"provider": "p", "apiKey": "k"}},
        {"channelName": "x", "channelCategory": "SMS", "config": {"provider": "p"}},
        {"channelName": "x", "channelCategory": "WEBHOOK", "config": {"url": "ftp://x"}},
        {
            "channelName": "x",
            "channelCategory": "WEBHOOK",
            "config": {"url": "https://x", "headers": [1]},
        },
    ],
)
async def test_channel_create_rejects_bad_settings(
    client: httpx.AsyncClient, admin_headers: dict[str, str], body: Any
) -> None:
    err(
        await client.post(f"{N}/channels/create", json=body, headers=admin_headers),
        400,
        "VALIDATION.INVALID_PARAMETER",
    )


@pytest.mark.parametrize(
    ("path", "body", "valid"),
    [
        ("smtp", SMTP, True),
        ("smtp", {**SMTP, "host": "mail.example.invalid"}, False),
        ("imap", {"host": "imap.example.com", "port": 993, "security": "tls"}, True),
        ("imap", {"host": "imap.nowhere.invalid", "port": 993}, False),
    ],
)
async def test_validate_mail_servers(
    client: httpx.AsyncClient, admin_headers: dict[str, str], path: str, body: Any, valid: bool
) -> None:
    data = ok(await client.post(f"{N}/email/validate/{path}", json=body, headers=admin_headers))
    assert data["valid"] is valid and data["protocol"] == path.upper()
    assert data["security"] in ("TLS", "STARTTLS", "NONE") and isinstance(data["message"], str)


@pytest.mark.parametrize(
    "body",
    [
        {"host": "smtp.example.com"},
        {"host": "smtp.example.com", "port": "x", "fromAddress": "a@example.com"},
        {"port": 25, "fromAddress": "a@example.com"},
        {"host": "a b", "port": 25, "fromAddress": "a@example.com"},
        {"host": "smtp.example.com", "port": 25},  # SMTP needs a sender
    ],
)
async def test_validate_rejects_bad_shapes(
    client: httpx.AsyncClient, admin_headers: dict[str, str], body: Any
) -> None:
    err(
        await client.post(f"{N}/email/validate/smtp", json=body, headers=admin_headers),
        400,
        "VALIDATION.INVALID_PARAMETER",
    )


# -- constants -------------------------------------------------------------------------------


@pytest.mark.parametrize("path", CONSTANT_PATHS)
async def test_every_constants_list_is_public(client: httpx.AsyncClient, path: str) -> None:
    items = ok(await client.get(f"{SYS}/constants/{path}"))
    assert items
    for item in items:
        assert {"code", "value", "label", "description"} <= set(item)
        assert isinstance(item["value"], int) and 10_000_000 <= item["value"] <= 99_999_999
    assert len(CONSTANT_PATHS) == 16


async def test_constants_follow_accept_language(client: httpx.AsyncClient) -> None:
    path = f"{SYS}/constants/user-account-statuses"
    labels = {}
    for lang in ("en", "zh", "zh-Hant", "ja", "vi"):
        items = ok(await client.get(path, headers={"Accept-Language": lang}))
        labels[lang] = next(i["label"] for i in items if i["code"] == "SUSPENDED")
    assert labels == {
        "en": "Suspended",
        "zh": "已暂停",
        "zh-Hant": "已停權",
        "ja": "一時停止",
        "vi": "Bị tạm ngưng",
    }
    items = ok(await client.get(path))
    assert [i["value"] for i in items][:4] == [35010101, 35010102, 35010103, 35010104]
    portal = ok(await client.get(f"{SYS}/constants/user-portal-types"))
    assert {i["code"]: i["value"] for i in portal}["SYSTEM"] == 35010201


async def test_reference_constants(client: httpx.AsyncClient) -> None:
    countries = ok(
        await client.get(f"{SYS}/constants/countries", headers={"Accept-Language": "ja"})
    )
    japan = next(c for c in countries if c["alpha2Code"] == "JP")
    assert japan["label"] == "日本" and japan["alpha3Code"] == "JPN"
    assert japan["numericCode"] == 392 and japan["phoneCode"] == "+81"
    zones = ok(await client.get(f"{SYS}/constants/timezones"))
    assert any(z["zoneIdCode"] == "Asia/Ho_Chi_Minh" and z["utcOffset"] == "UTC+7" for z in zones)
    states = ok(await client.get(f"{SYS}/constants/us-states"))
    assert any(s["isoCode"] == "US-NY" for s in states)


async def test_constants_need_the_access_code(client: httpx.AsyncClient) -> None:
    response = await client.get(
        f"{SYS}/constants/countries", headers={"X-PORTAL-ACCESS-CODE": "wrong"}
    )
    err(response, 403, "ACCESS.PERMISSION_DENIED")
