"""A profile's proxy and certificate pin, end to end: the sandbox over HTTPS (a test CA), a
CONNECT proxy written in the test, a TLS server that records what reaches it."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import ssl
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest
from cryptography import x509
from cryptography.hazmat.primitives.serialization import Encoding

from portal_admin.client import (
    APIConnectionError,
    CertificatePinError,
    MemoryTokenStore,
    PortalClient,
    ProxyError,
)
from portal_admin.connection.doctor import Status, diagnose
from portal_admin.connection.profiles import Profile, ProxyMode, client_options

from .conftest import ACCESS_CODE
from .servers import Certs, ThreadedServer, connect_proxy, free_port

pytestmark = pytest.mark.http


def fingerprint(certs: Certs) -> str:
    """The SHA-256 of the server certificate's DER, as ``AB:CD:...`` (as IT might type it)."""
    cert = x509.load_pem_x509_certificate(certs.cert.read_bytes())
    return hashlib.sha256(cert.public_bytes(Encoding.DER)).digest().hex(":").upper()


WRONG_PIN = "00" * 32


def profile(server: ThreadedServer, certs: Certs, **changes: object) -> Profile:
    return Profile(
        "Test",
        server.url,
        portal_access_code=ACCESS_CODE,
        ca_bundle=str(certs.ca),
        environment="test",  # type: ignore[arg-type]
    ).replace(**changes)


def client(chosen: Profile, **options: object) -> PortalClient:
    opts = client_options(chosen, **options)  # type: ignore[arg-type]
    return PortalClient(chosen.base_url, opts, token_store=MemoryTokenStore())


async def countries(chosen: Profile, **options: object) -> int:
    async with client(chosen, **options) as portal:
        return len(await portal.constants.countries())


# -- proxies ------------------------------------------------------------------------------------


async def test_a_manual_proxy_carries_the_requests(
    tls_sandbox: ThreadedServer, certs: Certs
) -> None:
    async with connect_proxy() as proxy:
        chosen = profile(tls_sandbox, certs, proxy_mode=ProxyMode.MANUAL, proxy_url=proxy.url)
        assert await countries(chosen) > 0
    assert proxy.requests == [f"CONNECT 127.0.0.1:{tls_sandbox.port} HTTP/1.1"]


async def test_the_system_mode_follows_https_proxy_and_no_proxy(
    tls_sandbox: ThreadedServer, certs: Certs, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with connect_proxy() as proxy:
        monkeypatch.setenv("HTTPS_PROXY", proxy.url)
        assert await countries(profile(tls_sandbox, certs)) > 0
        assert len(proxy.requests) == 1 and proxy.requests[0].startswith("CONNECT ")
        monkeypatch.setenv("NO_PROXY", "127.0.0.1")
        assert await countries(profile(tls_sandbox, certs)) > 0
        assert len(proxy.requests) == 1  # bypassed


async def test_the_none_mode_ignores_the_environment(
    tls_sandbox: ThreadedServer, certs: Certs, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HTTPS_PROXY", f"http://127.0.0.1:{free_port()}")  # nothing listens
    with pytest.raises(APIConnectionError):
        await countries(profile(tls_sandbox, certs))
    assert await countries(profile(tls_sandbox, certs, proxy_mode=ProxyMode.NONE)) > 0


async def test_a_proxy_asking_for_credentials_is_named(
    tls_sandbox: ThreadedServer, certs: Certs
) -> None:
    async with connect_proxy("alice", "s3cret") as proxy:
        chosen = profile(tls_sandbox, certs, proxy_mode=ProxyMode.MANUAL, proxy_url=proxy.url)
        with pytest.raises(ProxyError) as caught:
            await countries(chosen)
        assert caught.value.code == "CLIENT.PROXY_AUTH"
        assert caught.value.http_status == 407
        assert "user name and password" in caught.value.message
        assert caught.value.request_id and caught.value.operation_id
        assert len(proxy.requests) == 1  # not retried: the same answer would come again
        # asked and given in memory only: the tunnel opens
        assert await countries(chosen, proxy_auth=("alice", "s3cret")) > 0
    assert "s3cret" not in repr(client_options(chosen, proxy_auth=("alice", "s3cret")))


async def test_a_proxy_refusing_the_tunnel_is_named(
    tls_sandbox: ThreadedServer, certs: Certs
) -> None:
    async with connect_proxy(status="403 Forbidden") as proxy:
        chosen = profile(tls_sandbox, certs, proxy_mode=ProxyMode.MANUAL, proxy_url=proxy.url)
        with pytest.raises(ProxyError) as caught:
            await countries(chosen)
    assert caught.value.code == "CLIENT.PROXY"
    assert caught.value.http_status == 403
    assert "403 Forbidden" in caught.value.message


# -- certificate pins ---------------------------------------------------------------------------


async def test_a_matching_pin_connects(tls_sandbox: ThreadedServer, certs: Certs) -> None:
    chosen = profile(tls_sandbox, certs, pinned_certificates=(WRONG_PIN, fingerprint(certs)))
    assert await countries(chosen) > 0


async def test_a_matching_pin_through_a_proxy(tls_sandbox: ThreadedServer, certs: Certs) -> None:
    async with connect_proxy() as proxy:
        chosen = profile(
            tls_sandbox,
            certs,
            proxy_mode=ProxyMode.MANUAL,
            proxy_url=proxy.url,
            pinned_certificates=(fingerprint(certs),),
        )
        assert await countries(chosen) > 0
        chosen = chosen.replace(pinned_certificates=(WRONG_PIN,))
        with pytest.raises(CertificatePinError):
            await countries(chosen)


@dataclass
class Recorder:
    """A TLS server (the test CA's certificate) that keeps every byte it receives."""

    port: int = 0
    connections: int = 0
    received: bytearray = field(default_factory=bytearray)

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.port}"


@contextlib.asynccontextmanager
async def recorder(certs: Certs) -> AsyncIterator[Recorder]:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(certs.cert, certs.key)
    found = Recorder()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        found.connections += 1
        with contextlib.suppress(Exception):
            while data := await asyncio.wait_for(reader.read(65536), 5):
                found.received += data
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0, ssl=context)
    found.port = server.sockets[0].getsockname()[1]
    try:
        yield found
    finally:
        server.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(server.wait_closed(), 5)


