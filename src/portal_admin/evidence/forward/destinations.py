"""Where messages go: syslog over TLS or TCP (RFC 5425 octet counting), a file, Splunk HEC.

Each destination's :meth:`Destination.send` returns only once the destination accepted the
batch: for syslog, the bytes were written and flushed to the connection (and the connection
was still open afterwards), and :meth:`Destination.finish` confirms at the end of a run that
the receiver read everything (it answers the end of the stream by closing its side: a reset
or no answer instead is a broken connection); for a file, written and fsynced; for HEC, the
collector answered ``Success`` and, when it acknowledges (indexer acknowledgement), the ack
was seen. Anything else raises :class:`DestinationError`, with a sentence for people.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import select
import socket
import ssl
import time
import urllib.parse
import urllib.request
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from portal_admin.files import json_input

#: Seconds to connect, and for one write or HTTP exchange.
TIMEOUT = 30.0
#: Seconds a connection must have stayed open before its end is confirmed: a receiver that
#: refuses a client (a certificate it does not accept, after a TLS 1.3 handshake that the
#: client saw succeed) hangs up at once, and ending the stream looks the same whether it read
#: everything or refused (rsyslog answers close_notify by closing, without its own).
HOLD = 0.25
#: Seconds a receiver has to close its side after the end of the stream.
FINISH = 10.0
DEFAULT_TOKEN_ENV = "PORTAL_ADMIN_HEC_TOKEN"
SCHEMES = ("syslog+tls", "syslog+tcp", "file", "hec+https")


class DestinationError(Exception):
    """The destination did not accept a batch (down, refused, closed the connection).

    ``broken``: the connection broke after earlier writes on it were counted as accepted,
    so those may be lost too (syslog has no acknowledgement): the caller re-sends them.
    """

    def __init__(self, message: str, *, broken: bool = False) -> None:
        super().__init__(message)
        self.broken = broken


class UnusableDestination(ValueError):
    """A destination URL or option that cannot be used (nothing was sent)."""


@dataclass(frozen=True)
class Options:
    """How to reach a destination beyond its URL."""

    ca_bundle: str | None = None
    client_cert: str | None = None
    client_key: str | None = None
    token_env: str = DEFAULT_TOKEN_ENV
    ack_timeout: float = 120.0


class Destination(Protocol):
    """A place messages are sent to."""

    #: The URL without secrets, as cursors and messages for people name it.
    label: str
    #: Whether a broken connection can lose what it had accepted (syslog: no acknowledgement).
    unacknowledged: bool
    #: How each message is wrapped (``formats.message``): ``syslog``, ``line`` or ``hec``.
    envelope: str

    def send(self, messages: Sequence[bytes]) -> None:
        """Deliver ``messages`` (each one message, no framing); raise DestinationError."""

    def finish(self) -> None:
        """End the connection, if any, once the receiver confirmed it read everything sent
        on it; raise DestinationError (``broken``) when it did not."""

    def close(self) -> None:
        """Close the connection, if any, at once (after an error; never raises)."""


def _tls_context(options: Options) -> ssl.SSLContext:
    try:
        context = ssl.create_default_context(cafile=options.ca_bundle)
        if options.client_cert:
            context.load_cert_chain(options.client_cert, options.client_key)
    except (OSError, ssl.SSLError) as exc:
        raise UnusableDestination(f"the TLS files cannot be used: {exc}") from None
    return context


def _host_port(parts: urllib.parse.SplitResult, url: str) -> tuple[str, int]:
    try:
        port = parts.port
    except ValueError:
        port = None
    if not parts.hostname or port is None:
        raise UnusableDestination(f"{url}: a HOST:PORT is needed")
    return parts.hostname, port


def label_of(url: str) -> str:
    """``url`` without user, password, query or fragment (what may be shown and kept)."""
    parts = urllib.parse.urlsplit(url)
    netloc = parts.netloc.rsplit("@", 1)[-1]
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def open_destination(url: str, options: Options, *, channel: str = "") -> Destination:
    """The destination ``url`` names (checked here; connections open on first send)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in SCHEMES:
        raise UnusableDestination(
            f"{label_of(url)}: unknown destination (use {', '.join(s + '://' for s in SCHEMES)})"
        )
    if parts.username or parts.password or parts.query:
        raise UnusableDestination(
            f"{label_of(url)}: no user, password or query in the URL (a HEC token comes from"
            f" the environment variable {options.token_env})"
        )
    if parts.scheme == "file":
        if parts.netloc not in ("", "localhost"):
            raise UnusableDestination(f"{label_of(url)}: a file:///PATH on this computer")
        return FileDestination(Path(urllib.request.url2pathname(parts.path)), label_of(url))
    host, port = _host_port(parts, url)
    if parts.scheme == "hec+https":
        token = os.environ.get(options.token_env, "").strip()
        if not token:
            raise UnusableDestination(
                f"{label_of(url)}: the HEC token is read from the environment variable"
                f" {options.token_env}, which is not set"
            )
        return HecDestination(
            host, port, token, _tls_context(options), label_of(url), channel, options
        )
    tls = _tls_context(options) if parts.scheme == "syslog+tls" else None
    return SyslogDestination(host, port, tls, label_of(url))


