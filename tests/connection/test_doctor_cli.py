"""``portal-admin-cli doctor``: the report on standard output (text or JSON), ``--out``, the
server named by URL, ``--sandbox`` or ``--profile``, and the exit statuses 0, 1, 2 and 3."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from portal_admin.cli.main import main
from portal_admin.connection.profile_store import ProfileStore
from portal_admin.connection.profiles import Profile
from support.served import ServedSandbox

from .servers import free_port


@pytest.fixture(autouse=True)
def user_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """This test's own data (the built-in sandbox) and configuration (profiles)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("PORTAL_ADMIN_HOME", str(tmp_path / "portal-admin"))


def test_the_built_in_sandbox_as_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "doctor.json"
    assert main(["doctor", "--sandbox", "--json", "--out", str(out)]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert out.read_text(encoding="utf-8") == captured.out
    assert f"report saved to {out}" in captured.err
    assert report["status"] == "ok" and report["url"] == "http://sandbox.local"
    assert [s["name"] for s in report["steps"]][:5] == ["dns", "tcp", "proxy", "tls", "envelope"]
    assert {s["name"]: s["status"] for s in report["steps"]}["session"] == "ok"
    assert "SANDBOX" not in captured.out  # the built-in sandbox's access code


def test_the_sandbox_option_before_the_area_too(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--sandbox", "doctor"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Connection doctor: http://sandbox.local\n")
    assert "[OK]      Secure Channel session" in text and "overall: OK" in text


def test_a_refused_port_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", f"http://127.0.0.1:{free_port()}"]) == 1
    text = capsys.readouterr().out
    assert "[FAILED]  TCP connection" in text and "[tcp.refused]" in text
    assert "Traceback" not in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["doctor"], "name the server"),
        (["doctor", "http://127.0.0.1:1", "--sandbox"], "only one of"),
        (["doctor", "ftp://example.com"], "is not http(s)"),
        (["doctor", "https://example.com", "--ca-bundle", "/no/such.pem"], "is not a file"),
        (["doctor", "https://example.com", "--proxy", "ftp://p:1"], "is not http://host:port"),
        (["doctor", "--profile", "Nowhere"], "no connection profile"),
    ],
)
def test_unusable_command_lines_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_proxy_and_no_proxy_together_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", "https://x.test", "--proxy", "http://p:1", "--no-proxy"]) == 2
    assert "not allowed with" in capsys.readouterr().err


@pytest.mark.http
def test_a_profile_and_warnings_exit_3(capsys: pytest.CaptureFixture[str]) -> None:
    server = ServedSandbox("--seed-accounts", "0", "--fault-clock-skew-s", "400")
    try:
        ProfileStore().save(
            [Profile("Skewed", server.base_url, portal_access_code="SANDBOX", ca_bundle=None)]
        )
        assert main(["doctor", "--profile", "skewed", "--json"]) == 3
    finally:
        server.stop()
    report = json.loads(capsys.readouterr().out)
    steps = {s["name"]: s for s in report["steps"]}
    assert steps["clock"]["code"] == "clock.skew" and steps["clock"]["status"] == "warning"
    assert steps["sandbox"]["code"] == "sandbox.faults"
    assert steps["headers"]["details"]["accessCodeGiven"] is True
    assert report["status"] == "warning"
