"""The connection doctor: checks a server step by step, without Qt and without credentials.

``await diagnose(url)`` runs DNS, TCP, the proxy, TLS, the API envelope, the clock, the Secure
Channel key and session, the pre-login headers, the label languages and a sandbox's fault
injection, and returns a :class:`Report` (``to_text()``, ``to_json()``) free of secrets.
Every step and diagnosis has a stable ``code``; the sentences are English.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import ssl
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import Any

import httpx

from portal_admin.client.errors import ConfigurationError
from portal_admin.client.events import EventBus
from portal_admin.client.fingerprint import installation_fingerprint
from portal_admin.client.options import LANGUAGES, ClientOptions, TLSSettings, is_loopback
from portal_admin.client.pinning import normalize_fingerprint
from portal_admin.client.transport import Transport

from . import api, network, signing_key
from .probe import Prober
from .report import STEP_TITLES, Report, Status, Step, environment, redact_url

__all__ = ["STEP_TITLES", "Report", "Status", "Step", "diagnose", "exit_status"]

log = logging.getLogger("portal_admin.connection.doctor")

#: Exit statuses of ``portal-admin-cli doctor``: every step ok (or skipped), a failure,
#: warnings only (2 is the command line's own "cannot be used").
EXIT_OK, EXIT_FAILED, EXIT_WARNINGS = 0, 1, 3


#: The steps that talk to the API, in order (after dns, tcp, proxy and tls; before the
#: installation's own signing key, checked whatever the server does).
API_STEPS = tuple(STEP_TITLES)[4:-1]


def exit_status(report: Report) -> int:
    """0 all ok, 1 a step failed, 3 warnings only."""
    worst = report.status
    if worst is Status.FAILED:
        return EXIT_FAILED
    return EXIT_WARNINGS if worst is Status.WARNING else EXIT_OK


def _skip(name: str, reason: str, code: str) -> Step:
    return Step(name, Status.SKIPPED, 0.0, reason, code)


async def _guarded(name: str, run: Awaitable[Step]) -> Step:
    """A step that cannot raise: an unexpected error becomes a failed step (no trace)."""
    started = time.perf_counter()
    try:
        return await run
    except Exception as exc:  # the doctor reports, it never crashes
        log.debug("doctor step %s", name, exc_info=True)
        return Step(
            name,
            Status.FAILED,
            time.perf_counter() - started,
            f"The check stopped on an unexpected error ({type(exc).__name__}).",
            "doctor.error",
            "Send this report to the program's support.",
        )


def _check_inputs(url: str, ca_bundle: str | None) -> httpx.URL:
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError) as exc:
        raise ConfigurationError(
            f"the URL {redact_url(url)!r} cannot be read ({exc})", code=ConfigurationError.URL
        ) from None
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise ConfigurationError(
            f"the URL {redact_url(url)!r} is not http(s)://host[:port]",
            code=ConfigurationError.URL,
        )
    if ca_bundle is not None and not os.path.isfile(ca_bundle):
        raise ConfigurationError(
            f"the CA bundle {ca_bundle} is not a file", code=ConfigurationError.CA_BUNDLE
        )
    return parsed


async def diagnose(
    url: str,
    *,
    access_code: str | None = None,
    ca_bundle: str | None = None,
    proxy: str | bool | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    clock: Callable[[], float] = time.time,
    languages: Sequence[str] = LANGUAGES,
    allow_legacy_padding: bool = False,
    pins: Sequence[str] = (),
    timeout: float = 10.0,
    slow: float = 2.0,
    progress: Callable[[Step], None] | None = None,
) -> Report:
    """Check the server at ``url``; never raises for what the server or network does.

    ``proxy``: a proxy URL, False for none, None to follow the environment (``HTTPS_PROXY``,
    ``NO_PROXY``...). ``transport``: an in-process one (the built-in sandbox, tests): the
    network steps are skipped. ``clock``: epoch seconds. ``progress`` is told of each step as it
    ends. ``pins``: SHA-256 fingerprints the server's certificate must match (the TLS step
    says ``tls.pin_ok`` or fails with ``tls.pin_mismatch``). Raises ConfigurationError for a
    URL, proxy, CA bundle or pin that cannot be used.
    """
    parsed = _check_inputs(url, ca_bundle)
    try:
        pins = tuple(normalize_fingerprint(p) for p in pins)
    except ValueError as exc:
        raise ConfigurationError(f"certificate pin: {exc}", code=ConfigurationError.PIN) from None
    report = Report(
        redact_url(url),
        datetime.fromtimestamp(clock(), UTC).isoformat(timespec="seconds"),
        environment=environment(),
        listener=progress,
    )
    try:
        context = TLSSettings(ca_bundle=ca_bundle).ssl_context()
    except (ssl.SSLError, OSError) as exc:
        raise ConfigurationError(
            f"the CA bundle {ca_bundle} cannot be read ({exc})", code=ConfigurationError.CA_BUNDLE
        ) from None
    chosen: network.Proxy | None = None
    if transport is None:
        try:
            chosen, why = network.find_proxy(parsed.scheme, parsed.host, proxy)
        except network.ProxyConfigError as exc:
            raise ConfigurationError(str(exc), code=ConfigurationError.PROXY) from None
        reachable = await _network(report, parsed, chosen, why, context, ca_bundle, timeout, pins)
    else:
        reason = "The server runs in this process (no network): nothing to check."
        for name in ("dns", "tcp", "proxy", "tls"):
            report.add(_skip(name, reason, "network.in_process"))
        reachable = True
    if not reachable:
        reason = "Skipped: the server cannot be reached (see above)."
        for name in API_STEPS:
            report.add(_skip(name, reason, "skipped.unreachable"))
    else:
        await _api(
            report,
            parsed,
            transport,
            chosen,
            context,
            access_code,
            clock,
            languages,
            allow_legacy_padding,
            timeout,
            slow,
        )
    report.add(await _guarded("signing_key", signing_key.signing_key_step()))
    return report


async def _network(
    report: Report,
    url: httpx.URL,
    proxy: network.Proxy | None,
    why: str,
    context: ssl.SSLContext,
    ca_bundle: str | None,
    timeout: float,
    pins: tuple[str, ...] = (),
) -> bool:
    """DNS, TCP, proxy and TLS; True when the API steps can run."""
    port = url.port or (443 if url.scheme == "https" else 80)
    target = network.Target(url.scheme, url.host, port, proxy)
    link = network.Link()

    async def proxy_or_skip() -> Step:
        if proxy is None:
            return network.proxy_skipped(why)
        return await network.proxy_step(target, link, timeout)

    runs: list[tuple[str, Callable[[], Awaitable[Step]]]] = [
        ("dns", lambda: network.dns_step(target, link, timeout)),
        ("tcp", lambda: network.tcp_step(target, link, timeout)),
        ("proxy", proxy_or_skip),
        ("tls", lambda: _tls(target, link, context, ca_bundle, timeout, pins)),
    ]
    try:
        for index, (name, run) in enumerate(runs):
            step = await _guarded(name, run())
            report.add(step)
            if step.status is Status.FAILED:
                reason = f"Skipped: the {STEP_TITLES[name]} step failed."
                for later, _ in runs[index + 1 :]:
                    report.add(_skip(later, reason, "skipped.earlier"))
                return False
    finally:
        await link.close()
    return True


async def _call(check: Callable[..., Step], *args: Any) -> Step:
    """A plain check as a coroutine, so that :func:`_guarded` catches what it raises."""
    return check(*args)


async def _raise(exc: Exception) -> Step:
    raise exc


async def _tls(
    target: network.Target,
    link: network.Link,
    context: ssl.SSLContext,
    ca_bundle: str | None,
    timeout: float,
    pins: tuple[str, ...] = (),
) -> Step:
    if target.scheme == "https":
        step = await network.tls_step(target, link, context, ca_bundle, timeout)
        return _pin_checked(step, pins) if pins else step
    if is_loopback(target.host):
        return _skip("tls", "Plain http to this computer: no TLS to check.", "tls.plain_loopback")
    return Step(
        "tls",
        Status.WARNING,
        0.0,
        "The URL is plain http://: everything travels unencrypted.",
        "tls.plain_http",
        "Use https:// if the server offers it; the client refuses plain http to another "
        "computer unless the connection profile allows it.",
    )


def _pin_checked(step: Step, pins: tuple[str, ...]) -> Step:
    """The TLS step with the profile's certificate pin checked (when the handshake worked)."""
    certificate = (step.details or {}).get("certificate") or {}
    found = certificate.get("sha256")
    if step.status is Status.FAILED or not isinstance(found, str):
        return step
    details = {**step.details, "pins": list(pins)}
    if found.lower() in pins:
        details["pin"] = "ok"
        return dataclasses.replace(step, details=details, summary=f"{step.summary} Pin: ok.")
    details["pin"] = "mismatch"
    return Step(
        "tls",
        Status.FAILED,
        step.seconds,
        f"The server's certificate is not the one the connection profile pins (SHA-256 {found}).",
        "tls.pin_mismatch",
        "If the server's certificate was renewed, ask your IT department for the profile "
        "with the new fingerprint; otherwise something between you and the server presents "
        "its own certificate: do not sign in.",
        details,
    )


