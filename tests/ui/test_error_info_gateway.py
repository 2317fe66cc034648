"""A gateway's page instead of the server (CLIENT.GATEWAY, #31) is said as the connection
doctor says it, with the status, in the interface's language; the page's title stays in the
English detail."""

from __future__ import annotations

import httpx
import pytest
from PySide6.QtWidgets import QApplication

from portal_admin.client import ClientOptions, GatewayError, PortalClient, RetryPolicy
from portal_admin.ui.error_info import describe_error
from portal_admin.ui.i18n.translators import LanguageManager

PAGE = b"<html><head><title>504 Gateway Time-out</title></head><body>nginx</body></html>"


async def gateway_error() -> GatewayError:
    """The error a client gets from a gateway answering 504 with its page."""
    transport = httpx.MockTransport(
        lambda request: httpx.Response(504, content=PAGE, headers={"content-type": "text/html"})
    )
    options = ClientOptions(retry=RetryPolicy(attempts=1))
    client = PortalClient("https://portal.example.com", options, transport=transport)
    try:
        with pytest.raises(GatewayError) as caught:
            await client.constants.countries()
    finally:
        await client.aclose()
    return caught.value


async def test_the_gateway_is_named_with_the_status(qapp: QApplication) -> None:
    info = describe_error(await gateway_error())
    assert info.summary.startswith("A gateway or proxy answered instead of the server (HTTP 504)")
    assert "Try again later" in info.summary and "administrators" in info.summary
    assert "not an envelope" not in info.summary
    assert info.code == "CLIENT.GATEWAY" and info.http_status == 504 and info.request_id
    assert "'504 Gateway Time-out'" in info.message  # the page's title, in the detail
    assert not info.unexpected


async def test_the_sentence_is_translated(qapp: QApplication) -> None:
    error = await gateway_error()
    english = describe_error(error).summary
    languages = LanguageManager()
    try:
        for code, word in (
            ("ja", "ゲートウェイ"),
            ("zh", "网关"),
            ("zh-Hant", "閘道"),
            ("vi", "gateway"),
        ):
            languages.set_language(code)
            summary = describe_error(error).summary
            assert summary != english and word in summary, code
            assert "HTTP 504" in summary and "%1" not in summary, code
    finally:
        languages.set_language("en")
