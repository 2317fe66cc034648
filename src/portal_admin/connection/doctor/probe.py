"""One HTTP exchange of the doctor, and what its answer means.

Requests carry the client's own headers (``client.transport.Transport.headers``) and answers
go through the client's envelope parser and Secure Channel decoder; unlike the client, the
doctor keeps the raw answer, so that an HTML page, a redirect or a proxy's error is named.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

from portal_admin.client.errors import PortalError
from portal_admin.client.gateway import is_html, page_title
from portal_admin.client.transport import Decoder, Transport
from portal_admin.protocol.envelope import Envelope, MalformedEnvelope, parse_envelope
from portal_admin.protocol.errors import Code
from portal_admin.protocol.operations import Operation

from .report import Status, redact_url

#: The most of an answer the doctor reads.
MAX_BODY = 1024 * 1024


@dataclass(frozen=True, slots=True)
class Diagnosis:
    """What went wrong with an answer; ``unusable`` when the server is not a System Portal."""

    code: str
    summary: str
    advice: str
    status: Status = Status.FAILED
    details: dict[str, Any] = field(default_factory=dict)
    unusable: bool = False


@dataclass(slots=True)
class Answer:
    """The raw answer, its envelope when there is one, and when it was sent and received."""

    status: int | None = None
    content_type: str = ""
    body: bytes = b""
    headers: Mapping[str, str] = field(default_factory=dict)
    envelope: Envelope | None = None
    problem: Diagnosis | None = None
    seconds: float = 0.0
    sent_at: float = 0.0
    received_at: float = 0.0


class Prober:
    """Sends the doctor's requests with the client's headers."""

    def __init__(
        self,
        http: httpx.AsyncClient,
        transport: Transport,
        clock: Callable[[], float],
        timeout: float,
    ) -> None:
        self.http = http
        self.transport = transport
        self.clock = clock
        self.timeout = timeout

    def headers(self, operation: Operation, *, language: str | None = None) -> dict[str, str]:
        """The client's headers for ``operation`` (no token: the doctor never signs in)."""
        headers = self.transport.headers(operation, str(uuid.uuid4()), None)
        if language is not None:
            headers["Accept-Language"] = headers["X-LOCALE"] = language
        return headers

    async def send(
        self,
        operation: Operation | None = None,
        *,
        path: str | None = None,
        json: Any = None,
        headers: Mapping[str, str] | None = None,
        without: Collection[str] = (),
        language: str | None = None,
        decode: Decoder | None = None,
    ) -> Answer:
        """One request; the answer, with ``problem`` set when it is not a usable envelope."""
        if operation is not None:
            all_headers = self.headers(operation, language=language)
            method, url = operation.method, operation.url_path()
        else:
            all_headers = {"Accept": "application/json", "X-Request-Id": str(uuid.uuid4())}
            method, url = "GET", path or "/"
        all_headers.update(headers or {})
        for name in without:
            all_headers.pop(name, None)
        answer = Answer(sent_at=self.clock())
        started = time.perf_counter()
        try:
            async with asyncio.timeout(self.timeout):
                request = self.http.build_request(method, url, json=json, headers=all_headers)
                response = await self.http.send(request, stream=True)
                try:
                    body = bytearray()
                    async for chunk in response.aiter_bytes():
                        body += chunk
                        if len(body) > MAX_BODY:
                            break
                finally:
                    await response.aclose()
        except (httpx.HTTPError, TimeoutError, OSError) as exc:
            answer.problem = transport_problem(exc)
            return _timed(answer, started, self.clock)
        _timed(answer, started, self.clock)
        answer.status = response.status_code
        answer.content_type = response.headers.get("content-type", "")
        answer.headers = response.headers
        answer.body = bytes(body)
        answer.problem = classify(answer, decode, all_headers.get("X-Request-Id", ""))
        return answer


def _timed(answer: Answer, started: float, clock: Callable[[], float]) -> Answer:
    answer.seconds = time.perf_counter() - started
    answer.received_at = clock()
    return answer


def transport_problem(exc: BaseException) -> Diagnosis:
    """No answer: a proxy's refusal, a dropped connection, a timeout, a refused connection."""
    name = type(exc).__name__
    details = {"error": name}
    if isinstance(exc, httpx.ProxyError):
        text = str(exc)
        needs_auth = "407" in text
        return Diagnosis(
            "proxy.auth_required" if needs_auth else "proxy.error",
            "The proxy requires a user name and password (HTTP 407)."
            if needs_auth
            else f"The proxy refused the request ({text or name}).",
            "Check the proxy URL and its credentials (http://user:password@proxy:port), or "
            "try --no-proxy if the server is reachable directly.",
            details=details,
            unusable=True,
        )
    if isinstance(exc, httpx.TimeoutException | TimeoutError):
        return Diagnosis(
            "http.timeout",
            "The server did not answer in time.",
            "The server or the network is very slow, or a firewall holds the connection.",
            details=details,
        )
    if isinstance(exc, httpx.ConnectError | ConnectionRefusedError):
        return Diagnosis(
            "http.connect_failed",
            f"The connection could not be opened ({exc or name}).",
            "Check the URL, the network and any proxy.",
            details=details,
            unusable=True,
        )
    return Diagnosis(
        "http.dropped",
        "The connection was closed before a complete answer arrived.",
        "Something between you and the server (a proxy, a load balancer, a firewall) or the "
        "server itself drops connections. Retry; if it keeps happening, tell the server's "
        "administrators.",
        details=details,
    )


