"""Connection failures with a cause of their own get their own sentence: a proxy asking for
credentials, a proxy refusing the tunnel, a certificate that is not the pinned one; and so do
profile settings the client cannot use (address, CA bundle, pin, proxy), in every language."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PySide6.QtWidgets import QApplication

from portal_admin.client.errors import CertificatePinError, ConfigurationError, ProxyError
from portal_admin.client.options import ClientOptions, TLSSettings, check_url
from portal_admin.ui.error_info import CONFIG_CODES, describe_error
from portal_admin.ui.i18n.translators import LanguageManager


@pytest.mark.parametrize(
    ("error", "words"),
    [
        (ProxyError("proxy says 407", code="CLIENT.PROXY_AUTH", http_status=407), "user name"),
        (ProxyError("proxy says 403", code="CLIENT.PROXY"), "refused"),
        (CertificatePinError("not the pinned certificate"), "pins"),
    ],
)
def test_each_cause_is_named(error: Exception, words: str) -> None:
    info = describe_error(error)
    assert words in info.summary
    assert info.code == getattr(error, "code", None)
    assert "could not be reached" not in info.summary


@pytest.mark.parametrize(
    ("call", "code", "words"),
    [
        (lambda: check_url("ftp://portal.example.com", TLSSettings(), in_process=False),
         "CLIENT.CONFIG_URL", "server address"),
        (lambda: TLSSettings(pinned_sha256=("not-a-fingerprint",)), "CLIENT.CONFIG_PIN", "pin"),
        (lambda: ClientOptions(proxy="socks5://p:1"),
         "CLIENT.CONFIG_PROXY", "proxy address"),
    ],
)  # fmt: skip
def test_unusable_settings_are_named(call: Callable[[], object], code: str, words: str) -> None:
    """A profile setting the client cannot use says which, not "the server did not accept"."""
    with pytest.raises(ConfigurationError) as caught:
        call()
    assert caught.value.code == code
    info = describe_error(caught.value)
    assert words in info.summary and "did not accept" not in info.summary
    assert info.message  # the English detail stays with it


def test_every_unusable_setting_is_translated(qapp: QApplication) -> None:
    languages = LanguageManager()
    try:
        for code in ("zh", "zh-Hant", "ja", "vi"):
            languages.set_language(code)
            for setting, english in CONFIG_CODES.items():
                info = describe_error(ConfigurationError("detail", code=setting))
                assert info.summary and info.summary != english, (code, setting)
    finally:
        languages.set_language("en")
