"""The connection doctor over the network: a loopback sandbox, a refused port, servers that
are not the API, TLS with and without the CA, and HTTP proxies (CONNECT, 407)."""

from __future__ import annotations

from pathlib import Path

import pytest

from portal_admin.connection.doctor import Report, Status, diagnose, exit_status
from support.served import ServedSandbox

from .conftest import ACCESS_CODE, sandbox_app
from .servers import Certs, ThreadedServer, connect_proxy, free_port, http_server, make_certs

API_STEPS = ("envelope", "clock", "public_key", "session", "headers", "languages", "sandbox")


def statuses(report: Report) -> dict[str, str]:
    return {s.name: s.status.value for s in report.steps}


def step(report: Report, name: str) -> tuple[Status, str]:
    found = report.step(name)
    assert found is not None, name
    return found.status, found.code


@pytest.mark.http
async def test_every_step_ok_against_a_loopback_sandbox(served: ServedSandbox) -> None:
    report = await diagnose(served.base_url, access_code=ACCESS_CODE)
    assert statuses(report) == {
        "dns": "ok",
        "tcp": "ok",
        "proxy": "skipped",
        "tls": "skipped",
        "envelope": "ok",
        "clock": "ok",
        "public_key": "ok",
        "session": "ok",
        "headers": "ok",
        "languages": "ok",
        "sandbox": "skipped",
        "signing_key": "ok",
    }, report.to_text()
    assert step(report, "proxy")[1] == "proxy.none"
    assert step(report, "tls")[1] == "tls.plain_loopback"
    tcp = report.step("tcp")
    assert tcp is not None and tcp.details["address"].startswith("127.0.0.1:")
    assert exit_status(report) == 0


@pytest.mark.http
@pytest.mark.parametrize(
    ("option", "field", "name", "diagnosis"),
    [
        (("--fault-drop-rate", "1"), "drop_rate", "envelope", "http.dropped"),
        (("--fault-5xx-rate", "1"), "error_5xx_rate", "envelope", "http.server_error"),
        (("--fault-clock-skew-s", "-600"), "clock_skew_s", "clock", "clock.skew"),
        (("--fault-html-rate", "1"), None, "envelope", "http.gateway_page"),
    ],
)
async def test_faults_of_a_served_sandbox_are_named(
    option: tuple[str, str], field: str | None, name: str, diagnosis: str
) -> None:
    server = ServedSandbox("--seed-accounts", "0", *option)
    try:
        report = await diagnose(server.base_url, access_code=ACCESS_CODE, languages=("en",))
    finally:
        server.stop()
    assert step(report, name)[1] == diagnosis, report.to_text()
    sandbox = report.step("sandbox")
    assert sandbox is not None
    if field is None:  # an HTML gateway page: the rest is skipped, the page is named
        assert sandbox.code == "skipped.not_portal"
    else:
        assert sandbox.code == "sandbox.faults" and f"({field})" in sandbox.summary


async def test_a_refused_port() -> None:
    port = free_port()
    report = await diagnose(f"http://127.0.0.1:{port}")
    assert step(report, "dns") == (Status.OK, "dns.ok")
    tcp = report.step("tcp")
    assert tcp is not None
    assert (tcp.status, tcp.code) == (Status.FAILED, "tcp.refused")
    assert f"port {port}" in tcp.summary and "running" in tcp.advice
    assert step(report, "tls")[1] == "skipped.earlier"
    assert {step(report, n)[1] for n in API_STEPS} == {"skipped.unreachable"}
    assert exit_status(report) == 1


async def test_an_unknown_host_name() -> None:
    report = await diagnose("https://no-such-host.invalid", timeout=5)
    assert step(report, "dns") == (Status.FAILED, "dns.not_found")
    assert step(report, "tcp")[1] == "skipped.earlier"


CAPTIVE = (
    b"<!DOCTYPE html><html><head><title>Hotel Wi-Fi sign in</title></head>"
    b"<body>Accept the terms</body></html>"
)