class SyslogDestination:
    """RFC 5425 framing (octet counting: ``LENGTH SP MESSAGE``) over TLS, or over plain TCP
    (RFC 6587's octet counting) for receivers inside a trusted network."""

    unacknowledged = True
    envelope = "syslog"

    def __init__(self, host: str, port: int, tls: ssl.SSLContext | None, label: str) -> None:
        self.host, self.port, self.tls, self.label = host, port, tls, label
        self._sock: socket.socket | None = None
        self._opened = 0.0

    def _connect(self) -> socket.socket:
        try:
            raw = socket.create_connection((self.host, self.port), timeout=TIMEOUT)
        except OSError as exc:
            raise DestinationError(
                f"{self.label}: cannot connect ({exc.strerror or exc})"
            ) from None
        sock: socket.socket = raw
        if self.tls is not None:
            try:
                sock = self.tls.wrap_socket(raw, server_hostname=self.host)
            except (ssl.SSLError, OSError) as exc:
                raw.close()
                raise DestinationError(f"{self.label}: the TLS handshake failed ({exc})") from None
        self._opened = time.monotonic()
        self._check_open(sock, 0.0, "right after connecting (a client certificate needed?)")
        return sock

    def _check_open(self, sock: socket.socket, wait: float, when: str) -> None:
        """Raise when the receiver closed the connection or wrote to it within ``wait``
        seconds (a syslog receiver never writes: anything but TLS's own housekeeping, such
        as a session ticket, is an alert or the end)."""
        deadline = time.monotonic() + wait
        reason = ""
        try:
            while not reason:
                pending = isinstance(sock, ssl.SSLSocket) and sock.pending() > 0
                left = max(0.0, deadline - time.monotonic())
                if not pending and not select.select([sock], [], [], left)[0]:
                    return
                try:
                    sock.setblocking(False)
                    data = sock.recv(1)
                except (ssl.SSLWantReadError, BlockingIOError):
                    if time.monotonic() >= deadline:
                        return
                    continue  # housekeeping read: go on waiting
                except (ssl.SSLError, OSError) as exc:
                    reason = str(exc)
                else:
                    reason = "the receiver closed the connection" if not data else "unexpected data"
        finally:
            with contextlib.suppress(OSError):
                sock.settimeout(TIMEOUT)
        with contextlib.suppress(OSError):
            sock.close()
        self._sock = None
        raise DestinationError(f"{self.label}: {reason} {when}", broken=True)

    def send(self, messages: Sequence[bytes]) -> None:
        frames = b"".join(b"%d %s" % (len(m), m) for m in messages)
        if self._sock is None:
            self._sock = self._connect()
        try:
            self._sock.sendall(frames)
        except (OSError, ssl.SSLError) as exc:
            self.close()
            raise DestinationError(
                f"{self.label}: the connection broke while sending ({exc})", broken=True
            ) from None
        self._check_open(self._sock, 0.0, "after a write")

    def finish(self) -> None:
        """Send the end of the stream (TLS close_notify, then TCP FIN) and wait for the
        receiver to close its side: it does so once it has read all that came before."""
        sock = self._sock
        if sock is None:
            return
        held = self._opened + HOLD - time.monotonic()
        self._check_open(sock, max(0.0, held), "(a client certificate needed?)")
        self._sock = None
        try:
            sock.settimeout(FINISH)
            raw = sock
            if isinstance(sock, ssl.SSLSocket):
                try:
                    raw = sock.unwrap()
                except (ssl.SSLEOFError, ssl.SSLZeroReturnError):
                    return  # it read our close_notify and closed: everything was read
            raw.shutdown(socket.SHUT_WR)
            while raw.recv(65536):
                pass
        except (OSError, ssl.SSLError) as exc:
            raise DestinationError(
                f"{self.label}: the receiver did not confirm it read everything ({exc})",
                broken=True,
            ) from None
        finally:
            with contextlib.suppress(OSError):
                sock.close()

    def close(self) -> None:
        sock, self._sock = self._sock, None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.close()


