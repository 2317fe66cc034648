"""Connection failures with a cause of their own get their own sentence: a proxy asking for
credentials, a proxy refusing the tunnel, a certificate that is not the pinned one."""

from __future__ import annotations

import pytest

from portal_admin.client.errors import CertificatePinError, ProxyError
from portal_admin.ui.error_info import describe_error


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
