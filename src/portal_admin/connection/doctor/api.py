"""The API steps: envelope, clock, Secure Channel key and session, headers, languages, and a
sandbox's fault injection. No credentials are sent; nothing secret is reported."""

from __future__ import annotations

import base64
import hashlib
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError

from portal_admin.client.channel import ActiveKey, ChannelSession, sealed_decoder
from portal_admin.client.records import PublicKeyInfo
from portal_admin.protocol import secure_channel as sc
from portal_admin.protocol.envelope import ENVELOPE_VERSION
from portal_admin.protocol.errors import Code
from portal_admin.protocol.operations import OPERATIONS

from .probe import Answer, Diagnosis, Prober
from .report import Status, Step

#: The public list the doctor reads (small, labelled, in every language).
CONSTANTS = OPERATIONS["constants.user_account_statuses"]
_PUBLIC_KEY = OPERATIONS["secure_channel.public_key"]
_CREATE = OPERATIONS["secure_channel.session_create"]
_CLOSE = OPERATIONS["secure_channel.session_close"]
#: Clocks further apart than this are a warning (seconds).
CLOCK_WARNING = 60.0
SANDBOX_FAULTS_PATH = "/sandbox/faults"
ACCESS_CODE = "X-PORTAL-ACCESS-CODE"
CLIENT_HASH = "X-Client-Hash"


def failed(name: str, answer: Answer, *, status: Status | None = None) -> Step:
    """The step ``name`` failed as ``answer.problem`` says."""
    problem = answer.problem
    assert problem is not None
    return Step(
        name,
        status or problem.status,
        answer.seconds,
        problem.summary,
        problem.code,
        problem.advice,
        dict(problem.details),
    )


def _items(data: Any) -> list[dict[str, Any]] | None:
    """The enum items of a constants list, or None when ``data`` is not one."""
    if not isinstance(data, list) or not all(
        isinstance(i, dict) and "code" in i and "label" in i for i in data
    ):
        return None
    return data


def envelope_step(answer: Answer, slow: float) -> Step:
    """The public constants call: an envelope of version 2.0.0 around a list of enum items."""
    if answer.problem is not None:
        return failed("envelope", answer)
    envelope = answer.envelope
    assert envelope is not None
    details: dict[str, Any] = {
        "operation": CONSTANTS.path,
        "http": answer.status,
        "version": envelope.version,
        "code": envelope.code,
    }
    items = _items(envelope.data)
    if items is None:
        return Step(
            "envelope",
            Status.FAILED,
            answer.seconds,
            "The envelope's data is not the list of enum items a constants call returns.",
            "envelope.malformed",
            "A server that is not a System Portal, or a server fault: send this report to the "
            "server's administrators.",
            details,
        )
    details["items"] = len(items)
    if envelope.version != ENVELOPE_VERSION:
        return Step(
            "envelope",
            Status.WARNING,
            answer.seconds,
            f"The envelope's version is {envelope.version or 'missing'}; this program speaks "
            f"{ENVELOPE_VERSION}.",
            "envelope.version",
            "Most things may still work; tell the server's administrators which version they run.",
            details,
        )
    if answer.seconds > slow:
        return Step(
            "envelope",
            Status.WARNING,
            answer.seconds,
            f"The server answered a small public list in {answer.seconds:.1f} s, which is slow.",
            "http.slow",
            "The network or the server is slow: the program will work, but slowly. A VPN, a "
            "proxy or a distant server may explain it.",
            details,
        )
    return Step(
        "envelope",
        Status.OK,
        answer.seconds,
        f"A System Portal envelope, version {envelope.version}, with {len(items)} items.",
        "envelope.ok",
        details=details,
    )