def classify(
    answer: Answer, decode: Decoder | None = None, request_id: str = ""
) -> Diagnosis | None:
    """Why a raw answer is not a usable envelope (None when it is a successful one); sets
    ``answer.envelope``. ``decode``: the client's decoder of a sealed answer."""
    status = answer.status or 0
    details: dict[str, Any] = {"http": status, "contentType": answer.content_type}
    if 300 <= status < 400:
        location = answer.headers.get("location", "")
        details["location"] = redact_url(location) if "://" in location else location
        return Diagnosis(
            "http.redirect",
            f"The server redirects (HTTP {status}) instead of answering the API"
            + (f", to {details['location']}." if location else "."),
            "A captive portal (hotel or guest Wi-Fi: open a web page and sign in to the network "
            "first), a sign-in page in front of the server, or a wrong URL (check http/https "
            "and the path).",
            details=details,
            unusable=True,
        )
    if is_html(answer.content_type, answer.body):
        title = page_title(answer.body)
        if title:
            details["title"] = title
        if status >= 500:
            return Diagnosis(
                "http.gateway_page",
                f"A gateway or proxy answered with an HTML error page (HTTP {status}"
                + (f", '{title}'" if title else "")
                + ") instead of the server.",
                "The server behind the gateway is down or unreachable from it; retry later, or "
                "tell the server's administrators.",
                details=details,
                unusable=True,
            )
        return Diagnosis(
            "http.html_page",
            f"The server answered with a web page (HTTP {status}"
            + (f", '{title}'" if title else "")
            + "), not the System Portal API.",
            "This is a captive portal (sign in to the network in a web browser first), a web "
            "site, or a wrong URL: the URL must be the base address of a System Portal API.",
            details=details,
            unusable=True,
        )
    if decode is not None:
        response = httpx.Response(
            status, headers={"content-type": answer.content_type}, content=answer.body
        )
        try:
            answer.envelope = decode(response, request_id)
        except PortalError as exc:
            return client_problem(exc)
        return envelope_problem(answer)
    try:
        answer.envelope = parse_envelope(answer.body)
    except MalformedEnvelope as exc:
        details["problem"] = "the body is empty" if not answer.body.strip() else str(exc)
        if status in (404, 405, 501):
            return Diagnosis(
                "http.not_portal",
                f"The server answered HTTP {status} without the API's envelope: it is not a "
                "System Portal, or the URL's path is wrong.",
                "The URL must be the base address of the System Portal API (without "
                "/web/v1/...); check it with the server's administrators.",
                details=details,
                unusable=True,
            )
        return Diagnosis(
            "envelope.malformed",
            f"The answer (HTTP {status}) is not a valid envelope: {details['problem']}.",
            "A server that is not a System Portal, a proxy that changes answers, or a server "
            "fault. Retry; if it keeps happening, send this report to the server's "
            "administrators.",
            details=details,
        )
    return envelope_problem(answer)


def envelope_problem(answer: Answer) -> Diagnosis | None:
    """An error envelope, named: server error, access denied, or the API's own error."""
    envelope = answer.envelope
    if envelope is None or (envelope.success and (answer.status or 200) < 400):
        return None
    status = answer.status or 0
    details = {"http": status, "code": envelope.code}
    if status >= 500 or envelope.code == Code.INTERNAL:
        return Diagnosis(
            "http.server_error",
            f"The server answered with an error (HTTP {status}, code {envelope.code}).",
            "The server (or a gateway in front of it) has a problem: retry later, and tell its "
            "administrators if it lasts.",
            details=details,
        )
    if envelope.code == Code.PERMISSION_DENIED:
        return Diagnosis(
            "access.denied",
            "The server refused the request (ACCESS.PERMISSION_DENIED): the portal access code "
            "is missing or wrong, or a gateway blocks this computer.",
            "Check the profile's portal access code (--access-code CODE).",
            details=details,
        )
    return Diagnosis(
        "api.error",
        f"The server answered the error {envelope.code} (HTTP {status}): {envelope.message}",
        "",
        details=details,
    )


def client_problem(exc: PortalError) -> Diagnosis:
    """A failure the client's decoder reported (a sealed answer that cannot be opened)."""
    details = {"http": exc.http_status, "code": exc.code}
    if exc.code == Code.SC_DECRYPTION_FAILED or exc.code == Code.SC_REPLAY_DETECTED:
        return Diagnosis(
            "sc.bad_answer",
            f"The server's encrypted answer could not be opened ({exc.message}).",
            "The server does not seal answers as Secure Channel v2 says; send this report to "
            "its administrators.",
            details=details,
        )
    return Diagnosis(
        "envelope.malformed",
        f"The answer is not a valid envelope ({exc.message}).",
        "A proxy that changes answers, or a server fault. Retry; if it keeps happening, send "
        "this report to the server's administrators.",
        details=details,
    )
