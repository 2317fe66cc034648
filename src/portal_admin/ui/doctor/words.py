"""The connection doctor's steps and diagnoses in the user's language, by their stable codes.

The doctor (``portal_admin.connection.doctor``) writes English sentences; the desktop program
translates each step's name and each diagnosis ``code`` here, filling in the values the step's
``details`` carry (host names, versions, seconds). An unknown code, or details that do not fit,
fall back to the doctor's own English sentence.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QCoreApplication

from portal_admin.connection.doctor import STEP_TITLES, Status, Step
from portal_admin.ui.i18n.dates import format_date
from portal_admin.ui.i18n.text import QT_TRANSLATE_NOOP, fill

_STEPS = {
    "dns": QT_TRANSLATE_NOOP("DoctorSteps", "DNS"),
    "tcp": QT_TRANSLATE_NOOP("DoctorSteps", "TCP connection"),
    "proxy": QT_TRANSLATE_NOOP("DoctorSteps", "HTTP proxy"),
    "tls": QT_TRANSLATE_NOOP("DoctorSteps", "TLS"),
    "envelope": QT_TRANSLATE_NOOP("DoctorSteps", "API envelope"),
    "clock": QT_TRANSLATE_NOOP("DoctorSteps", "Server clock"),
    "public_key": QT_TRANSLATE_NOOP("DoctorSteps", "Secure Channel public key"),
    "session": QT_TRANSLATE_NOOP("DoctorSteps", "Secure Channel session"),
    "headers": QT_TRANSLATE_NOOP("DoctorSteps", "Pre-login headers"),
    "languages": QT_TRANSLATE_NOOP("DoctorSteps", "Label languages"),
    "sandbox": QT_TRANSLATE_NOOP("DoctorSteps", "Sandbox fault injection"),
    "signing_key": QT_TRANSLATE_NOOP("DoctorSteps", "Evidence signing key"),
}

_STATUSES = {
    Status.OK: QT_TRANSLATE_NOOP("DoctorSteps", "OK"),
    Status.WARNING: QT_TRANSLATE_NOOP("DoctorSteps", "Warning"),
    Status.FAILED: QT_TRANSLATE_NOOP("DoctorSteps", "Failed"),
    Status.SKIPPED: QT_TRANSLATE_NOOP("DoctorSteps", "Skipped"),
}

#: A sandbox's fault settings (``details["faults"]``): words and how the value is written.
_FAULTS: dict[str, tuple[str, str]] = {
    "latency_ms": (QT_TRANSLATE_NOOP("DoctorFaults", "added latency of %1 ms"), "g"),
    "latency_jitter_ms": (QT_TRANSLATE_NOOP("DoctorFaults", "latency jitter of up to %1 ms"), "g"),
    "error_5xx_rate": (QT_TRANSLATE_NOOP("DoctorFaults", "%1 of answers are server errors"), "%"),
    "drop_rate": (QT_TRANSLATE_NOOP("DoctorFaults", "%1 of connections are dropped"), "%"),
    "malformed_rate": (QT_TRANSLATE_NOOP("DoctorFaults", "%1 of answers are malformed"), "%"),
    "html_rate": (QT_TRANSLATE_NOOP("DoctorFaults", "%1 of answers are an HTML page"), "%"),
    "sc_expire_rate": (
        QT_TRANSLATE_NOOP("DoctorFaults", "Secure Channel sessions expire before %1 of requests"),
        "%",
    ),
    "key_rotate_rate": (
        QT_TRANSLATE_NOOP("DoctorFaults", "the key is rotated before %1 of requests"),
        "%",
    ),
    "clock_skew_s": (QT_TRANSLATE_NOOP("DoctorFaults", "the clock is shifted by %1 s"), "+g"),
}


@dataclass(frozen=True, slots=True)
class Words:
    """A diagnosis in words: a summary template (``%1``...), advice, and the template's values."""

    summary: str
    advice: str = ""
    values: Callable[[Step], tuple[Any, ...]] = lambda step: ()


def _d(step: Step, *keys: str) -> Any:
    """``step.details[keys[0]][keys[1]]...`` (KeyError/TypeError when absent)."""
    value: Any = step.details
    for key in keys:
        value = value[key]
    return value