async def test_a_captive_portal_page_is_not_a_system_portal() -> None:
    async with http_server("200 OK", CAPTIVE, "text/html; charset=utf-8") as page:
        report = await diagnose(page.url, access_code=ACCESS_CODE)
    envelope = report.step("envelope")
    assert envelope is not None
    assert (envelope.status, envelope.code) == (Status.FAILED, "http.html_page")
    assert "Hotel Wi-Fi sign in" in envelope.summary
    assert "captive portal" in envelope.advice and "System Portal" in envelope.advice
    for name in API_STEPS[1:]:
        assert step(report, name)[1] == "skipped.not_portal"
    assert len(page.requests) == 1  # nothing more is sent to it


async def test_a_captive_portal_redirect() -> None:
    extra = "Location: http://login.hotel.example/portal?mac=aa:bb&token=abc\r\n"
    async with http_server("302 Found", b"", "text/plain", extra) as page:
        report = await diagnose(page.url)
    envelope = report.step("envelope")
    assert envelope is not None and envelope.code == "http.redirect"
    assert "http://login.hotel.example/portal" in envelope.summary
    assert "token=abc" not in report.to_json()  # the query of a redirect is not shown


async def test_another_json_server_is_not_a_system_portal() -> None:
    async with http_server("404 Not Found", b'{"detail": "Not Found"}', "application/json") as api:
        report = await diagnose(api.url)
    assert step(report, "envelope") == (Status.FAILED, "http.not_portal")
    assert step(report, "session")[1] == "skipped.not_portal"


async def test_tls_without_the_ca_fails_with_advice(tls_sandbox: ThreadedServer) -> None:
    report = await diagnose(tls_sandbox.url, access_code=ACCESS_CODE)
    tls = report.step("tls")
    assert tls is not None
    assert (tls.status, tls.code) == (Status.FAILED, "tls.untrusted")
    assert "Doctor Test CA" in tls.summary and "system store" in tls.summary
    assert "--ca-bundle" in tls.advice
    assert tls.details["ca"]["store"] == "system"
    assert tls.details["certificate"]["subject"] == "portal.test"
    assert {step(report, n)[1] for n in API_STEPS} == {"skipped.unreachable"}


async def test_tls_with_the_ca_bundle_is_ok(tls_sandbox: ThreadedServer, certs: Certs) -> None:
    report = await diagnose(tls_sandbox.url, access_code=ACCESS_CODE, ca_bundle=str(certs.ca))
    assert report.status is Status.OK, report.to_text()
    tls = report.step("tls")
    assert tls is not None and tls.code == "tls.ok"
    assert tls.details["version"] in ("TLSv1.2", "TLSv1.3")
    assert tls.details["ca"] == {"store": "CA bundle", "file": str(certs.ca)}
    cert = tls.details["certificate"]
    assert cert["issuer"] == "Doctor Test CA" and "127.0.0.1" in cert["names"]
    assert 85 <= cert["daysLeft"] <= 90 and cert["namesHost"] is True
    assert tls.details["chain"][0] == "portal.test (issued by Doctor Test CA)"
    assert statuses(report)["session"] == "ok"


async def test_tls_for_another_name(tls_sandbox: ThreadedServer, certs: Certs) -> None:
    url = f"https://localhost:{tls_sandbox.port}"
    report = await diagnose(url, ca_bundle=str(certs.ca))
    tls = report.step("tls")
    assert tls is not None
    assert (tls.status, tls.code) == (Status.FAILED, "tls.hostname_mismatch"), report.to_text()
    assert "portal.test" in tls.summary and "localhost" in tls.summary


@pytest.mark.parametrize(
    ("days_left", "status", "diagnosis"),
    [(-3, Status.FAILED, "tls.expired"), (5, Status.WARNING, "tls.expires_soon")],
)
async def test_a_certificate_near_or_past_its_end(
    tmp_path: Path, days_left: int, status: Status, diagnosis: str
) -> None:
    certs = make_certs(tmp_path, days_left=days_left)
    server = ThreadedServer(sandbox_app(), certs).start()
    try:
        report = await diagnose(server.url, access_code=ACCESS_CODE, ca_bundle=str(certs.ca))
    finally:
        server.stop()
    tls = report.step("tls")
    assert tls is not None
    assert (tls.status, tls.code) == (status, diagnosis), report.to_text()
    assert tls.details["certificate"]["daysLeft"] == days_left
    assert tls.details["certificate"]["notAfter"][:10] in tls.summary
    if status is Status.WARNING:  # the API steps still run
        assert statuses(report)["session"] == "ok"
        assert exit_status(report) == 3


