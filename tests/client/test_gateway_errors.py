"""A gateway's 502/503/504 page is a GatewayError (CLIENT.GATEWAY) with its status and title,
not a malformed answer: over a MockTransport, through the Secure Channel's decoder, and over
loopback from a tiny server; a 200 page stays malformed; reads are retried on it as on other
5xx; the page's title is read bounded and made safe to show."""

from __future__ import annotations

import time

import httpx
import pytest

from connection.servers import http_server
from portal_admin.client import (
    ClientOptions,
    GatewayError,
    MalformedResponseError,
    PortalClient,
    RetryPolicy,
    ServerError,
)
from portal_admin.client.events import ChangeFinished
from portal_admin.client.gateway import clean_text, is_html, page_title
from portal_admin.client.invoker import should_retry
from support.portal import FAST_RETRY

from .conftest import ClientFactory, sign_in
from .fake_server import FakePortal, envelope

ONCE = RetryPolicy(attempts=1)
COUNTRIES = "/web/v1/system/constants/countries"
CHANGE = "/web/v1/system/auth/password/change"

PAGE = (
    b"<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n"
    b"<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n"
)


def page(status: int, body: bytes = PAGE, content_type: str = "text/html") -> httpx.Response:
    return httpx.Response(status, content=body, headers={"content-type": content_type})


@pytest.mark.parametrize("status", [502, 503, 504])
async def test_a_gateway_page_is_a_gateway_error(
    make_client: ClientFactory, fake: FakePortal, status: int
) -> None:
    client = make_client(retry=ONCE)
    fake.once(COUNTRIES, lambda r: page(status))
    with pytest.raises(GatewayError) as caught:
        await client.constants.countries()
    error = caught.value
    assert isinstance(error, ServerError) and not isinstance(error, MalformedResponseError)
    assert error.code == "CLIENT.GATEWAY" and error.http_status == status
    assert error.title == "502 Bad Gateway" and error.html
    assert error.request_id and error.operation_id == "constants.countries"
    assert "gateway or proxy" in error.message and f"HTTP {status}" in error.message
    assert "'502 Bad Gateway'" in error.message and "try again later" in error.message
    assert "MALFORMED" not in str(error) and "not an envelope" not in str(error)


async def test_a_gateway_answer_that_is_not_a_page(
    make_client: ClientFactory, fake: FakePortal
) -> None:
    client = make_client(retry=ONCE)
    fake.once(COUNTRIES, lambda r: page(503, b"Service Unavailable", "text/plain"))
    with pytest.raises(GatewayError) as caught:
        await client.constants.countries()
    assert caught.value.http_status == 503 and not caught.value.html and not caught.value.title
    fake.once(COUNTRIES, lambda r: httpx.Response(502, json={"error": "upstream"}))
    with pytest.raises(GatewayError):  # JSON, but no envelope: still the gateway's
        await client.constants.countries()


@pytest.mark.parametrize("status", [200, 403, 500])
async def test_a_page_with_another_status_stays_malformed(
    make_client: ClientFactory, fake: FakePortal, status: int
) -> None:
    client = make_client(retry=ONCE)
    fake.once(COUNTRIES, lambda r: page(status))
    with pytest.raises(MalformedResponseError) as caught:
        await client.constants.countries()
    assert not isinstance(caught.value, GatewayError)
    assert caught.value.code == "CLIENT.MALFORMED_RESPONSE"
    assert caught.value.http_status == status


async def test_an_error_envelope_with_502_is_still_the_servers(
    make_client: ClientFactory, fake: FakePortal
) -> None:
    client = make_client(retry=ONCE)
    fake.once(COUNTRIES, lambda r: httpx.Response(502, json=envelope(None, "5000")))
    with pytest.raises(ServerError) as caught:
        await client.constants.countries()
    assert not isinstance(caught.value, GatewayError) and caught.value.code == "5000"


async def test_reads_are_retried_on_a_gateway_page_like_other_5xx(
    make_client: ClientFactory, fake: FakePortal
) -> None:
    client = make_client()  # FAST_RETRY: 3 attempts
    fake.once(COUNTRIES, lambda r: page(502))
    fake.once(COUNTRIES, lambda r: page(504))
    assert len(await client.constants.countries()) == 2  # the third attempt answered
    assert fake.hits[COUNTRIES] == 3
    for _ in range(3):
        fake.once(COUNTRIES, lambda r: page(503))
    with pytest.raises(GatewayError):
        await client.constants.countries()
    assert fake.hits[COUNTRIES] == 6  # three more attempts, then the error
    error = GatewayError("x", http_status=502, operation_id="constants.countries")
    assert should_retry(error, "constants.countries")


