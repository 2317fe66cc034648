"""The connection doctor against the sandbox in process: every step, each fault injection
option named, the access code, legacy padding, and a report free of secrets."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from portal_admin.client import sandbox_transport
from portal_admin.connection.doctor import STEP_TITLES, Report, Status, diagnose, exit_status

from .conftest import ACCESS_CODE, sandbox_app

URL = "http://sandbox.test"
NETWORK = ("dns", "tcp", "proxy", "tls")
Transport = Callable[..., httpx.AsyncBaseTransport]


def statuses(report: Report) -> dict[str, str]:
    return {s.name: s.status.value for s in report.steps}


def code(report: Report, name: str) -> str:
    step = report.step(name)
    assert step is not None, name
    return step.code


async def test_every_step_ok_against_the_sandbox_in_process(in_process: Transport) -> None:
    seen: list[str] = []
    report = await diagnose(
        URL, access_code=ACCESS_CODE, transport=in_process(), progress=lambda s: seen.append(s.name)
    )
    assert [s.name for s in report.steps] == list(STEP_TITLES) == seen
    for name in NETWORK:
        assert code(report, name) == "network.in_process"
        assert report.step(name).status is Status.SKIPPED  # type: ignore[union-attr]
    assert statuses(report) == {
        **dict.fromkeys(NETWORK, "skipped"),
        "envelope": "ok",
        "clock": "ok",
        "public_key": "ok",
        "session": "ok",
        "headers": "ok",
        "languages": "ok",
        "sandbox": "skipped",  # no fault injection configured: no hooks
        "signing_key": "ok",
    }
    assert report.status is Status.OK and exit_status(report) == 0
    key = report.step("public_key")
    assert key is not None
    assert key.details["keySize"] == 3072 and key.details["algorithm"] == "RSA-OAEP-256"
    assert len(key.details["sha256"]) == 64
    headers = report.step("headers")
    assert headers is not None
    assert headers.details["headers"]["X-Client-Hash"] == "required"
    assert headers.details["headers"]["X-PORTAL-ACCESS-CODE"] == "required"
    languages = report.step("languages")
    assert languages is not None
    assert languages.details["languages"] == {
        "en": "English (reference)",
        "zh": "translated",
        "zh-Hant": "translated",
        "ja": "translated",
        "vi": "translated",
    }
    clock = report.step("clock")
    assert clock is not None and abs(clock.details["offsetSeconds"]) < 5
    for step in report.steps:
        assert step.code and step.summary.endswith(".")
        assert step.seconds >= 0


async def test_our_clock_far_off_is_a_warning_that_says_why(in_process: Transport) -> None:
    import time

    report = await diagnose(
        URL, access_code=ACCESS_CODE, transport=in_process(), clock=lambda: time.time() - 3600
    )
    clock = report.step("clock")
    assert clock is not None
    assert (clock.status, clock.code) == (Status.WARNING, "clock.skew")
    assert "60 min ahead of" in clock.summary
    assert "codes" in clock.advice and "tokens" in clock.advice and "NTP" in clock.advice
    assert exit_status(report) == 3


#: Each fault injection option, the step that names it and the diagnosis it gets.
FAULTS: list[tuple[dict[str, Any], str, str]] = [
    ({"latency_ms": 150}, "envelope", "http.slow"),
    ({"latency_jitter_ms": 300, "latency_ms": 120}, "envelope", "http.slow"),
    ({"error_5xx_rate": 1}, "envelope", "http.server_error"),
    ({"drop_rate": 1}, "envelope", "http.dropped"),
    ({"malformed_rate": 1}, "envelope", "envelope.malformed"),
    ({"html_rate": 1}, "envelope", "http.gateway_page"),
    ({"sc_expire_rate": 1}, "session", "sc.session_lost"),
    ({"key_rotate_rate": 1}, "session", "sc.key_changing"),
    ({"clock_skew_s": 300}, "clock", "clock.skew"),
    ({"clock_skew_s": -90}, "clock", "clock.skew"),
]


@pytest.mark.parametrize(
    ("settings", "step", "diagnosis"), FAULTS, ids=[next(iter(f[0])) for f in FAULTS]
)
async def test_each_fault_injection_option_is_named(
    in_process: Transport, settings: dict[str, Any], step: str, diagnosis: str
) -> None:
    report = await diagnose(
        URL,
        access_code=ACCESS_CODE,
        transport=in_process(**settings),
        languages=("en", "ja"),
        slow=0.1,
    )
    found = report.step(step)
    assert found is not None
    assert found.code == diagnosis, report.to_text()
    assert found.status in (Status.WARNING, Status.FAILED)
    assert found.advice
    sandbox = report.step("sandbox")
    assert sandbox is not None
    if diagnosis == "http.gateway_page":  # an HTML page: nothing after it is the API
        assert sandbox.code == "skipped.not_portal"
        assert "HTML error page" in found.summary and "Bad Gateway" in found.summary
    else:  # the sandbox's own hooks name the option itself
        assert sandbox.code == "sandbox.faults"
        for name in settings:
            assert f"({name})" in sandbox.summary
            assert name in sandbox.details["faults"]
    assert "Traceback" not in report.to_text()


async def test_a_rotated_key_that_settles_is_a_warning() -> None:
    app = sandbox_app(key_rotate_rate=0.0001, seed=1)  # hooks on, no rotation by chance
    injector = app.state.faults
    calls = 0

    class RotateOnce(httpx.ASGITransport):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            nonlocal calls
            if request.url.path.endswith("/secure-channel/session"):
                calls += 1
                if calls == 1:
                    injector.rotate_key()
            return await super().handle_async_request(request)

    report = await diagnose(URL, access_code=ACCESS_CODE, transport=RotateOnce(app=app))
    session = report.step("session")
    assert session is not None
    assert (session.status, session.code) == (Status.WARNING, "sc.key_rotated")
    assert session.details["keyRotated"] is True and calls == 2


async def test_without_the_access_code_the_headers_step_says_so(in_process: Transport) -> None:
    report = await diagnose(URL, transport=in_process())
    assert code(report, "envelope") == "access.denied"
    headers = report.step("headers")
    assert headers is not None
    assert (headers.status, headers.code) == (Status.FAILED, "headers.access_code_missing")
    assert "--access-code" in headers.advice
    assert statuses(report)["public_key"] == "ok"  # the channel needs no access code
    assert statuses(report)["session"] == "ok"
    assert exit_status(report) == 1


async def test_a_wrong_access_code_is_refused(in_process: Transport) -> None:
    report = await diagnose(URL, access_code="WRONG", transport=in_process())
    assert code(report, "headers") == "headers.access_code_refused"
    assert "WRONG" not in report.to_text() + report.to_json()


async def test_legacy_padding_is_flagged() -> None:
    transport = sandbox_transport(sandbox_app(sc_algorithm="RSA1_5"))
    report = await diagnose(URL, access_code=ACCESS_CODE, transport=transport)
    key = report.step("public_key")
    assert key is not None
    assert (key.status, key.code) == (Status.WARNING, "sc.legacy_padding")
    assert "refuses it unless" in key.summary and "RSA-OAEP-256" in key.advice
    assert code(report, "session") == "sc.session_ok"


class Recording(httpx.ASGITransport):
    """Keeps the request headers and answer bodies that passed."""

    def __init__(self, app: Any) -> None:
        super().__init__(app=app)
        self.headers: dict[str, set[str]] = {}
        self.bodies: list[bytes] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        for name, value in request.headers.items():
            self.headers.setdefault(name.lower(), set()).add(value)
        response = await super().handle_async_request(request)
        body = await response.aread()
        self.bodies.append(body)
        return httpx.Response(response.status_code, headers=response.headers, content=body)


async def test_the_report_holds_no_secret() -> None:
    recording = Recording(sandbox_app(access_code="Secret-Code-42"))
    report = await diagnose(URL, access_code="Secret-Code-42", transport=recording)
    assert report.status is Status.OK, report.to_text()
    text, data = report.to_text(), report.to_json()
    secrets = {
        *recording.headers["x-portal-access-code"],  # the access code
        *recording.headers["x-sc-session-id"],  # the Secure Channel session (closed)
        *recording.headers["x-client-hash"],  # this installation's fingerprint
    }
    assert len(secrets) == 3
    public_key = json.loads(next(b for b in recording.bodies if b"publicKey" in b))["data"]
    secrets.add(public_key["publicKey"][:40])  # key material: only its fingerprint is shown
    for secret in secrets:
        assert secret not in text and secret not in data, secret
    parsed = json.loads(data)
    assert parsed["report"] == "portal-admin connection doctor" and parsed["status"] == "ok"
    assert set(parsed["steps"][0]) == {
        "name",
        "title",
        "status",
        "code",
        "seconds",
        "summary",
        "advice",
        "details",
    }


def fake_server(version: str, algorithm: str, labels: dict[str, str]) -> httpx.MockTransport:
    """A server that answers the doctor's public calls with these oddities."""
    from cryptography.hazmat.primitives.asymmetric import rsa

    from portal_admin.protocol import secure_channel as sc

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    public_key = sc.export_public_key(key.public_key())

    def answer(request: httpx.Request) -> httpx.Response:
        envelope = {"version": version, "timestamp": 1, "success": True, "code": "2000"}
        if request.url.path.endswith("/public-key"):
            data: Any = {"keyId": "k1", "publicKey": public_key, "algorithm": algorithm}
        elif "/constants/" in request.url.path:
            label = labels.get(request.headers.get("accept-language", "en"), "Active")
            data = [{"code": "ACTIVE", "value": 10010202, "label": label}]
        else:
            return httpx.Response(404, json={**envelope, "success": False, "code": "4040"})
        return httpx.Response(200, json={**envelope, "message": "SUCCESS", "data": data})

    return httpx.MockTransport(answer)


async def test_an_old_envelope_an_unknown_algorithm_and_untranslated_labels() -> None:
    transport = fake_server("1.0.0", "RSA-FOO", {"ja": "enum.AccountStatus.ACTIVE"})
    report = await diagnose(URL, transport=transport, languages=("en", "zh", "ja"))
    assert statuses(report)["envelope"] == "warning"
    assert code(report, "envelope") == "envelope.version"
    assert code(report, "clock") == "clock.unreadable"  # 1 ms after 1970: not epoch ms
    assert code(report, "public_key") == "sc.unknown_algorithm"
    assert code(report, "session") == "skipped.no_key"
    languages = report.step("languages")
    assert languages is not None and languages.code == "languages.fallback"
    assert languages.details["languages"] == {
        "en": "English (reference)",
        "zh": "English",
        "ja": "untranslated keys",
    }
    assert "zh, ja" in languages.summary
