"""Ids cannot steer requests (#27): an id goes into a URL path as one percent-encoded segment,
or is refused with InvalidIdError before anything is sent."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qs, unquote

import httpx
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from portal_admin.client import InvalidIdError, MemoryTokenStore, NotFoundError, PortalClient
from portal_admin.client.transport import url_path
from portal_admin.protocol import operations
from portal_admin.protocol.operations import ID_PATTERN, OPERATIONS, InvalidPathParameter, is_id
from portal_admin.sandbox.ids import biz_id

from .conftest import ClientFactory, sign_in
from .fake_server import FakePortal
from .sandbox_support import options

#: The ids the issue names, and their neighbours.
HOSTILE = (
    "../../../sandbox/mailbox",
    "x?to=admin@sandbox.test",
    "a/b",
    "a\x00b",
    "a\r\nX-Injected: 1",
    "a\nb",
    "%2e%2e",
    "%2F",
    ".",
    "..",
    "",
    " ACC1",
    "ACC1 ",
    "ACC1\n",
    "a#b",
    "a\\b",
    "Ａ1",  # a full-width letter
    "x" * 129,
)

#: Ids a real server or the sandbox gives.
REAL = (
    "ACC7F3A0011223344",
    "U1",
    "123456789",
    "0b7d2c1e-6f1a-4c55-9a8e-3f1f0b2a9c11",
    "role_admin.v2",
    "x" * 128,
)

ids = st.one_of(
    st.text(),
    st.text(alphabet=st.characters(codec="ascii")),
    st.from_regex(ID_PATTERN, fullmatch=True),
)


def test_every_sandbox_id_is_an_id() -> None:
    rng = random.Random(27)
    for prefix in ("ACC", "INS", "ROL", "WSP", "LGH", "INV", "CHT", "CHN"):
        for _ in range(50):
            assert is_id(biz_id(prefix, rng))
            assert is_id(biz_id(prefix))


@pytest.mark.parametrize("value", REAL)
def test_real_ids_fill_the_path_unchanged(value: str) -> None:
    path = OPERATIONS["accounts.get"].url_path(userBizId=value)
    assert path == f"/web/v1/system/accounts/admin/{value}"


@pytest.mark.parametrize("value", HOSTILE)
def test_hostile_ids_are_refused_by_the_protocol(value: str) -> None:
    with pytest.raises(InvalidPathParameter):
        OPERATIONS["roles.get"].url_path(roleBizId=value)


def test_missing_and_unknown_path_parameters_are_refused() -> None:
    with pytest.raises(InvalidPathParameter):
        OPERATIONS["accounts.get"].url_path()
    with pytest.raises(InvalidPathParameter):
        OPERATIONS["accounts.get"].url_path(userBizId="U1", other="x")
    with pytest.raises(InvalidIdError) as caught:
        url_path(OPERATIONS["accounts.get"], {"userBizId": "a/b"})
    assert caught.value.code == "CLIENT.INVALID_ID"
    assert caught.value.operation_id == "accounts.get"


class Recorder:
    """A signed-in client on the fake portal, and the requests that reached it."""

    def __init__(self) -> None:
        self.fake = FakePortal()
        self.client = PortalClient(
            "http://fake.test",
            options(access_code="CODE", client_hash="hash-1"),
            transport=self.fake.transport(),
            token_store=MemoryTokenStore(),
        )


CALLS: dict[str, Callable[[PortalClient, Any], Awaitable[Any]]] = {
    "accounts.get": lambda client, value: client.accounts.get(value),
    "roles.get": lambda client, value: client.roles.get(value),
}


async def _one(recorder: Recorder, operation_id: str, value: str) -> None:
    """Call the operation with ``value``: refused with nothing sent, or sent to exactly its
    path with ``value`` as the last segment."""
    before = len(recorder.fake.requests)
    try:
        await CALLS[operation_id](recorder.client, value)
    except InvalidIdError as exc:
        assert exc.code == "CLIENT.INVALID_ID"
        assert exc.http_status is None and exc.request_id is None
        assert len(recorder.fake.requests) == before, "a refused id sent something"
        assert not is_id(value)
        return
    except NotFoundError:  # the fake knows no account or role: it was sent
        pass
    sent = recorder.fake.requests[before:]
    assert len(sent) == 1, [r.url for r in sent]
    request = sent[0]
    prefix = OPERATIONS[operation_id].path.split("{", 1)[0].encode()
    raw = request.url.raw_path
    assert request.url.query == b""
    assert raw.startswith(prefix)
    segment = raw[len(prefix) :]
    assert b"/" not in segment and b"?" not in segment and b"#" not in segment
    assert unquote(segment.decode("ascii")) == value
    assert operations.match(request.method, request.url.path) is OPERATIONS[operation_id]


def test_an_id_is_one_segment_of_the_operations_path_or_nothing_is_sent() -> None:
    loop = asyncio.new_event_loop()
    recorder = Recorder()
    try:
        loop.run_until_complete(sign_in(recorder.client))

        @settings(
            max_examples=300,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        )
        @given(operation_id=st.sampled_from(sorted(CALLS)), value=ids)
        @example(operation_id="accounts.get", value="../../../sandbox/mailbox")
        @example(operation_id="accounts.get", value="x?to=admin@sandbox.test")
        @example(operation_id="accounts.get", value="a\x00b")
        @example(operation_id="roles.get", value="a\r\nb")
        @example(operation_id="roles.get", value="ROL0123456789ABCDEF")
        def check(operation_id: str, value: str) -> None:
            loop.run_until_complete(_one(recorder, operation_id, value))

        check()
        for value in HOSTILE + REAL:
            loop.run_until_complete(_one(recorder, "accounts.get", value))
        sent = [r for r in recorder.fake.requests if "/sandbox/" in r.url.path]
        assert sent == []
    finally:
        loop.run_until_complete(recorder.client.aclose())
        loop.close()


async def test_a_refused_id_sends_nothing_not_even_a_token_refresh(
    make_client: ClientFactory, fake: FakePortal
) -> None:
    now = [1000.0]
    client = make_client(clock=lambda: now[0], refresh_skew=60.0)
    await sign_in(client)
    now[0] += 3600  # the access token is due for a refresh
    before = len(fake.requests)
    with pytest.raises(InvalidIdError):
        await client.accounts.get("../../../sandbox/mailbox")
    assert len(fake.requests) == before
    with pytest.raises(NotFoundError):  # a real id: the refresh, then the read
        await client.accounts.get("ACC1")
    paths = [r.url.path for r in fake.requests[before:]]
    assert "/web/v1/system/auth/token/refresh" in paths  # it was due: refreshed for a real id
    assert paths[-1] == "/web/v1/system/accounts/admin/ACC1"


async def test_before_the_fix_the_path_was_steered() -> None:
    """What the issue saw, shown on a bare httpx client: an id put into the path unescaped
    reaches the sandbox's mailbox (so the check above is what stops it)."""
    seen: list[httpx.URL] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.url)
        return httpx.Response(404)

    async with httpx.AsyncClient(
        base_url="http://fake.test", transport=httpx.MockTransport(handler)
    ) as http:
        template = OPERATIONS["accounts.get"].path
        await http.get(template.format(userBizId="../../../sandbox/mailbox"))
    assert seen[0].path == "/web/v1/sandbox/mailbox"


def test_the_sandbox_helpers_query_values_stay_one_value() -> None:
    """``/sandbox/mailbox?to=`` and ``/sandbox/totp?email=`` (cli/signin.py, the desktop's
    sandbox tools) pass the address as a query parameter: whatever it holds, the request goes
    to that path with exactly that one value."""
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"success": True, "code": "2000", "data": []})

    loop = asyncio.new_event_loop()
    http = httpx.AsyncClient(base_url="http://fake.test", transport=httpx.MockTransport(handler))
    try:

        @settings(max_examples=200, deadline=None)
        @given(path=st.sampled_from(["/sandbox/mailbox", "/sandbox/totp"]), value=st.text())
        def check(path: str, value: str) -> None:
            name = "to" if path.endswith("mailbox") else "email"
            loop.run_until_complete(http.get(path, params={name: value}))
            request = seen.pop()
            assert request.url.path == path
            assert parse_qs(request.url.query.decode("ascii"), keep_blank_values=True) == (
                {name: [value]} if value else {name: [""]}
            )

        check()
    finally:
        loop.run_until_complete(http.aclose())
        loop.close()