def clock_step(answer: Answer) -> Step:
    """The server's clock (the envelope's timestamp) against ours."""
    envelope = answer.envelope
    if answer.problem is not None or envelope is None:
        return Step(
            "clock",
            Status.SKIPPED,
            0.0,
            "Skipped: the public list could not be read.",
            "skipped.no_list",
        )
    if envelope.timestamp is None:
        return Step(
            "clock",
            Status.SKIPPED,
            0.0,
            "The server's answer carries no timestamp to compare with.",
            "clock.no_timestamp",
        )
    middle = (answer.sent_at + answer.received_at) / 2
    offset = envelope.timestamp / 1000 - middle
    margin = (answer.received_at - answer.sent_at) / 2
    details = {
        "offsetSeconds": round(offset, 1),
        "uncertaintySeconds": round(margin, 3),
        "serverTime": _iso(envelope.timestamp / 1000),
        "localTime": _iso(middle),
    }
    if abs(offset) > 10 * 365 * 86400:
        return Step(
            "clock",
            Status.WARNING,
            0.0,
            "The server's timestamp is not a time in epoch milliseconds.",
            "clock.unreadable",
            "Tell the server's administrators: the envelope's timestamp is unusable.",
            details,
        )
    if abs(offset) - margin > CLOCK_WARNING:
        way = "ahead of" if offset > 0 else "behind"
        return Step(
            "clock",
            Status.WARNING,
            0.0,
            f"The server's clock is {_span(abs(offset))} {way} this computer's.",
            "clock.skew",
            "Authenticator codes change every 30 seconds and tokens expire by the server's "
            "clock: with clocks this far apart, sign-in codes may be refused and sessions may "
            "end early or last longer than shown. Set the wrong clock from a time server (NTP).",
            details,
        )
    return Step(
        "clock",
        Status.OK,
        0.0,
        f"The server's clock and this computer's agree within {_span(max(abs(offset), margin))}.",
        "clock.ok",
        details=details,
    )


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")