def _joined(values: Any) -> str:
    return ", ".join(str(v) for v in values)


def _span(seconds: float) -> str:
    """Seconds, minutes or hours, as the doctor writes them."""
    seconds = abs(seconds)
    if seconds < 120:
        return fill(QCoreApplication.translate("DoctorCodes", "%1 s"), f"{seconds:.1f}")
    if seconds < 7200:
        return fill(QCoreApplication.translate("DoctorCodes", "%1 min"), f"{seconds / 60:.0f}")
    return fill(QCoreApplication.translate("DoctorCodes", "%1 h"), f"{seconds / 3600:.1f}")


def _languages(step: Step, *states: str) -> str:
    found: dict[str, str] = _d(step, "languages")
    return _joined(k for k, v in found.items() if not states or v.startswith(states))


def _required(step: Step) -> str:
    headers: dict[str, str] = _d(step, "headers")
    return " + ".join(name for name, rule in headers.items() if rule == "required")


def _unknown_headers(step: Step) -> str:
    headers: dict[str, str] = _d(step, "headers")
    return " + ".join(name for name, rule in headers.items() if rule.startswith("unknown"))


def _faults(step: Step) -> str:
    words = []
    for name, value in _d(step, "faults").items():
        template, style = _FAULTS.get(name, ("%1", "g"))
        shown = f"{value:.0%}" if style == "%" else format(value, style)
        words.append(
            f"{fill(QCoreApplication.translate('DoctorFaults', template), shown)} ({name})"
        )
    return "; ".join(words)


_HTTP = lambda s: (_d(s, "http"),)  # noqa: E731 - one-line value readers

