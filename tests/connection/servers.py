"""Servers the doctor tests talk to: the sandbox under uvicorn in a thread (optionally TLS),
small asyncio HTTP servers that are not the API, an HTTP CONNECT proxy, and certificates."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import datetime as dt
import ipaddress
import socket
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import uvicorn
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

# -- certificates -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Certs:
    """A private CA and a server certificate it signed (for 127.0.0.1 and portal.test)."""

    ca: Path
    cert: Path
    key: Path


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def make_certs(folder: Path, days_left: int = 90) -> Certs:
    """A CA ("Doctor Test CA") and a leaf for 127.0.0.1 and portal.test, as PEM files; the
    leaf ends in ``days_left`` days (negative: it has expired)."""
    now = dt.datetime.now(dt.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_cert = (
        x509.CertificateBuilder()
        .subject_name(_name("Doctor Test CA"))
        .issuer_name(_name("Doctor Test CA"))
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=365))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), False)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(_name("portal.test"))
        .issuer_name(ca_cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=30))
        .not_valid_after(now + dt.timedelta(days=days_left, hours=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("portal.test"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), False
        )
        .sign(ca_key, hashes.SHA256())
    )
    paths = Certs(folder / "ca.pem", folder / "server.pem", folder / "server.key")
    paths.ca.write_bytes(ca_cert.public_bytes(serialization.Encoding.PEM))
    paths.cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    paths.key.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return paths


# -- the sandbox under uvicorn, in a thread -----------------------------------------------------


class ThreadedServer:
    """An ASGI app served by uvicorn on 127.0.0.1 (a free port), in a thread of its own."""

    def __init__(self, app: Any, certs: Certs | None = None) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        options: dict[str, Any] = {}
        if certs is not None:
            options.update(ssl_certfile=str(certs.cert), ssl_keyfile=str(certs.key))
        config = uvicorn.Config(
            app, log_level="warning", lifespan="off", ws="none", access_log=False, **options
        )
        self.server = uvicorn.Server(config)
        self.scheme = "https" if certs else "http"
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"{self.scheme}://127.0.0.1:{self.port}"

    def start(self) -> ThreadedServer:
        self.thread.start()
        for _ in range(500):
            if self.server.started:
                return self
            threading.Event().wait(0.01)
        raise RuntimeError("uvicorn did not start")

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


# -- small asyncio servers ----------------------------------------------------------------------


@dataclass
class Served:
    """A server running in the test's loop: its port and what it received."""

    port: int
    requests: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


async def _read_head(reader: asyncio.StreamReader) -> tuple[str, dict[str, str]]:
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
    first, *lines = head.split("\r\n")
    headers = {}
    for line in lines:
        name, sep, value = line.partition(":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    return first, headers


@contextlib.asynccontextmanager
async def http_server(
    status: str, body: bytes, content_type: str, extra: str = ""
) -> AsyncIterator[Served]:
    """Answers every request with the same page (a captive portal, a web site...)."""
    served = Served(0)

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(Exception):
            first, _ = await _read_head(reader)
            served.requests.append(first)
            writer.write(
                f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\n{extra}"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
                + body
            )
            await writer.drain()
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    served.port = server.sockets[0].getsockname()[1]
    try:
        yield served
    finally:
        server.close()
        await server.wait_closed()


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(Exception):
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    with contextlib.suppress(Exception):
        writer.close()


@contextlib.asynccontextmanager
async def connect_proxy(
    user: str | None = None, password: str | None = None, *, status: str | None = None
) -> AsyncIterator[Served]:
    """An HTTP CONNECT proxy; with ``user`` it wants Basic credentials (else 407); ``status``
    answers every request with that status instead."""
    served = Served(0)
    expected = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode() if user else None

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            first, headers = await _read_head(reader)
            served.requests.append(first)
            if status is not None:
                writer.write(f"HTTP/1.1 {status}\r\nContent-Length: 0\r\n\r\n".encode())
                return
            if expected and headers.get("proxy-authorization") != expected:
                writer.write(
                    b"HTTP/1.1 407 Proxy Authentication Required\r\n"
                    b'Proxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n'
                )
                return
            method, target, _ = first.split(" ", 2)
            if method != "CONNECT":
                writer.write(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n")
                return
            host, _, port = target.rpartition(":")
            up_reader, up_writer = await asyncio.open_connection(host.strip("[]"), int(port))
            writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
            await writer.drain()
            await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))
        except Exception:
            pass
        finally:
            with contextlib.suppress(Exception):
                await writer.drain()
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    served.port = server.sockets[0].getsockname()[1]
    try:
        yield served
    finally:
        server.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(server.wait_closed(), 5)


def free_port() -> int:
    """A loopback port nothing listens on (bound, then closed)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