class FileDestination:
    """Messages appended to a file, one a line, each batch fsynced."""

    unacknowledged = False
    envelope = "line"

    def __init__(self, path: Path, label: str) -> None:
        self.path, self.label = path, label

    def send(self, messages: Sequence[bytes]) -> None:
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | _BINARY, 0o600)
            try:
                data = b"".join(m + b"\n" for m in messages)
                while data:
                    data = data[os.write(fd, data) :]
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as exc:
            raise DestinationError(f"{self.label}: cannot write ({exc.strerror})") from None

    def finish(self) -> None:
        pass

    def close(self) -> None:
        pass


_BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation


def printable_code(code: Any) -> str:
    """A collector's ``code`` as short plain text (it may be anything)."""
    return "".join(ch for ch in str(code)[:20] if ch.isprintable())


class HecDestination:
    """Splunk's HTTP Event Collector: events POSTed to ``/services/collector/event`` with the
    token (``Authorization: Splunk TOKEN``) and a channel id (``X-Splunk-Request-Channel``);
    when the answer carries an ``ackId`` (indexer acknowledgement on), the batch counts as
    accepted once ``/services/collector/ack`` says it was indexed."""

    unacknowledged = False
    envelope = "hec"
    EVENT = "/services/collector/event"
    ACK = "/services/collector/ack"

    def __init__(
        self,
        host: str,
        port: int,
        token: str,
        tls: ssl.SSLContext,
        label: str,
        channel: str,
        options: Options,
    ) -> None:
        self.host, self.port, self.tls, self.label = host, port, tls, label
        self._token = token
        self.channel = channel or str(uuid.uuid4())
        self.ack_timeout = options.ack_timeout
        self._conn: http.client.HTTPSConnection | None = None
        #: Whether the collector acknowledged (an ackId came back), once known.
        self.acknowledges: bool | None = None

    def _post(self, path: str, body: bytes, *, ack: bool = False) -> dict[str, Any]:
        """POST ``body`` to ``path``; the answer when it is the endpoint's success, else
        DestinationError. Each endpoint's answer is read by its own rule: the event
        endpoint's success is ``{"text": "Success", "code": 0}`` (with an ``ackId`` when acks
        are on), the ack endpoint's an object ``{"acks": {...}}``."""
        if self._conn is None:
            self._conn = http.client.HTTPSConnection(
                self.host, self.port, timeout=TIMEOUT, context=self.tls
            )
        headers = {
            "Authorization": f"Splunk {self._token}",
            "X-Splunk-Request-Channel": self.channel,
            "Content-Type": "application/json",
        }
        try:
            self._conn.request("POST", path, body=body, headers=headers)
            answer = self._conn.getresponse()
            raw = answer.read(1 << 20)
        except (OSError, http.client.HTTPException, ssl.SSLError) as exc:
            self.close()
            raise DestinationError(f"{self.label}: no answer ({exc})") from None
        try:
            data = json_input.loads(raw) if raw else {}
        except ValueError:
            data = {}
        if not isinstance(data, dict):
            data = {}
        # Anything but the endpoint's success shape (a proxy's page, an empty body, the
        # other endpoint's answer) is not an acceptance.
        code = data.get("code")
        if ack:
            accepted = isinstance(data.get("acks"), dict)
        else:
            accepted = type(code) is int and code == 0 and data.get("text") == "Success"
        if answer.status != 200 or not accepted:
            text = str(data.get("text", "not a collector's answer"))[:200]
            raise DestinationError(
                f"{self.label}: refused (HTTP {answer.status}, code {printable_code(code)}: {text})"
            )
        return data

    def send(self, messages: Sequence[bytes]) -> None:
        answer = self._post(self.EVENT, b"".join(messages))
        ack = answer.get("ackId")
        acknowledges = isinstance(ack, int) and not isinstance(ack, bool)
        if self.acknowledges and not acknowledges:
            raise DestinationError(
                f"{self.label}: refused (the collector acknowledges batches, and this answer"
                " names no ackId)"
            )
        self.acknowledges = acknowledges
        if acknowledges:
            self._await_ack(int(ack))  # type: ignore[arg-type]

    def _await_ack(self, ack: int) -> None:
        deadline = time.monotonic() + self.ack_timeout
        pause = 0.05
        while True:
            answer = self._post(
                f"{self.ACK}?channel={self.channel}", b'{"acks":[%d]}' % ack, ack=True
            )
            acks = answer.get("acks")
            if isinstance(acks, dict) and acks.get(str(ack)) is True:
                return
            if time.monotonic() + pause > deadline:
                raise DestinationError(
                    f"{self.label}: the collector did not acknowledge the batch (ackId {ack})"
                    f" within {self.ack_timeout:g} s"
                )
            time.sleep(pause)
            pause = min(pause * 2, 2.0)

    def finish(self) -> None:
        self.close()

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(OSError):
                conn.close()