#: Summary and advice by diagnosis code (and a variant, see :func:`_key`).
WORDS: dict[str, Words] = {
    # the built-in sandbox, and steps skipped because of an earlier one
    "network.in_process": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes", "The server runs inside this program: there is no network to check."
        )
    ),
    "skipped.earlier": Words(QT_TRANSLATE_NOOP("DoctorCodes", "Skipped: an earlier step failed.")),
    "skipped.unreachable": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "Skipped: the server cannot be reached (see above).")
    ),
    "skipped.not_portal": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes", "Skipped: the server does not answer as a System Portal (see above)."
        )
    ),
    "skipped.no_key": Words(QT_TRANSLATE_NOOP("DoctorCodes", "Skipped: no usable public key.")),
    "skipped.no_list": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "Skipped: the public list could not be read.")
    ),
    "doctor.error": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The check stopped on an unexpected error."),
        QT_TRANSLATE_NOOP("DoctorAdvice", "Send this report to the program's support."),
    ),
    # DNS
    "dns.ok": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "%1 resolves to %2."),
        values=lambda s: (_d(s, "host"), _joined(_d(s, "addresses"))),
    ),
    "dns.not_found": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The name %1 could not be resolved."),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "Check the spelling of the host name and your network connection. Inside a company "
            "network, check that the VPN is on: internal names resolve only there.",
        ),
        lambda s: (_d(s, "host"),),
    ),
    "dns.timeout": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The name %1 could not be resolved in time."),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "Check your network connection and, inside a company network, that the VPN is on.",
        ),
        lambda s: (_d(s, "host"),),
    ),
    # TCP
    "tcp.ok": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "Connected to %1."),
        values=lambda s: (_d(s, "address"),),
    ),
    "tcp.refused": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes", "The connection to %1 was refused: nothing listens on that port."
        ),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "Check the port in the URL and that the server (or proxy) is running; a firewall "
            "may also refuse the connection.",
        ),
        lambda s: (_joined(_d(s, "tried")),),
    ),
    "tcp.timeout": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "No answer from %1 in time."),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "A firewall is probably dropping the connection, or the server is down. Check that "
            "this network may reach the server (VPN, firewall rules).",
        ),
        lambda s: (_joined(_d(s, "tried")),),
    ),
    "tcp.unreachable": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The server could not be reached at %1."),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice", "Check your network connection and the routes to the server (VPN)."
        ),
        lambda s: (_joined(_d(s, "tried")),),
    ),
    # the proxy
    "proxy.none": Words(QT_TRANSLATE_NOOP("DoctorCodes", "No proxy is used for this server.")),
    "proxy.ok": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The proxy %1 lets the connection through."),
        values=lambda s: (_d(s, "proxy"),),
    ),
    "proxy.unchecked": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes",
            "The proxy is reached over TLS, which this test does not check by itself.",
        ),
        QT_TRANSLATE_NOOP("DoctorAdvice", "The steps below still go through it."),
    ),
    "proxy.not_a_proxy": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "%1 does not answer as an HTTP proxy."),
        QT_TRANSLATE_NOOP("DoctorAdvice", "Check the proxy's address and port."),
        lambda s: (_d(s, "proxy"),),
    ),
    "proxy.auth_required": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The proxy requires a user name and password (HTTP 407)."),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "Put the proxy's user name and password in HTTPS_PROXY "
            "(http://user:password@proxy:port) and choose the system proxy setting, or ask your "
            "IT department; the report never shows them.",
        ),
    ),
    "proxy.auth_failed": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes", "The proxy refused the user name and password it was given (HTTP 407)."
        ),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice", "Check the proxy's user name and password with your IT department."
        ),
    ),
    "proxy.refused": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes", "The proxy could not open a connection to the server (%1)."
        ),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "The proxy may not allow this server or port: ask your IT department, or choose no "
            "proxy if the server can be reached directly.",
        ),
        lambda s: (_d(s, "answer"),),
    ),
    "proxy.error": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The proxy refused the request."),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "Check the proxy URL and its user name and password, or choose no proxy if the "
            "server can be reached directly.",
        ),
    ),
    # TLS
    "tls.ok": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "%1 with a valid, trusted certificate for %2."),
        values=lambda s: (_d(s, "version"), _d(s, "certificate", "subject")),
    ),
    "tls.ok.pinned": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes", "%1 with a valid, trusted certificate for %2; it matches the pin."
        ),
        values=lambda s: (_d(s, "version"), _d(s, "certificate", "subject")),
    ),
    "tls.pin_mismatch": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes", "The server's certificate is not the one the profile pins (SHA-256 %1)."
        ),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "If the server's certificate was renewed, ask your IT department for the new "
            "fingerprint; otherwise something between you and the server shows its own "
            "certificate: do not sign in.",
        ),
        lambda s: (_d(s, "certificate", "sha256"),),
    ),
    "tls.expires_soon": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The server's certificate ends in %1 days (%2)."),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "Tell the server's administrators: after that date no connection will work.",
        ),
        lambda s: (_d(s, "certificate", "daysLeft"), format_date(_d(s, "certificate", "notAfter"))),
    ),
    "tls.old_version": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The server offers only %1, which is outdated."),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice", "Ask the server's administrators to enable TLS 1.2 or 1.3."
        ),
        lambda s: (_d(s, "version"),),
    ),
    "tls.expired": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The server's certificate has expired (%1)."),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "Tell the server's administrators; also check this computer's date and time.",
        ),
        lambda s: (format_date(_d(s, "certificate", "notAfter")),),
    ),
    "tls.hostname_mismatch": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The server's certificate is for %1, not for this host."),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "Use a host name the certificate names in the URL, or ask the server's "
            "administrators for a certificate that names this one.",
        ),
        lambda s: (_joined(_d(s, "certificate", "names")) or "?",),
    ),
    "tls.untrusted": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The server's certificate (issued by %1) is not trusted."),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "If the server uses a private or company CA, or a proxy inspects TLS, get that CA's "
            "certificate (PEM) and choose it as the profile's CA bundle. Never turn "
            "verification off.",
        ),
        lambda s: (_d(s, "certificate", "issuer"),),
    ),
    "tls.verify_failed": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The server's certificate could not be verified (%1)."),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "Choose the server's CA certificate as the profile's CA bundle, or ask its "
            "administrators.",
        ),
        lambda s: (_d(s, "verification"),),
    ),
    "tls.not_tls": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The server's port does not speak TLS."),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "The URL says https:// but the port serves plain HTTP (or something else): check "
            "the scheme and port of the URL.",
        ),
    ),
    "tls.handshake_failed": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The TLS handshake failed."),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "The server and this computer found no common TLS version or cipher, or something "
            "between them closed the connection. Check the URL's port and any proxy or firewall.",
        ),
    ),
    "tls.timeout": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The TLS handshake got no answer in time."),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "Something between you and the server holds the connection: check the URL's port "
            "and any firewall or proxy.",
        ),
    ),
    "tls.plain_http": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes", "The URL is plain http://: everything travels unencrypted."
        ),
        QT_TRANSLATE_NOOP("DoctorAdvice", "Use https:// if the server offers it."),
    ),
    "tls.plain_loopback": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "Plain http to this computer: no TLS to check.")
    ),
    # the API envelope (and what the first answer can be instead)
    "envelope.ok": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "A System Portal answer, envelope version %1, %2 items."),
        values=lambda s: (_d(s, "version"), _d(s, "items")),
    ),
    "envelope.version": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes", "The envelope's version is %1, not the one this program speaks."
        ),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "Most things may still work; tell the server's administrators which version they run.",
        ),
        lambda s: (_d(s, "version") or "?",),
    ),
    "envelope.malformed": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The answer is not a valid System Portal envelope."),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "A server that is not a System Portal, a proxy that changes answers, or a server "
            "fault. Retry; if it keeps happening, send this report to the server's "
            "administrators.",
        ),
    ),
    "http.slow": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes", "The server answered a small public list in %1 s, which is slow."
        ),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "The network or the server is slow: the program will work, but slowly. A VPN, a "
            "proxy or a distant server may explain it.",
        ),
        lambda s: (f"{s.seconds:.1f}",),
    ),
    "http.html_page": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes",
            "The server answered with a web page (HTTP %1), not the System Portal API.",
        ),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "This is a captive portal (sign in to the network in a web browser first), a web "
            "site, or a wrong URL: the URL must be the base address of a System Portal API.",
        ),
        _HTTP,
    ),
    "http.redirect": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes", "The server redirects (HTTP %1) instead of answering the API."
        ),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "A captive portal (hotel or guest Wi-Fi: open a web page and sign in to the network "
            "first), a sign-in page in front of the server, or a wrong URL (check http or https "
            "and the path).",
        ),
        _HTTP,
    ),
    "http.redirect.to": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes", "The server redirects (HTTP %1) to %2 instead of answering the API."
        ),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "A captive portal (hotel or guest Wi-Fi: open a web page and sign in to the network "
            "first), a sign-in page in front of the server, or a wrong URL (check http or https "
            "and the path).",
        ),
        lambda s: (_d(s, "http"), _d(s, "location")),
    ),
    "http.gateway_page": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes",
            "A gateway or proxy answered with an HTML error page (HTTP %1) instead of the server.",
        ),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "The server behind the gateway is down or cannot be reached from it; retry later, "
            "or tell the server's administrators.",
        ),
        _HTTP,
    ),
    "http.not_portal": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes",
            "The server answered HTTP %1 without the API's envelope: it is not a System Portal, "
            "or the URL's path is wrong.",
        ),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "The URL must be the base address of the System Portal API; check it with the "
            "server's administrators.",
        ),
        _HTTP,
    ),
    "http.server_error": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The server answered with an error (HTTP %1, code %2)."),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "The server (or a gateway in front of it) has a problem: retry later, and tell its "
            "administrators if it lasts.",
        ),
        lambda s: (_d(s, "http"), _d(s, "code")),
    ),
    "http.dropped": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes", "The connection was closed before a complete answer arrived."
        ),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "Something between you and the server (a proxy, a load balancer, a firewall) or "
            "the server itself drops connections. Retry; if it keeps happening, tell the "
            "server's administrators.",
        ),
    ),
    "http.timeout": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The server did not answer in time."),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "The server or the network is very slow, or a firewall holds the connection.",
        ),
    ),
    "http.connect_failed": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The connection could not be opened."),
        QT_TRANSLATE_NOOP("DoctorAdvice", "Check the URL, the network and any proxy."),
    ),
    "access.denied": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes",
            "The server refused the request: the portal access code is missing or wrong, or a "
            "gateway blocks this computer.",
        ),
        QT_TRANSLATE_NOOP("DoctorAdvice", "Check the profile's portal access code."),
    ),
    "api.error": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The server answered the error %1 (HTTP %2)."),
        values=lambda s: (_d(s, "code"), _d(s, "http")),
    ),
    # the clock
    "clock.ok": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The server's clock and this computer's agree within %1."),
        values=lambda s: (_span(max(abs(_d(s, "offsetSeconds")), _d(s, "uncertaintySeconds"))),),
    ),
    "clock.skew.ahead": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The server's clock is %1 ahead of this computer's."),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "Authenticator codes change every 30 seconds and sign-ins expire by the server's "
            "clock: codes may be refused. Set the wrong clock from a time server (NTP).",
        ),
        lambda s: (_span(_d(s, "offsetSeconds")),),
    ),
    "clock.skew.behind": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The server's clock is %1 behind this computer's."),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "Authenticator codes change every 30 seconds and sign-ins expire by the server's "
            "clock: codes may be refused. Set the wrong clock from a time server (NTP).",
        ),
        lambda s: (_span(_d(s, "offsetSeconds")),),
    ),
    "clock.unreadable": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The server's timestamp cannot be read as a time."),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "Tell the server's administrators: the envelope's timestamp is unusable.",
        ),
    ),
    "clock.no_timestamp": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes", "The server's answer carries no timestamp to compare with."
        )
    ),
    # the Secure Channel
    "sc.key_ok": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "An RSA key of %1 bits, wrapped with %2."),
        values=lambda s: (_d(s, "keySize"), _d(s, "algorithm")),
    ),
    "sc.legacy_padding": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes", "The server wraps keys with the legacy PKCS#1 v1.5 padding (%1)."
        ),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "The program refuses it unless the profile allows legacy padding. Ask the server's "
            "administrators to switch to RSA-OAEP-256.",
        ),
        lambda s: (_d(s, "algorithm"),),
    ),
    "sc.unknown_algorithm": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes", "The server's key uses an algorithm this program does not know."
        ),
        QT_TRANSLATE_NOOP("DoctorAdvice", "Send this report to the server's administrators."),
    ),
    "sc.bad_public_key": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The server's public key is unusable."),
        QT_TRANSLATE_NOOP("DoctorAdvice", "Send this report to the server's administrators."),
    ),
    "sc.session_ok": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes",
            "A session was opened and closed; both answers were sealed and opened correctly.",
        )
    ),
    "sc.key_rotated": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes",
            "The server changed its key between reading and using it; with the new key a "
            "session opened and closed.",
        ),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "The program fetches the key again by itself; if this happens often, tell the "
            "server's administrators that the key changes too often.",
        ),
    ),
    "sc.key_changing": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes", "The server refused its own key twice: the key changes constantly."
        ),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "The key rotates constantly, or servers behind a load balancer have different "
            "keys; tell the server's administrators.",
        ),
    ),
    "sc.session_lost": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes",
            "The session opened, but the server had already forgotten it when it was closed.",
        ),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "Sessions expire far too soon, or servers behind a load balancer do not share them. "
            "The program retries with a new session, at the cost of slower calls; tell the "
            "server's administrators.",
        ),
    ),
    "sc.decryption_failed": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes",
            "The server could not open the key exchange: the algorithm it announces is not the "
            "one it uses.",
        ),
        QT_TRANSLATE_NOOP("DoctorAdvice", "Send this report to the server's administrators."),
    ),
    "sc.bad_answer": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The server's encrypted answer could not be opened."),
        QT_TRANSLATE_NOOP("DoctorAdvice", "Send this report to the server's administrators."),
    ),
    "sc.no_session": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The session answer has no session id."),
        QT_TRANSLATE_NOOP("DoctorAdvice", "Send this report to the server's administrators."),
    ),
    # the pre-login headers
    "headers.ok": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The server requires %1; this program sends them."),
        values=lambda s: (_required(s) or "-",),
    ),
    "headers.ok.none": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "No header is required before signing in.")
    ),
    "headers.access_code_missing": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes", "The server requires a portal access code and none was given."
        ),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "Enter the profile's portal access code; the portal's administrators give it.",
        ),
    ),
    "headers.access_code_refused": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The server refuses the portal access code given."),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "Check the profile's portal access code with the portal's administrators.",
        ),
    ),
    "headers.unknown": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes", "Whether the server requires %1 could not be told from its answers."
        ),
        QT_TRANSLATE_NOOP("DoctorAdvice", "See the earlier steps."),
        lambda s: (_unknown_headers(s),),
    ),
    # label languages
    "languages.ok": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "Labels answer in %1."),
        values=lambda s: (_languages(s),),
    ),
    "languages.fallback": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "Labels are not translated for %1."),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "The program works, but lists show English labels (or raw keys) in those "
            "languages: the server's translations are missing.",
        ),
        lambda s: (_languages(s, "English", "untranslated"),),
    ),
    "languages.failed": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The labels could not be read in %1."),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice", "See the earlier steps: the server's answers are not usable."
        ),
        lambda s: (_languages(s, "failed"),),
    ),
    # a sandbox's fault injection
    "sandbox.none": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The server is not a sandbox with fault injection.")
    ),
    "sandbox.no_faults": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The server is a sandbox; fault injection is off.")
    ),
    "sandbox.faults": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes", "The server is a sandbox injecting faults on purpose: %1."
        ),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "The problems above may be these faults: start the sandbox without fault "
            "injection for a clean test.",
        ),
        lambda s: (_faults(s),),
    ),
    # this installation's evidence-signing key
    "key.keyring": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "Kept in the system keyring; fingerprint %1."),
        values=lambda s: (_d(s, "fingerprint"),),
    ),
    "key.file": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes",
            "Kept in the key file %1 (no usable keyring), readable by its owner only; "
            "fingerprint %2.",
        ),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "Whoever can read this file can sign evidence as this installation: keep it, and "
            "copies of it in backups, to yourself.",
        ),
        lambda s: (_d(s, "path"), _d(s, "fingerprint")),
    ),
    "key.none.keyring": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes", "No key yet: it is made on first use, in the system keyring."
        )
    ),
    "key.none.file": Words(
        QT_TRANSLATE_NOOP(
            "DoctorCodes", "No key yet: it is made on first use, in the key file %1."
        ),
        values=lambda s: (_d(s, "path"),),
    ),
    "key.unavailable": Words(
        QT_TRANSLATE_NOOP("DoctorCodes", "The evidence-signing key cannot be read: %1."),
        QT_TRANSLATE_NOOP(
            "DoctorAdvice",
            "Evidence packs, review decisions, sign-offs and journal checkpoints cannot be "
            "signed until it can: if the key file has a passphrase, set "
            "PORTAL_ADMIN_KEY_PASSPHRASE.",
        ),
        lambda s: (_d(s, "problem"),),
    ),
}