async def _api(
    report: Report,
    url: httpx.URL,
    transport: httpx.AsyncBaseTransport | None,
    proxy: network.Proxy | None,
    context: ssl.SSLContext,
    access_code: str | None,
    clock: Callable[[], float],
    languages: Sequence[str],
    allow_legacy: bool,
    timeout: float,
    slow: float,
) -> None:
    """The API steps, over the client's own headers and decoders."""
    options = ClientOptions(access_code=access_code or None, timeout=timeout)
    kwargs: dict[str, object] = {"transport": transport} if transport else {"verify": context}
    if transport is None and proxy is not None:
        kwargs["proxy"] = proxy.url
    async with httpx.AsyncClient(
        base_url=url,
        timeout=httpx.Timeout(timeout),
        follow_redirects=False,
        trust_env=False,
        **kwargs,  # type: ignore[arg-type]
    ) as http:
        headers = Transport(http, options, installation_fingerprint(), EventBus())
        prober = Prober(http, headers, clock, timeout)
        first = await prober.send(api.CONSTANTS, language="en")
        envelope = await _guarded("envelope", _call(api.envelope_step, first, slow))
        report.add(envelope)
        if first.problem is not None and first.problem.unusable:
            reason = "Skipped: the server is not answering as a System Portal (see above)."
            for name in API_STEPS[1:]:
                report.add(_skip(name, reason, "skipped.not_portal"))
            return
        report.add(await _guarded("clock", _call(api.clock_step, first)))
        try:
            key = await api.public_key_step(prober, allow_legacy=allow_legacy)
        except Exception as exc:  # as _guarded, keeping the key
            key = api.KeyCheck(await _guarded("public_key", _raise(exc)), None)
        report.add(key.step)
        if key.key is None:
            report.add(_skip("session", "Skipped: no usable public key.", "skipped.no_key"))
        else:
            report.add(await _guarded("session", api.session_step(prober, key.key)))
        report.add(
            await _guarded(
                "headers", api.headers_step(prober, first, access_code=bool(access_code))
            )
        )
        if first.problem is not None:
            report.add(
                _skip("languages", "Skipped: the public list could not be read.", "skipped.no_list")
            )
        else:
            report.add(await _guarded("languages", api.languages_step(prober, first, languages)))
        report.add(await _guarded("sandbox", api.sandbox_step(prober)))