async def test_writes_are_not_retried_and_the_outcome_is_unknown(
    make_client: ClientFactory, fake: FakePortal
) -> None:
    client = make_client()
    await sign_in(client)
    finished: list[ChangeFinished] = []
    client.events.subscribe(finished.append, ChangeFinished)
    path = "/web/v1/system/roles/delete"
    fake.once(path, lambda r: page(502))
    with pytest.raises(GatewayError):
        await client.roles.delete("role-1")
    assert fake.hits[path] == 1
    assert [(c.outcome, c.code, c.http_status) for c in finished] == [
        ("unknown", "CLIENT.GATEWAY", 502)  # the server behind the gateway may have done it
    ]


async def test_the_secure_channel_decoder_names_the_gateway(
    make_client: ClientFactory, fake: FakePortal
) -> None:
    client = make_client()
    await sign_in(client)
    fake.once(CHANGE, lambda r: page(502))
    with pytest.raises(GatewayError) as caught:
        await client.auth.change_password("old", "new")
    assert caught.value.http_status == 502 and caught.value.title == "502 Bad Gateway"
    fake.once(CHANGE, lambda r: page(200))
    with pytest.raises(MalformedResponseError) as malformed:
        await client.auth.change_password("old", "new")
    assert not isinstance(malformed.value, GatewayError)


async def test_over_loopback_from_a_gateway_answering_502() -> None:
    async with http_server("502 Bad Gateway", PAGE, "text/html; charset=utf-8") as gateway:
        options = ClientOptions(access_code="CODE", retry=FAST_RETRY)
        async with PortalClient(gateway.url, options) as client:
            with pytest.raises(GatewayError) as caught:
                await client.constants.countries()
    assert caught.value.http_status == 502 and caught.value.title == "502 Bad Gateway"
    assert len(gateway.requests) == 3  # a read: retried like any 502


# -- the page's title ---------------------------------------------------------------------


def test_titles_read_safely() -> None:
    assert page_title(b"<html><TITLE lang='en'>  Bad\n  Gateway </TITLE>") == "Bad Gateway"
    assert page_title(b"<html><title>A &amp; B &lt;x&gt;</title>") == "A & B <x>"
    assert page_title(b"<titlebar>no</titlebar><title>yes</title>") == "yes"
    assert page_title(b"<html><body>no title</body></html>") == ""
    assert page_title(b"<title>never closed") == ""
    # a terminal's escape sequence, a bidirectional override, a NUL, an encoded escape
    hostile = b"<title>\x1b[31mred\x1b[0m \xe2\x80\xaeevil\x00 &#27;[2J x</title>"
    assert page_title(hostile) == "[31mred[0m evil [2J x"
    assert page_title("<title>Lỗi cổng 网关</title>".encode()) == "Lỗi cổng 网关"
    assert page_title(b"<title>\xff\xfe</title>") == "\ufffd\ufffd"
    long = page_title(b"<title>" + b"x" * 5000 + b"</title>")
    assert long == ""  # past the bound: no title rather than reading on
    cut = page_title(b"<title>" + b"word " * 100 + b"</title>")
    assert len(cut) == 120 and cut.endswith("…")
    assert page_title(b" " * 70_000 + b"<title>late</title>") == ""  # only the first 64 KiB
    assert clean_text("a\u200bb\tc") == "ab c"


def test_title_search_is_bounded_on_hostile_pages() -> None:
    started = time.perf_counter()
    assert page_title(b"<title " * 200_000) == ""
    assert page_title(b"<title>" + b"<" * 1_000_000) == ""
    assert page_title(b"<titl" * 200_000) == ""
    # a search that backtracks takes minutes on these; a loaded machine, a second or two
    assert time.perf_counter() - started < 15


def test_html_is_recognised_by_type_or_start() -> None:
    assert is_html("text/html; charset=utf-8", b"")
    assert is_html("application/octet-stream", b"\n  <!DOCTYPE HTML><html>")
    assert not is_html("application/json", b'{"code": "2000"}')
    assert not is_html("text/plain", b"Bad Gateway")