def _key(step: Step) -> str:
    """The code, with a variant where the sentence depends on the details."""
    details = step.details
    if step.code == "clock.skew":
        offset = details.get("offsetSeconds", 0)
        return (
            "clock.skew.ahead"
            if isinstance(offset, int | float) and offset > 0
            else ("clock.skew.behind")
        )
    if step.code == "tls.ok" and details.get("pin") == "ok":
        return "tls.ok.pinned"
    if step.code == "http.redirect" and details.get("location"):
        return "http.redirect.to"
    headers = details.get("headers")
    if (
        step.code == "headers.ok"
        and isinstance(headers, dict)
        and not any(rule == "required" for rule in headers.values())
    ):
        return "headers.ok.none"
    return step.code


def step_name(name: str) -> str:
    """The translated name of a step (its English title if the name is unknown)."""
    source = _STEPS.get(name)
    if source is None:
        return STEP_TITLES.get(name, name)
    return QCoreApplication.translate("DoctorSteps", source)


def status_name(status: Status) -> str:
    """ "OK", "Warning", "Failed" or "Skipped", translated."""
    return QCoreApplication.translate("DoctorSteps", _STATUSES[status])


def describe(step: Step) -> tuple[str, str]:
    """The step's summary and advice in the user's language (English for an unknown code)."""
    words = WORDS.get(_key(step))
    if words is None:
        return step.summary, step.advice
    try:
        values = words.values(step)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return step.summary, step.advice
    summary = fill(QCoreApplication.translate("DoctorCodes", words.summary), *values)
    advice = QCoreApplication.translate("DoctorAdvice", words.advice) if words.advice else ""
    return summary, advice
