"""The sandbox's OpenAPI description (``sandbox.openapi``): valid, complete, and true.

- valid OpenAPI 3.1 (schemathesis validates and loads it), every schema valid JSON Schema
  whose patterns compile;
- every operation of the registry described (its id, security, parameters, answers), every
  operation that takes a body declaring one, sealed bodies as the profile's frame;
- a tour that calls all 67 operations (and the sandbox tools) successfully, plus a few
  failures, and checks every answer against the description: the status is declared, the
  body conforms, and for the Secure Channel operations the decrypted envelope conforms to
  what the description says the frame carries. schemathesis mostly meets 4xx answers (it
  cannot seal a body, nor guess an id); this tour covers the 2xx side.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import jsonschema_rs
import pytest
import schemathesis
from fastapi import FastAPI
from openapi_checks import Described, operations
from sandbox_flows import EMAIL, SC, SYSTEM, bearer, login, mailbox, ok
from sc_wire import WireClient, body

from portal_admin.protocol.operations import OPERATIONS, Channel
from portal_admin.sandbox import SandboxConfig, create_app
from portal_admin.sandbox.openapi import PLAINTEXT_KEY
from support.accounts import (
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    AUDITOR_EMAIL,
    AUDITOR_PASSWORD,
    NEWUSER_EMAIL,
)

#: Registry operations that take no body: the specification says "body null" (the sandbox
#: ignores any body sent to them).
NO_BODY = {
    "auth.logout",
    "security.ip_whitelist_enable",
    "security.ip_whitelist_disable",
    "security.backup_codes_generate",
    "security.otp_revoke",
}
SEALED_OPERATIONS = {
    op.id for op in OPERATIONS.values() if op.channel in (Channel.ENCRYPTED, Channel.SESSION)
}
SANDBOX_TOOLS = {
    "sandbox.mailbox",
    "sandbox.totp",
    "sandbox.clock_advance",
    "sandbox.rotate_key",
}


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    app = create_app(SandboxConfig(seed_accounts=0, test_clock=True))
    try:
        return app.openapi()
    finally:
        app.state.sandbox.db.close()


def schemas_in(node: Any, where: str = "") -> Iterator[tuple[str, Any]]:
    """Every JSON Schema of the description: components, parameters, bodies, answers."""
    if isinstance(node, dict):
        for key, value in node.items():
            here = f"{where}/{key}"
            if key in ("schema", PLAINTEXT_KEY):
                yield here, value
            elif key == "schemas" and where == "/components":
                for name, schema in value.items():
                    yield f"{here}/{name}", schema
            else:
                yield from schemas_in(value, here)
    elif isinstance(node, list):
        for n, value in enumerate(node):
            yield from schemas_in(value, f"{where}/{n}")


def patterns_in(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "pattern" and isinstance(value, str):
                yield value
            else:
                yield from patterns_in(value)
    elif isinstance(node, list):
        for value in node:
            yield from patterns_in(value)


def test_the_description_is_valid_openapi_that_schemathesis_loads(spec: dict[str, Any]) -> None:
    assert spec["openapi"].startswith("3.1")
    loaded = schemathesis.openapi.from_dict(spec)
    loaded.validate()  # the OpenAPI 3.1 meta-schema
    labels = [result.ok().label for result in loaded.get_all_operations()]
    assert len(labels) == len(OPERATIONS) + len(SANDBOX_TOOLS) == 71
    for where, schema in schemas_in(spec):
        jsonschema_rs.meta.validate(schema)  # draft 2020-12
        jsonschema_rs.validator_for({**schema, "components": spec["components"]}), where
    for pattern in patterns_in(spec):
        re.compile(pattern)  # hypothesis generates from the Python reading of each pattern


def test_every_operation_of_the_registry_is_described(spec: dict[str, Any]) -> None:
    described = operations(spec)
    assert set(described) == set(OPERATIONS) | SANDBOX_TOOLS
    for op in OPERATIONS.values():
        method, path, operation = described[op.id]
        assert (method, path) == (op.method, op.path)
        assert operation["tags"] == [op.area]
        responses = operation["responses"]
        assert "200" in responses and "422" not in responses, op.id
        assert all(400 <= int(status) < 500 for status in responses if status != "200")
        for answer in responses.values():
            assert answer["headers"]["X-Request-Id"]["required"] is True
        system = op.path.startswith(SYSTEM + "/")
        needs = set(operation["security"][0]) if operation["security"] else set()
        assert ("portalAccessCode" in needs) == system, op.id
        token = op.auth in ("bearer", "optional") and op.channel != Channel.ENCRYPTED
        assert ("bearerAuth" in needs) == token, op.id
        if system:
            assert "403" in responses, op.id
        names = {p["name"] for p in operation["parameters"] if p["in"] == "header"}
        assert ("X-Client-Hash" in names) == (op.auth == "pre_login"), op.id
    assert "HTTPValidationError" not in spec["components"]["schemas"]


def resolve(spec: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """``schema``, or the component it refers to."""
    ref = schema.get("$ref", "")
    if ref.startswith("#/components/schemas/"):
        found: dict[str, Any] = spec["components"]["schemas"][ref.rsplit("/", 1)[1]]
        return found
    return schema


def test_every_operation_that_takes_a_body_declares_it(spec: dict[str, Any]) -> None:
    described = operations(spec)
    with_body = 0
    for op in OPERATIONS.values():
        operation = described[op.id][2]
        if op.method != "POST" or op.id in NO_BODY:
            assert "requestBody" not in operation, op.id
            continue
        with_body += 1
        request = operation["requestBody"]
        (media_type, media) = next(iter(request["content"].items()))
        assert media_type == "application/json"
        if op.id in SEALED_OPERATIONS:
            assert request["required"] is True
            assert media["schema"] == {"$ref": "#/components/schemas/SealedBody"}
            assert PLAINTEXT_KEY in media, op.id
            sealed_answer = operation["responses"]["200"]["content"]
            assert sealed_answer["application/json;charset=UTF-8"]["schema"] == {
                "$ref": "#/components/schemas/SealedBody"
            }
        else:
            # The body's model is a component; an optional body (a query, roles/delete) may
            # also be null, as no body is.
            schema = media["schema"]
            variants = schema.get("anyOf", [schema])
            kinds = [v.get("type") for v in variants]
            assert ("null" in kinds) == (not request.get("required", False)), op.id
            (model,) = [resolve(spec, v) for v in variants if v.get("type") != "null"]
            assert model["type"] == "object" and model["properties"], op.id
            for name in model.get("required", []):
                assert name in model["properties"], (op.id, name)
    assert with_body == 33
    frame = spec["components"]["schemas"]["SealedBody"]
    assert frame["required"] == ["v", "p"] and frame["additionalProperties"] is False
    assert frame["properties"]["v"]["const"] == 2


def test_the_account_query_answer_follows_the_served_shape() -> None:
    for shape, key in (("accounts", "accounts"), ("content", "content")):
        app = create_app(SandboxConfig(seed_accounts=0, account_query_shape=shape))
        try:
            query = app.openapi()["paths"][OPERATIONS["accounts.query"].path]["post"]
        finally:
            app.state.sandbox.db.close()
        data = query["responses"]["200"]["content"]["application/json"]["schema"]
        assert key in data["properties"]["data"]["required"]


# -- the tour: every answer checked against the description ---------------------------------


def path_of(op_id: str, **params: str) -> str:
    return OPERATIONS[op_id].url_path(**params)


async def test_every_answer_of_a_tour_conforms_to_the_description(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    d = Described(app.openapi())

    # -- constants, the public key, sign-in --------------------------------------------------
    for op in OPERATIONS.values():
        if op.area == "constants":
            assert d.data(op.id, await client.get(op.path))
    d.data("secure_channel.public_key", await client.get(path_of("secure_channel.public_key")))
    started = d.data(
        "auth.login_initiate",
        await client.post(
            path_of("auth.login_initiate"),
            json={"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD},
        ),
    )
    session = started["sessionId"]
    d.data(
        "auth.mfa_send",
        await client.post(path_of("auth.mfa_send"), json={"sessionId": session, "method": EMAIL}),
    )
    code = (await mailbox(client, ADMIN_EMAIL))[0]["code"]
    wrong = await client.post(
        path_of("auth.login_complete"), json={"sessionId": session, "method": EMAIL, "code": "x"}
    )
    assert d.check("auth.login_complete", wrong)["code"] == "AUTH.MFA_CODE_INVALID"
    tokens = d.data(
        "auth.login_complete",
        await client.post(
            path_of("auth.login_complete"),
            json={"sessionId": session, "method": EMAIL, "code": code},
        ),
    )
    admin = bearer(tokens["accessToken"])
    d.check("auth.profile", await client.get(path_of("auth.profile")))  # 401 UNAUTHORIZED
    profile = d.data("auth.profile", await client.get(path_of("auth.profile"), headers=admin))

    # -- the Secure Channel ---------------------------------------------------------------------
    wire = await new_channel(d, client)
    failed = await post_sealed(client, wire, "auth.token_refresh", {"refreshToken": "rt_nope"})
    assert d.check("auth.token_refresh", failed, wire)["code"] == "AUTH.REFRESH_TOKEN_INVALID"
    refreshed = d.data(
        "auth.token_refresh",
        await post_sealed(
            client, wire, "auth.token_refresh", {"refreshToken": tokens["refreshToken"]}
        ),
        wire,
    )
    admin = bearer(refreshed["accessToken"])
    unsealed = await client.post(
        path_of("auth.token_refresh"), json={"v": 2, "p": "AAAA"}, headers=wire.headers()
    )
    assert d.check("auth.token_refresh", unsealed)["code"] == "SECURE_CHANNEL.DECRYPTION_FAILED"
    d.check(
        "auth.token_refresh",
        await client.post(path_of("auth.token_refresh"), json={"v": 2, "p": "AAAA"}),
    )  # no X-SC-Version: 400

    # Forgot and reset (the auditor), init (newuser), change (the admin, at the end).
    forgot = await client.post(
        path_of("auth.password_forgot"),
        json={"email": AUDITOR_EMAIL, "challengeToken": "ok"},
        headers={**wire.headers(), "X-Challenge-Token": "ok"},
    )
    d.data("auth.password_forgot", forgot)
    reset_token = (await mailbox(client, AUDITOR_EMAIL))[0]["token"]
    weak = await post_sealed(
        client, wire, "auth.password_reset", {"token": reset_token, "newPassword": "short"}
    )
    assert d.check("auth.password_reset", weak, wire)["code"] == "VALIDATION.INVALID_PARAMETER"
    d.data(
        "auth.password_reset",
        await post_sealed(
            client,
            wire,
            "auth.password_reset",
            {"token": reset_token, "newPassword": AUDITOR_PASSWORD + "x"},
        ),
        wire,
    )
    init_session = next(m["sessionId"] for m in await mailbox(client, NEWUSER_EMAIL))
    d.data(
        "auth.password_init",
        await post_sealed(
            client,
            wire,
            "auth.password_init",
            {"sessionId": init_session, "password": "Newuser-Sandbox-2026!"},
        ),
        wire,
    )

    # -- security -------------------------------------------------------------------------------
    for op_id in (
        "security.ip_whitelist_get",
        "security.mfa_list",
        "security.backup_codes_summary",
        "security.sessions",
        "security.sessions_config",
    ):
        d.data(op_id, await client.get(path_of(op_id), headers=admin))
    history = d.data(
        "security.login_history",
        await client.get(
            path_of("security.login_history"),
            params={"page": 1, "size": 5, "sort": "loginTime,desc", "result": "2"},
            headers=admin,
        ),
    )
    assert history["items"]
    d.check(
        "security.login_history",
        await client.get(path_of("security.login_history"), params={"page": -1}, headers=admin),
    )
    d.data(
        "security.ip_whitelist_set",
        await client.post(
            path_of("security.ip_whitelist_set"),
            json={"ips": ["203.0.113.0/24", "2001:db8::1"]},
            headers=admin,
        ),
    )
    for op_id in (
        "security.ip_whitelist_enable",
        "security.ip_whitelist_disable",
        "security.backup_codes_generate",
        "security.otp_revoke",
    ):
        d.data(op_id, await client.post(path_of(op_id), headers=admin))
    d.check("security.mfa_list", await client.get(path_of("security.mfa_list")))  # 401

    # -- accounts -------------------------------------------------------------------------------
    page = d.data(
        "accounts.query",
        await client.post(
            path_of("accounts.query"),
            json={"accountStatus": 35010101, "size": 5, "sort": "accountName,asc"},
            headers=admin,
        ),
    )
    target = next(a for a in page["accounts"] if a["accountEmail"] != ADMIN_EMAIL)
    biz = target["bizId"]
    d.data("accounts.get", await client.get(path_of("accounts.get", userBizId=biz), headers=admin))
    d.check(
        "accounts.get", await client.get(path_of("accounts.get", userBizId="nope"), headers=admin)
    )
    d.data(
        "accounts.update",
        await client.post(
            path_of("accounts.update"),
            json={"userBizId": biz, "accountRemark": "checked", "defaultCountry": "VN"},
            headers=admin,
        ),
    )
    d.data(
        "accounts.password_reset",
        await client.post(
            path_of("accounts.password_reset"), json={"userBizId": biz}, headers=admin
        ),
    )
    d.data(
        "accounts.status",
        await client.post(
            path_of("accounts.status"),
            json={"userBizId": biz, "action": "suspend", "reason": "tour"},
            headers=admin,
        ),
    )

    # -- invitations, roles, portals --------------------------------------------------------
    d.data("invitations.list", await client.get(path_of("invitations.list"), headers=admin))
    invitation = d.data(
        "invitations.create",
        await client.post(
            path_of("invitations.create"),
            json={"inviteeEmail": "tour@example.com", "expirationDays": "3"},
            headers=admin,
        ),
    )
    d.data(
        "invitations.cancel",
        await client.post(
            path_of("invitations.cancel"),
            json={"invitationBizId": invitation["bizId"], "reason": "tour"},
            headers=admin,
        ),
    )
    d.data(
        "invitations.own",
        await client.get(
            path_of("invitations.own"), params={"statuses": "10050301,10050302"}, headers=admin
        ),
    )
    roles = d.data("roles.list", await client.get(path_of("roles.list"), headers=admin))
    unused = next(r for r in roles if r["memberCount"] == 0 and r["roleType"]["code"] == "CUSTOM")
    owner = next(r for r in roles if r["roleType"]["code"] == "OWNER")
    d.data(
        "roles.get", await client.get(path_of("roles.get", roleBizId=owner["bizId"]), headers=admin)
    )
    protected = await client.post(
        path_of("roles.delete"), json={"roleId": owner["bizId"]}, headers=admin
    )
    assert d.check("roles.delete", protected)["code"] == "WORKSPACE.OWNER_ROLE_PROTECTED"
    d.data(
        "roles.delete",
        await client.post(
            path_of("roles.delete"), params={"roleId": unused["bizId"]}, headers=admin
        ),
    )
    d.data(
        "portals.create",
        await client.post(
            path_of("portals.create"),
            json={"portalType": "35010202", "domain": "tour.sandbox.test", "remark": None},
            headers=admin,
        ),
    )
    bad_portal = await client.post(path_of("portals.create"), json={"domain": "x"}, headers=admin)
    assert d.check("portals.create", bad_portal)["code"] == "4000"

    # -- notifications ------------------------------------------------------------------------
    d.data(
        "notifications.channel_types_query",
        await client.post(path_of("notifications.channel_types_query"), headers=admin),
    )
    kind = d.data(
        "notifications.channel_types_create",
        await client.post(
            path_of("notifications.channel_types_create"),
            json={"typeCode": "push", "typeName": "Push", "extraConfig": {"sound": True}},
            headers=admin,
        ),
    )
    type_id = {"bizId": kind["bizId"]}
    d.data(
        "notifications.channel_types_update",
        await client.post(
            path_of("notifications.channel_types_update"),
            json={**type_id, "displayOrder": "7", "iconUrl": None},
            headers=admin,
        ),
    )
    for verb in ("disable", "enable"):
        op_id = f"notifications.channel_types_{verb}"
        d.data(op_id, await client.post(path_of(op_id), json=type_id, headers=admin))
    channel = d.data(
        "notifications.channels_create",
        await client.post(
            path_of("notifications.channels_create"),
            json={"channelName": "Tour push", "channelCategory": "PUSH", "config": {"k": 1}},
            headers=admin,
        ),
    )
    channel_id = {"bizId": channel["bizId"]}
    in_use = await client.post(
        path_of("notifications.channel_types_delete"), json=type_id, headers=admin
    )
    assert d.check("notifications.channel_types_delete", in_use)["code"].startswith("VALIDATION")
    d.data(
        "notifications.channels_query",
        await client.post(
            path_of("notifications.channels_query"),
            json={"channelCategory": "push", "channelStatus": "ACTIVE", "page": 1},
            headers=admin,
        ),
    )
    d.data(
        "notifications.channels_update",
        await client.post(
            path_of("notifications.channels_update"),
            json={**channel_id, "description": "tour", "isDefault": "true"},
            headers=admin,
        ),
    )
    for verb in ("deactivate", "activate", "delete"):
        op_id = f"notifications.channels_{verb}"
        d.data(op_id, await client.post(path_of(op_id), json=channel_id, headers=admin))
    d.data(
        "notifications.channel_types_delete",
        await client.post(
            path_of("notifications.channel_types_delete"), json=type_id, headers=admin
        ),
    )
    smtp = {"host": "smtp.sandbox.invalid", "port": 25, "fromAddress": "a@sandbox.test"}
    checked = d.data(
        "notifications.validate_smtp",
        await client.post(path_of("notifications.validate_smtp"), json=smtp, headers=admin),
    )
    assert checked["valid"] is False
    d.data(
        "notifications.validate_imap",
        await client.post(
            path_of("notifications.validate_imap"),
            json={"host": "imap.sandbox.test", "port": "993", "security": "tls"},
            headers=admin,
        ),
    )
    d.check(
        "notifications.validate_imap",
        await client.post(path_of("notifications.validate_imap"), headers=admin),
    )  # empty body: 400

    # -- the sandbox tools, then the admin's password change, channel close, logout ---------
    d.data("sandbox.mailbox", await client.get("/sandbox/mailbox", params={"to": ADMIN_EMAIL}))
    d.data("sandbox.totp", await client.get("/sandbox/totp", params={"email": ADMIN_EMAIL}))
    d.check("sandbox.totp", await client.get("/sandbox/totp", params={"email": "x@y.z"}))
    d.data(
        "sandbox.clock_advance", await client.post("/sandbox/clock/advance", json={"seconds": 1})
    )
    change = {"currentPassword": ADMIN_PASSWORD, "newPassword": ADMIN_PASSWORD + "x"}
    d.data(
        "auth.password_change",
        await post_sealed(client, wire, "auth.password_change", change, admin),
        wire,
    )
    d.data(
        "secure_channel.session_close",
        await post_sealed(client, wire, "secure_channel.session_close", {}),
        wire,
    )
    closed = await post_sealed(client, wire, "secure_channel.session_close", {})
    assert (
        d.check("secure_channel.session_close", closed)["code"] == "SECURE_CHANNEL.SESSION_INVALID"
    )
    d.data("auth.logout", await client.post(path_of("auth.logout"), headers=admin))
    d.check("auth.logout", await client.post(path_of("auth.logout")))  # 401

    # Every operation of the registry answered with success, and a sign-in still works.
    assert {op_id for op_id, statuses in d.seen.items() if 200 in statuses} >= set(OPERATIONS)
    assert profile["accountEmail"] == ADMIN_EMAIL
    assert await login(client, AUDITOR_EMAIL, AUDITOR_PASSWORD + "x")


async def new_channel(d: Described, client: httpx.AsyncClient) -> WireClient:
    """A Secure Channel session, its creation answer checked."""
    wire = WireClient.from_public_key(ok(await client.get(f"{SC}/public-key")))
    resp = await client.post(
        f"{SC}/session", json=body(wire.key_exchange()), headers={"X-SC-Version": "2"}
    )
    data = d.data("secure_channel.session_create", resp, wire)
    wire.session_id = data["sessionId"]
    return wire


async def post_sealed(
    client: httpx.AsyncClient,
    wire: WireClient,
    op_id: str,
    plaintext: Any,
    headers: dict[str, str] | None = None,
) -> httpx.Response:
    """A sealed call; the answer is left to the caller."""
    return await client.post(
        path_of(op_id),
        json=body(wire.data(plaintext)),
        headers={**wire.headers(), **(headers or {})},
    )
