"""TLS: a loopback HTTPS sandbox with a certificate from a CA made here. The client refuses it
until that CA is its bundle (``ClientOptions.tls.ca_bundle``); plain http to a host that is not
loopback is refused before anything is sent."""

from __future__ import annotations

import datetime as dt
import ipaddress
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from portal_admin.client import (
    APIConnectionError,
    ClientOptions,
    ConfigurationError,
    MemoryTokenStore,
    PortalClient,
    TLSSettings,
)
from portal_admin.sandbox import SandboxConfig, create_app


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def make_ca_and_server(folder: Path) -> tuple[Path, Path, Path]:
    """A CA, and a server certificate for 127.0.0.1 and localhost signed by it (PEM files)."""
    now = dt.datetime.now(dt.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_ski = x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key())
    ca = (
        x509.CertificateBuilder()
        .subject_name(_name("portal-admin test CA"))
        .issuer_name(_name("portal-admin test CA"))
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(ca_ski, critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    server = (
        x509.CertificateBuilder()
        .subject_name(_name("127.0.0.1"))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ca_ski), critical=False
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    ca_file, cert_file, key_file = folder / "ca.pem", folder / "server.pem", folder / "key.pem"
    ca_file.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    cert_file.write_bytes(server.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return ca_file, cert_file, key_file


@pytest.fixture(scope="module")
def https_sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The sandbox over HTTPS on a free loopback port; yields its URL and the CA file."""
    folder = tmp_path_factory.mktemp("tls")
    ca_file, cert_file, key_file = make_ca_and_server(folder)
    app = create_app(SandboxConfig(seed_accounts=3, test_clock=True))
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        app,
        log_level="critical",
        access_log=False,
        lifespan="off",
        ssl_certfile=str(cert_file),
        ssl_keyfile=str(key_file),
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.02)
    assert server.started
    try:
        yield f"https://127.0.0.1:{port}", ca_file
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()
        app.state.sandbox.db.close()


def _client(url: str, tls: TLSSettings) -> PortalClient:
    return PortalClient(
        url,
        ClientOptions(access_code="SANDBOX", tls=tls, client_hash="tls-test"),
        token_store=MemoryTokenStore(),
    )


async def test_self_signed_server_refused_without_its_ca(https_sandbox: tuple[str, Path]) -> None:
    url, _ = https_sandbox
    async with _client(url, TLSSettings()) as client:
        with pytest.raises(APIConnectionError) as refused:
            await client.secure_channel.public_key()
    assert refused.value.code == "CLIENT.CONNECTION"
    assert refused.value.http_status is None  # nothing was answered: the handshake failed


async def test_works_with_the_ca_bundle(https_sandbox: tuple[str, Path]) -> None:
    url, ca_file = https_sandbox
    async with _client(url, TLSSettings(ca_bundle=str(ca_file))) as client:
        key = await client.secure_channel.public_key()
        assert key.key_id.startswith("sbx-")
        challenge = await client.auth.start("admin@sandbox.test", "Sandbox-Admin-2026!")
        assert challenge.methods


async def test_another_ca_is_not_enough(https_sandbox: tuple[str, Path], tmp_path: Path) -> None:
    url, _ = https_sandbox
    other_ca, _, _ = make_ca_and_server(tmp_path)
    async with _client(url, TLSSettings(ca_bundle=str(other_ca))) as client:
        with pytest.raises(APIConnectionError):
            await client.secure_channel.public_key()


@pytest.mark.parametrize(
    "url", ["http://portal.example.com", "http://10.1.2.3:8080", "http://[2001:db8::1]/"]
)
async def test_plain_http_to_a_remote_host_is_refused_before_sending(url: str) -> None:
    with pytest.raises(ConfigurationError) as refused:  # raised by the constructor: no client
        PortalClient(url, ClientOptions(access_code="X"), token_store=MemoryTokenStore())
    assert "http" in str(refused.value).lower()


@pytest.mark.parametrize("url", ["http://127.0.0.1:8765", "http://localhost:1", "http://[::1]:2"])
def test_plain_http_to_loopback_is_allowed(url: str) -> None:
    client = PortalClient(url, ClientOptions(), token_store=MemoryTokenStore())
    assert str(client.base_url).startswith("http://")
    assert (
        PortalClient(
            "http://portal.example.com",
            ClientOptions(tls=TLSSettings(allow_insecure_http=True)),
            token_store=MemoryTokenStore(),
        ).base_url.host
        == "portal.example.com"
    )
