"""The sandbox bugs that schemathesis, run against the OpenAPI description, led to; one test
each, so that they stay fixed (docs/security.md, "Findings")."""

from __future__ import annotations

import httpx
import pytest
from sandbox_flows import EMAIL, OTP, SYSTEM, err, initiate, ok

from support.accounts import ADMIN_EMAIL, ADMIN_PASSWORD

#: Text that ``str.isdigit`` takes for digits but ``int`` refuses (or reads as a number).
NOT_ASCII_NUMBERS = ["²", "--5", "١٢", "12345６"]


@pytest.mark.parametrize("number", NOT_ASCII_NUMBERS)
async def test_numbers_that_are_not_ascii_digits_are_refused_not_a_500(
    client: httpx.AsyncClient, admin_headers: dict[str, str], number: str
) -> None:
    calls = [
        ("POST", f"{SYSTEM}/notifications/channel-types/query", {"size": number}, None),
        ("POST", f"{SYSTEM}/notifications/channels/query", {"page": number}, None),
        (
            "POST",
            f"{SYSTEM}/invitations",
            {"inviteeEmail": "a@b.co", "expirationDays": number},
            None,
        ),
        ("GET", f"{SYSTEM}/security/sessions/history", None, {"size": number}),
        ("GET", f"{SYSTEM}/security/sessions/history", None, {"from": number}),
        ("GET", f"{SYSTEM}/security/sessions/history", None, {"result": number}),
        ("GET", f"{SYSTEM}/profile/invitations", None, {"statuses": number}),
    ]
    for method, path, body, params in calls:
        resp = await client.request(method, path, json=body, params=params, headers=admin_headers)
        err(resp, 400, "VALIDATION.INVALID_PARAMETER")
    portal = await client.post(
        f"{SYSTEM}/institutions/portals",
        json={"portalType": number, "domain": "x.sandbox.test"},
        headers=admin_headers,
    )
    err(portal, 400, "4000")


@pytest.mark.parametrize("code", ["١٢٣٤٥٦", "²²²²²²", "12345６"])
async def test_an_authenticator_code_in_other_digits_is_a_wrong_code(
    client: httpx.AsyncClient, code: str
) -> None:
    session = (await initiate(client, ADMIN_EMAIL, ADMIN_PASSWORD))["sessionId"]
    for method in (OTP, EMAIL):
        resp = await client.post(
            f"{SYSTEM}/auth/login/complete",
            json={"sessionId": session, "method": method, "code": code},
        )
        err(resp, 400, "AUTH.MFA_CODE_INVALID")


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("OPTIONS", f"{SYSTEM}/security/ip-whitelist", "GET, POST"),
        ("PUT", f"{SYSTEM}/invitations", "GET, POST"),
        ("PUT", f"{SYSTEM}/accounts/admin/update", "POST"),
        ("DELETE", f"{SYSTEM}/accounts/admin/status", "POST"),
        ("PUT", f"{SYSTEM}/roles/delete", "POST"),
        ("DELETE", f"{SYSTEM}/accounts/admin/ACC0000", "GET"),
        ("GET", "/web/v1/secure-channel/session", "POST"),
    ],
)
async def test_a_refused_method_names_every_method_of_the_path(
    client: httpx.AsyncClient, method: str, path: str, allow: str
) -> None:
    resp = await client.request(method, path)
    err(resp, 405, "REQUEST.METHOD_NOT_ALLOWED")
    assert resp.headers["Allow"] == allow


async def test_the_default_type_value_keeps_eight_digits(
    client: httpx.AsyncClient, admin_headers: dict[str, str]
) -> None:
    create = f"{SYSTEM}/notifications/channel-types/create"

    async def new_type(code: str, **extra: int) -> int:
        body = {"typeCode": code, "typeName": code, **extra}
        data = ok(await client.post(create, json=body, headers=admin_headers))
        value: int = data["typeValue"]
        return value

    first = await new_type("FIRST")
    assert await new_type("HIGHEST", typeValue=99_999_999) == 99_999_999
    # One above the highest would need nine digits: the lowest free value is taken instead.
    assert await new_type("NEXT") == first + 1
    assert await new_type("AFTER") == first + 2
