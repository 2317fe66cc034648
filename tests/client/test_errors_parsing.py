"""Error mapping and tolerant parsing: envelopes, codes, page and account-query shapes."""

from __future__ import annotations

import httpx
import pytest

from portal_admin.client import (
    AuthenticationError,
    ConflictError,
    MalformedResponseError,
    NotFoundError,
    PermissionDeniedError,
    PortalError,
    RateLimitedError,
    SecureChannelError,
    ServerError,
    ValidationError,
)
from portal_admin.client.records import Account, ConstantItem, EnumItem, Portal

from .conftest import ClientFactory
from .fake_server import FakePortal, error


@pytest.mark.parametrize(
    ("code", "status", "cls"),
    [
        ("AUTH.INVALID_CREDENTIALS", 401, AuthenticationError),
        ("ACCESS.PERMISSION_DENIED", 403, PermissionDeniedError),
        ("RESOURCE.NOT_FOUND", 404, NotFoundError),
        ("WORKSPACE.ROLE_IN_USE", 409, ConflictError),
        ("REQUEST.RATE_LIMITED", 429, RateLimitedError),
        ("VALIDATION.INVALID_PARAMETER", 400, ValidationError),
        ("5000", 500, ServerError),
        ("4040", 404, NotFoundError),
        ("SECURE_CHANNEL.DECRYPTION_FAILED", 400, SecureChannelError),
        ("SOMETHING.NEW", 409, ConflictError),
    ],
)
async def test_error_mapping(
    make_client: ClientFactory, fake: FakePortal, code: str, status: int, cls: type[PortalError]
) -> None:
    client = make_client()
    fake.once("/web/v1/system/constants/countries", lambda r: error(code, status, "Fehler"))
    with pytest.raises(cls) as caught:
        await client.constants.countries()
    exc = caught.value
    assert exc.code == code
    assert exc.http_status == status
    assert exc.message == "Fehler"
    assert exc.operation_id == "constants.countries"
    assert exc.request_id == client.last_request_id


async def test_numeric_code_and_missing_fields(
    make_client: ClientFactory, fake: FakePortal
) -> None:
    client = make_client()
    fake.once(
        "/web/v1/system/constants/countries",
        lambda r: httpx.Response(404, json={"code": 4040, "message": "nope"}),
    )
    with pytest.raises(NotFoundError) as caught:
        await client.constants.countries()
    assert caught.value.code == "4040"
    fake.once(
        "/web/v1/system/constants/countries",
        lambda r: httpx.Response(200, json={"code": 2000, "data": [{"code": "VN"}]}),
    )
    items = await client.constants.countries()
    assert items == [ConstantItem(code="VN")]


async def test_html_from_a_gateway(make_client: ClientFactory, fake: FakePortal) -> None:
    client = make_client()
    html = httpx.Response(403, text="<html>blocked</html>", headers={"content-type": "text/html"})
    fake.once("/web/v1/system/auth/login/initiate", lambda r: html)
    with pytest.raises(MalformedResponseError) as caught:
        await client.auth.start("a@b.c", "x")
    assert caught.value.http_status == 403


async def test_both_account_query_shapes(make_client: ClientFactory, fake: FakePortal) -> None:
    from .conftest import sign_in

    for shape in ("accounts", "content"):
        fake.account_shape = shape
        client = make_client()
        await sign_in(client)
        page = await client.accounts.query(page=1, size=20)
        assert (page.number, page.size, page.total_items, page.total_pages) == (1, 20, 45, 3)
        assert page.items[0].biz_id == "acc-20"
        assert page.items[0].model_extra == {"futureField": 20}
        everything = [a.biz_id async for a in client.accounts.iterate(size=20)]
        assert everything == [f"acc-{i}" for i in range(45)]


async def test_shape_a_pages(client: object, fake: FakePortal) -> None:
    from portal_admin.client import PortalClient

    assert isinstance(client, PortalClient)
    page = await client.security.login_history(page=1, size=10)
    assert (page.number, page.total_items, page.total_pages) == (1, 25, 3)
    assert page.items[0].login_result is not None
    assert page.items[0].login_result.is_("SUCCESS")
    history = [h.biz_id async for h in client.security.iterate_login_history(size=10)]
    assert len(history) == 25


def test_enum_items_by_code() -> None:
    a = Account.model_validate(
        {"bizId": "1", "accountStatus": {"code": "ACTIVE", "value": 10010202, "label": "x"}}
    )
    b = Account.model_validate({"bizId": "2", "accountStatus": 35010101})
    c = Account.model_validate({"bizId": "3", "accountStatus": "SUSPENDED", "newThing": [1]})
    assert a.account_status is not None and a.account_status.is_("ACTIVE")
    assert b.account_status is not None and b.account_status.is_("ACTIVE")
    assert c.account_status == EnumItem(code="SUSPENDED", value=35010102)
    assert c.model_extra == {"newThing": [1]}
    portal = Portal.model_validate({"id": 3, "portalType": 10010102, "portalStatus": 10080101})
    assert portal.portal_type is not None and portal.portal_type.is_("TENANT")
    assert portal.portal_status is not None and portal.portal_status.is_("ACTIVE")
    unknown = Account.model_validate({"bizId": "4", "accountStatus": 99999999})
    assert unknown.account_status == EnumItem(code="99999999", value=99999999)