async def test_a_pin_mismatch_sends_nothing(certs: Certs) -> None:
    async with recorder(certs) as server:
        chosen = Profile(
            "Pinned",
            server.url,
            portal_access_code="GATEWAY-CODE",
            ca_bundle=str(certs.ca),
            pinned_certificates=(WRONG_PIN,),
        )
        with pytest.raises(CertificatePinError) as caught:
            await countries(chosen)
        await asyncio.sleep(0.1)
    assert caught.value.code == "CLIENT.TLS_PIN"
    assert "not the one the connection profile pins" in caught.value.message
    assert fingerprint(certs).lower() in caught.value.message
    assert caught.value.operation_id and caught.value.request_id
    assert server.received == b""  # the handshake only: not a byte of HTTP, no access code
    assert server.connections == 1  # not retried


async def test_a_pin_needs_verification_first(certs: Certs) -> None:
    """A pin is checked on top of the CA, not instead: the right pin without the CA fails."""
    async with recorder(certs) as server:
        chosen = Profile("Pinned", server.url, pinned_certificates=(fingerprint(certs),))
        with pytest.raises(APIConnectionError) as caught:
            await countries(chosen)
    assert not isinstance(caught.value, CertificatePinError)
    assert caught.value.code == "CLIENT.CONNECTION"


async def test_the_ca_bundle_alone_is_trusted(
    tls_sandbox: ThreadedServer, certs: Certs, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A profile's CA bundle replaces the system store: what the store trusts no longer is."""
    import certifi

    monkeypatch.setenv("SSL_CERT_FILE", str(certs.ca))  # the "system store" trusts the test CA
    assert await countries(profile(tls_sandbox, certs, ca_bundle=None)) > 0
    with pytest.raises(APIConnectionError):
        await countries(profile(tls_sandbox, certs, ca_bundle=certifi.where()))


# -- the doctor ---------------------------------------------------------------------------------


async def test_the_doctor_reports_the_pin(tls_sandbox: ThreadedServer, certs: Certs) -> None:
    ok = await diagnose(
        tls_sandbox.url, access_code=ACCESS_CODE, ca_bundle=str(certs.ca), pins=[fingerprint(certs)]
    )
    tls = ok.step("tls")
    assert tls is not None and tls.status is Status.OK, ok.to_text()
    assert tls.details["pin"] == "ok"
    bad = await diagnose(
        tls_sandbox.url, access_code=ACCESS_CODE, ca_bundle=str(certs.ca), pins=[WRONG_PIN]
    )
    tls = bad.step("tls")
    assert tls is not None and tls.status is Status.FAILED
    assert tls.code == "tls.pin_mismatch" and tls.details["pin"] == "mismatch"
    envelope = bad.step("envelope")
    assert envelope is not None and envelope.status is Status.SKIPPED