@pytest.mark.http
async def test_https_to_a_plain_http_port(served: ServedSandbox) -> None:
    url = served.base_url.replace("http://", "https://")
    report = await diagnose(url)
    assert step(report, "tls") == (Status.FAILED, "tls.not_tls")


async def test_through_a_connect_proxy(tls_sandbox: ThreadedServer, certs: Certs) -> None:
    async with connect_proxy("doctor", "pa55-word") as proxy:
        proxy_url = f"http://doctor:pa55-word@127.0.0.1:{proxy.port}"
        report = await diagnose(
            tls_sandbox.url, access_code=ACCESS_CODE, ca_bundle=str(certs.ca), proxy=proxy_url
        )
    assert report.status is Status.OK, report.to_text()
    found = report.step("proxy")
    assert found is not None and found.code == "proxy.ok"
    assert found.details["proxy"] == f"http://***@127.0.0.1:{proxy.port}"
    assert found.details["source"] == "given"
    dns = report.step("dns")
    assert dns is not None and dns.details["host"] == "127.0.0.1"
    target = f"CONNECT 127.0.0.1:{tls_sandbox.port} HTTP/1.1"
    assert proxy.requests == [target, target]  # the doctor's own tunnel, and the API calls
    assert "pa55-word" not in report.to_text() + report.to_json()


async def test_a_proxy_that_wants_credentials(tls_sandbox: ThreadedServer, certs: Certs) -> None:
    async with connect_proxy("doctor", "right") as proxy:
        bare = await diagnose(tls_sandbox.url, proxy=f"http://127.0.0.1:{proxy.port}")
        wrong = await diagnose(tls_sandbox.url, proxy=f"http://doctor:wrong@127.0.0.1:{proxy.port}")
    found = bare.step("proxy")
    assert found is not None
    assert (found.status, found.code) == (Status.FAILED, "proxy.auth_required")
    assert "407" in found.summary and "http://user:password@proxy:port" in found.advice
    assert step(wrong, "proxy") == (Status.FAILED, "proxy.auth_failed")
    assert step(bare, "tls")[1] == "skipped.earlier"
    assert exit_status(bare) == 1


async def test_a_proxy_that_refuses_the_tunnel(tls_sandbox: ThreadedServer) -> None:
    async with connect_proxy(status="403 Forbidden") as proxy:
        report = await diagnose(tls_sandbox.url, proxy=f"http://127.0.0.1:{proxy.port}")
    assert step(report, "proxy") == (Status.FAILED, "proxy.refused")


async def test_the_proxy_from_the_environment_and_no_proxy(
    tls_sandbox: ThreadedServer, certs: Certs, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with connect_proxy() as proxy:
        monkeypatch.setenv("HTTPS_PROXY", f"http://127.0.0.1:{proxy.port}")
        used = await diagnose(tls_sandbox.url, access_code=ACCESS_CODE, ca_bundle=str(certs.ca))
        off = await diagnose(tls_sandbox.url, ca_bundle=str(certs.ca), proxy=False)
        monkeypatch.setenv("NO_PROXY", "127.0.0.1")
        bypassed = await diagnose(tls_sandbox.url, ca_bundle=str(certs.ca))
    found = used.step("proxy")
    assert found is not None and found.code == "proxy.ok"
    assert found.details["source"] == "environment (HTTPS_PROXY)"
    assert used.status is Status.OK, used.to_text()
    off_step = off.step("proxy")
    assert off_step is not None and "--no-proxy" in off_step.summary
    by = bypassed.step("proxy")
    assert by is not None and by.code == "proxy.none" and "NO_PROXY" in by.summary
    assert len(proxy.requests) == 2 and all("CONNECT" in r for r in proxy.requests)


async def test_a_port_that_is_no_proxy() -> None:
    async with http_server("200 OK", CAPTIVE, "text/html") as page:
        report = await diagnose("https://portal.test", proxy=page.url)
    assert step(report, "proxy") == (Status.FAILED, "proxy.not_a_proxy")


def test_the_sandbox_app_helper_keeps_faults_off_by_default() -> None:
    assert sandbox_app().state.faults is None