def _span(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.1f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


@dataclass(slots=True)
class KeyCheck:
    """The public-key step and the key it found (None when unusable)."""

    step: Step
    key: ActiveKey | None


async def fetch_key(prober: Prober) -> tuple[Answer, ActiveKey | None, Diagnosis | None]:
    """Fetch and load the public key with the client's record and codec."""
    answer = await prober.send(_PUBLIC_KEY)
    if answer.problem is not None or answer.envelope is None:
        return answer, None, answer.problem
    try:
        info = PublicKeyInfo.model_validate(answer.envelope.data)
        sc.rsa_padding(info.algorithm, allow_legacy=True)
        key = sc.load_public_key(info.public_key)
    except sc.UnsupportedAlgorithm as exc:
        return answer, None, Diagnosis("sc.unknown_algorithm", f"{exc}.", _ASK_ADMINS)
    except (ValidationError, sc.SecureChannelError) as exc:
        why = str(exc) if isinstance(exc, sc.SecureChannelError) else "fields missing"
        return (
            answer,
            None,
            Diagnosis("sc.bad_public_key", f"The public key is unusable ({why}).", _ASK_ADMINS),
        )
    return answer, ActiveKey(info, key), None


_ASK_ADMINS = "Send this report to the server's administrators."


async def public_key_step(prober: Prober, *, allow_legacy: bool) -> KeyCheck:
    """The Secure Channel public key: id, algorithm, size, fingerprint; legacy padding flagged."""
    answer, active, problem = await fetch_key(prober)
    if problem is not None:
        return KeyCheck(
            Step(
                "public_key",
                problem.status,
                answer.seconds,
                problem.summary,
                problem.code,
                problem.advice,
                dict(problem.details),
            ),
            None,
        )
    assert active is not None
    info = active.info
    der = base64.b64decode(info.public_key)
    details = {
        "keyId": info.key_id,
        "algorithm": info.algorithm,
        "keySize": active.key.key_size,
        "sha256": hashlib.sha256(der).hexdigest(),
    }
    if info.algorithm in sc.LEGACY_ALGORITHMS:
        allowed = (
            "the connection profile allows it"
            if allow_legacy
            else ("the client refuses it unless the connection profile allows legacy padding")
        )
        return KeyCheck(
            Step(
                "public_key",
                Status.WARNING,
                answer.seconds,
                f"The server wraps keys with legacy PKCS#1 v1.5 padding ({info.algorithm}); "
                f"{allowed}.",
                "sc.legacy_padding",
                "Ask the server's administrators to switch to RSA-OAEP-256.",
                details,
            ),
            active,
        )
    return KeyCheck(
        Step(
            "public_key",
            Status.OK,
            answer.seconds,
            f"An RSA key of {active.key.key_size} bits, wrapped with {info.algorithm}.",
            "sc.key_ok",
            details=details,
        ),
        active,
    )


async def _create(prober: Prober, active: ActiveKey) -> tuple[Answer, ChannelSession]:
    keys = sc.SessionKeys.generate()
    body = sc.key_exchange_message(
        active.key, active.info.algorithm, active.info.key_id, keys, {}, allow_legacy=True
    )
    pending = ChannelSession("", keys, active.info.algorithm)
    answer = await prober.send(
        _CREATE,
        json=sc.to_body(body),
        headers={"X-SC-Version": sc.HEADER_VERSION, "Content-Type": sc.CONTENT_TYPE},
        decode=sealed_decoder(_CREATE, pending),
    )
    if answer.problem is None and answer.envelope is not None:
        data = answer.envelope.data
        session_id = data.get("sessionId") if isinstance(data, dict) else None
        if isinstance(session_id, str) and session_id:
            pending.session_id = session_id
            expires = data.get("expiresIn")
            pending.expires_in = expires if isinstance(expires, int) else None
    return answer, pending


def _code(answer: Answer) -> str | None:
    return answer.envelope.code if answer.envelope is not None else None


async def session_step(prober: Prober, active: ActiveKey) -> Step:
    """Open a Secure Channel session (fetching the key again once if it was rotated), then
    close it. The session id is never reported."""
    started = time.perf_counter()
    details: dict[str, Any] = {"algorithm": active.info.algorithm}
    answer, session = await _create(prober, active)
    rotated = _code(answer) == Code.SC_KEY_UNKNOWN
    if rotated:
        details["keyRotated"] = True
        _, again, _ = await fetch_key(prober)
        if again is not None:
            answer, session = await _create(prober, again)
    if not session.session_id:
        return _session_failed(answer, details, started)
    details["expiresIn"] = session.expires_in
    sealed = sc.request_message(session.keys.request_key, {})
    closed = await prober.send(
        _CLOSE,
        json=sc.to_body(sealed),
        headers={
            "X-SC-Version": sc.HEADER_VERSION,
            "X-SC-Session-Id": session.session_id,
            "Content-Type": sc.CONTENT_TYPE,
        },
        decode=sealed_decoder(_CLOSE, session),
    )
    seconds = time.perf_counter() - started
    if _code(closed) == Code.SC_SESSION_INVALID:
        return Step(
            "session",
            Status.WARNING,
            seconds,
            "The session opened, but the server had already forgotten it when it was closed "
            "(SECURE_CHANNEL.SESSION_INVALID).",
            "sc.session_lost",
            "Sessions expire far too soon, or several servers behind a load balancer do not "
            "share them. The client opens a new session and retries, at the cost of a slower "
            "call; tell the server's administrators.",
            details,
        )
    if closed.problem is not None:
        problem = closed.problem
        details.update(problem.details)
        return Step(
            "session",
            Status.WARNING,
            seconds,
            f"The session opened, but closing it failed: {problem.summary}",
            problem.code,
            problem.advice,
            details,
        )
    if rotated:
        return Step(
            "session",
            Status.WARNING,
            seconds,
            "The server changed its key between reading it and using it "
            "(SECURE_CHANNEL.KEY_UNKNOWN); with the new key a session opened and closed.",
            "sc.key_rotated",
            "The client fetches the key again by itself; if this happens often, tell the "
            "server's administrators that the key rotates too often.",
            details,
        )
    return Step(
        "session",
        Status.OK,
        seconds,
        "A session was opened and closed; both answers were sealed and opened correctly.",
        "sc.session_ok",
        details=details,
    )


def _session_failed(answer: Answer, details: dict[str, Any], started: float) -> Step:
    seconds = time.perf_counter() - started
    code = _code(answer)
    if code == Code.SC_KEY_UNKNOWN:
        return Step(
            "session",
            Status.FAILED,
            seconds,
            "The server refused its own key twice (SECURE_CHANNEL.KEY_UNKNOWN): the key "
            "changes between every read and use.",
            "sc.key_changing",
            "The key rotates constantly, or servers behind a load balancer have different "
            "keys; tell the server's administrators.",
            details,
        )
    if code == Code.SC_DECRYPTION_FAILED:
        return Step(
            "session",
            Status.FAILED,
            seconds,
            "The server could not open the key exchange (SECURE_CHANNEL.DECRYPTION_FAILED): "
            "the algorithm it advertises is not the one it uses.",
            "sc.decryption_failed",
            _ASK_ADMINS,
            details,
        )
    problem = answer.problem or Diagnosis(
        "sc.no_session", "The session answer has no session id.", _ASK_ADMINS
    )
    details.update(problem.details)
    return Step(
        "session", Status.FAILED, seconds, problem.summary, problem.code, problem.advice, details
    )


async def headers_step(prober: Prober, envelope: Answer, *, access_code: bool) -> Step:
    """Which pre-login headers the server insists on: the client hash and the access code."""
    started = time.perf_counter()
    required: dict[str, str] = {}
    bare = await prober.send(_PUBLIC_KEY, without=(CLIENT_HASH,))
    required[CLIENT_HASH] = _requirement(bare, 400)
    denied = envelope.problem is not None and envelope.problem.code == "access.denied"
    if access_code:
        without = await prober.send(CONSTANTS, without=(ACCESS_CODE,))
        required[ACCESS_CODE] = _requirement(without, 403)
    else:
        required[ACCESS_CODE] = "required" if denied else _requirement(envelope, 403)
    required["Accept-Language"] = "optional (the language of labels)"
    details: dict[str, Any] = {"headers": required, "accessCodeGiven": access_code}
    seconds = time.perf_counter() - started
    if required[ACCESS_CODE] == "required" and not access_code:
        return Step(
            "headers",
            Status.FAILED,
            seconds,
            "The server requires a portal access code (X-PORTAL-ACCESS-CODE) and none was given.",
            "headers.access_code_missing",
            "Set the connection profile's portal access code (--access-code CODE); the portal's "
            "administrators give it.",
            details,
        )
    if denied:
        return Step(
            "headers",
            Status.FAILED,
            seconds,
            "The server refuses the portal access code given.",
            "headers.access_code_refused",
            "Check the connection profile's portal access code with the portal's administrators.",
            details,
        )
    unknown = [name for name, rule in required.items() if rule.startswith("unknown")]
    if unknown:
        return Step(
            "headers",
            Status.WARNING,
            seconds,
            f"Whether the server requires {' and '.join(unknown)} could not be told: its "
            "answers were not usable.",
            "headers.unknown",
            "See the earlier steps.",
            details,
        )
    needed = [name for name, rule in required.items() if rule == "required"]
    return Step(
        "headers",
        Status.OK,
        seconds,
        (f"The server requires {' and '.join(needed)}; " if needed else "No header is required; ")
        + "the client sends them.",
        "headers.ok",
        details=details,
    )


def _requirement(answer: Answer, refusal: int) -> str:
    if answer.status == refusal:
        return "required"
    if answer.problem is None and answer.status is not None and answer.status < 400:
        return "not required"
    return f"unknown (HTTP {answer.status})" if answer.status else "unknown (no answer)"


async def languages_step(prober: Prober, english: Answer, languages: Sequence[str]) -> Step:
    """The languages the server's labels answer in (Accept-Language), against English."""
    started = time.perf_counter()
    base = english.envelope.data if english.envelope is not None else None
    reference = [i["label"] for i in (_items(base) or [])]
    found: dict[str, str] = {}
    for language in languages:
        answer = english if language == "en" else await prober.send(CONSTANTS, language=language)
        items = _items(answer.envelope.data) if answer.envelope is not None else None
        if answer.problem is not None or items is None:
            found[language] = f"failed ({answer.problem.code if answer.problem else 'no list'})"
            continue
        labels = [i["label"] for i in items]
        if any(str(label).startswith("enum.") for label in labels):
            found[language] = "untranslated keys"
        elif language != "en" and labels == reference:
            found[language] = "English"
        else:
            found[language] = "translated" if language != "en" else "English (reference)"
    seconds = time.perf_counter() - started
    details = {"languages": found}
    bad = [k for k, v in found.items() if v.startswith("failed")]
    fallback = [k for k, v in found.items() if v in ("English", "untranslated keys")]
    if bad:
        return Step(
            "languages",
            Status.FAILED,
            seconds,
            f"The labels could not be read in {', '.join(bad)}.",
            "languages.failed",
            "See the earlier steps: the server's answers are not usable.",
            details,
        )
    if fallback:
        return Step(
            "languages",
            Status.WARNING,
            seconds,
            f"Labels are not translated for {', '.join(fallback)}.",
            "languages.fallback",
            "The program works, but lists show English labels (or raw keys) in those "
            "languages; the server's translations are missing.",
            details,
        )
    return Step(
        "languages",
        Status.OK,
        seconds,
        f"Labels answer in {', '.join(found)}.",
        "languages.ok",
        details=details,
    )


#: A sandbox's fault settings, in words.
FAULT_WORDS: dict[str, str] = {
    "latency_ms": "added latency of {v:g} ms",
    "latency_jitter_ms": "latency jitter of up to {v:g} ms",
    "error_5xx_rate": "{p} of answers are server errors (5xx)",
    "drop_rate": "{p} of connections are dropped",
    "malformed_rate": "{p} of answers are malformed",
    "html_rate": "{p} of answers are an HTML gateway page",
    "sc_expire_rate": "Secure Channel sessions expire before {p} of requests",
    "key_rotate_rate": "the Secure Channel key is rotated before {p} of requests",
    "clock_skew_s": "the clock is shifted by {v:+g} s",
}


async def sandbox_step(prober: Prober) -> Step:
    """A sandbox's fault injection settings (``GET /sandbox/faults``), named one by one."""
    answer = await prober.send(path=SANDBOX_FAULTS_PATH)
    envelope = answer.envelope
    data = envelope.data if envelope is not None and answer.problem is None else None
    config = data.get("config") if isinstance(data, dict) else None
    if not isinstance(data, dict) or not isinstance(config, dict):
        return Step(
            "sandbox",
            Status.SKIPPED,
            answer.seconds,
            "The server is not a sandbox with fault injection.",
            "sandbox.none",
        )
    active = {
        name: value
        for name, value in config.items()
        if name in FAULT_WORDS and isinstance(value, int | float) and value
    }
    details: dict[str, Any] = {"enabled": bool(data.get("enabled")), "faults": active}
    if not active or not details["enabled"]:
        return Step(
            "sandbox",
            Status.OK,
            answer.seconds,
            "The server is a sandbox; fault injection is off.",
            "sandbox.no_faults",
            details=details,
        )
    words = [
        FAULT_WORDS[name].format(v=value, p=f"{value:.0%}") + f" ({name})"
        for name, value in active.items()
    ]
    return Step(
        "sandbox",
        Status.WARNING,
        answer.seconds,
        "The server is a sandbox injecting faults on purpose: " + "; ".join(words) + ".",
        "sandbox.faults",
        "The problems above may be these faults: start the sandbox without --fault-... options "
        "for a clean check.",
        details,
    )
