"""The `portal-sandbox serve` command: listening line, loopback, flags, signals, file database."""

from __future__ import annotations

import ipaddress
import signal
import sqlite3
from pathlib import Path

import pytest

from ._support import (
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    LISTENING_RE,
    SYS,
    SandboxProcess,
    ScClient,
    assert_clean_exit,
    error,
    login,
    ok,
)
from .conftest import StartSandbox

pytestmark = pytest.mark.http


def _is_loopback(host: str) -> bool:
    host = host.strip("[]")
    if host == "localhost":
        return True
    return ipaddress.ip_address(host).is_loopback


def test_listening_line_names_the_picked_port(sandbox: SandboxProcess) -> None:
    assert sandbox.listening_line is not None
    match = LISTENING_RE.match(sandbox.listening_line)
    assert match, sandbox.listening_line
    assert int(match["port"]) > 0
    assert sandbox.listening_line == f"Sandbox listening on http://{match['host']}:{match['port']}"
    # The line is printed once connections are accepted: the very next request succeeds.
    api = sandbox.api()
    try:
        ok(api.get(f"{SYS}/constants/user-account-statuses"))
    finally:
        api.close()


def test_binds_loopback_by_default(sandbox: SandboxProcess) -> None:
    assert _is_loopback(sandbox.host), sandbox.listening_line


def test_non_loopback_host_needs_allow_remote(start_sandbox: StartSandbox) -> None:
    refused = start_sandbox("--host", "0.0.0.0", wait=False)
    line = refused.wait_listening(timeout=30)
    if line is None:
        refused.proc.wait(timeout=30)
    assert line is None, f"listened on a non-loopback host without --allow-remote: {line}"
    assert refused.proc.returncode not in (None, 0), "refusal should exit with an error status"
    refused.stopped_rc = refused.proc.returncode

    allowed = start_sandbox("--host", "0.0.0.0", "--allow-remote")
    assert allowed.listening_line is not None
    assert allowed.port > 0


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_signals_stop_cleanly(start_sandbox: StartSandbox, sig: signal.Signals) -> None:
    server = start_sandbox()
    api = server.api()
    ok(api.get(f"{SYS}/constants/order-statuses"))
    api.close()
    rc = server.stop(sig)
    assert_clean_exit(server, rc)


def test_test_clock_endpoint_is_404_without_flag(start_sandbox: StartSandbox) -> None:
    server = start_sandbox(test_clock=False)
    api = server.api()
    try:
        resp = api.client.post("/sandbox/clock/advance", json={"seconds": 10})
        assert resp.status_code == 404, resp.text
    finally:
        api.close()


def test_portal_access_code_flag(start_sandbox: StartSandbox) -> None:
    server = start_sandbox("--portal-access-code", "Other-Code-42")
    default = server.api()
    custom = server.api(access_code="Other-Code-42")
    try:
        error(default.get(f"{SYS}/constants/order-statuses"), 403, "ACCESS.PERMISSION_DENIED")
        ok(custom.get(f"{SYS}/constants/order-statuses"))
    finally:
        default.close()
        custom.close()


def _account_total(server: SandboxProcess) -> int:
    api = server.api()
    try:
        token = login(api, ADMIN_EMAIL, ADMIN_PASSWORD).access
        data = ok(api.post(f"{SYS}/accounts/admin/query", {"page": 0, "size": 100}, token=token))
        return int(data["totalElements"])
    finally:
        api.close()


def test_seed_accounts_flag_adds_n_generated_accounts(start_sandbox: StartSandbox) -> None:
    small = start_sandbox(seed=5)
    large = start_sandbox(seed=35)
    assert _account_total(large) - _account_total(small) == 30


def test_file_database_keeps_changes_across_restart(
    start_sandbox: StartSandbox, tmp_path: Path
) -> None:
    db = tmp_path / "sandbox.sqlite3"
    first = start_sandbox(db=db)
    api = first.api()
    token = login(api, ADMIN_EMAIL, ADMIN_PASSWORD).access
    before = ok(api.post(f"{SYS}/accounts/admin/query", {"page": 0, "size": 5}, token=token))
    target = before["accounts"][0]
    ok(
        api.post(
            f"{SYS}/accounts/admin/update",
            {
                "userBizId": target["bizId"],
                "accountName": "Persisted Name Ω",
                "accountRemark": "kept",
            },
            token=token,
        )
    )
    portal = ok(
        api.post(
            f"{SYS}/institutions/portals",
            {"portalType": 10010102, "domain": "persist.example.test"},
            token=token,
        )
    )
    # A password change too (hashed with the KDF, over the Secure Channel).
    sc = ScClient(api)
    sc.open_session()
    resp, env = sc.call(
        f"{SYS}/auth/password/change",
        {"currentPassword": ADMIN_PASSWORD, "newPassword": "Persisted-Admin-2026!"},
        token=token,
    )
    assert resp.status_code == 200 and env["success"] is True, env
    api.close()
    assert_clean_exit(first, first.stop())
    assert db.exists() and db.stat().st_size > 0

    second = start_sandbox(db=db)
    api = second.api()
    try:
        error(
            api.post(
                f"{SYS}/auth/login/initiate", {"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD}
            ),
            401,
            "AUTH.INVALID_CREDENTIALS",
        )
        token = login(api, ADMIN_EMAIL, "Persisted-Admin-2026!").access
        after = ok(api.post(f"{SYS}/accounts/admin/query", {"page": 0, "size": 5}, token=token))
        assert after["totalElements"] == before["totalElements"], "the database was re-seeded"
        found = ok(
            api.post(
                f"{SYS}/accounts/admin/query",
                {"email": target["accountEmail"], "page": 0, "size": 20},
                token=token,
            )
        )
        names = {a["bizId"]: a for a in found["accounts"]}
        assert names[target["bizId"]]["accountName"] == "Persisted Name Ω"
        assert names[target["bizId"]]["accountRemark"] == "kept"
        portals = ok(
            api.post(
                f"{SYS}/institutions/portals",
                {"portalType": 10010102, "domain": "persist-2.example.test"},
                token=token,
            )
        )
        assert portals["id"] != portal["id"], "portal ids restarted: the first one was lost"
    finally:
        api.close()
    # It really is SQLite.
    with sqlite3.connect(db) as conn:
        assert conn.execute("select count(*) from sqlite_master").fetchone()[0] > 0


def test_default_database_is_a_file_in_the_user_data_folder(
    start_sandbox: StartSandbox, tmp_path: Path
) -> None:
    data_home = tmp_path / "xdg-data"
    data_home.mkdir()
    env = {"PORTAL_ADMIN_HOME": str(data_home), "HOME": str(tmp_path / "home")}
    (tmp_path / "home").mkdir()
    server = start_sandbox(db=None, env=env)
    api = server.api()
    try:
        ok(api.get(f"{SYS}/constants/order-statuses"))
    finally:
        api.close()
    files = [p for p in data_home.rglob("*") if p.is_file()]
    assert files, "no database file was created under PORTAL_ADMIN_HOME"


@pytest.mark.parametrize("shape", ["accounts", "content"])
def test_account_query_shape_flag(start_sandbox: StartSandbox, shape: str) -> None:
    server = start_sandbox("--account-query-shape", shape)
    api = server.api()
    try:
        token = login(api, ADMIN_EMAIL, ADMIN_PASSWORD).access
        data = ok(api.post(f"{SYS}/accounts/admin/query", {"page": 0, "size": 3}, token=token))
    finally:
        api.close()
    if shape == "accounts":
        keys = {"accounts", "totalElements", "totalPages", "currentPage", "pageSize"}
        assert keys <= data.keys(), data.keys()
        assert "content" not in data
        rows = data["accounts"]
        assert data["pageSize"] == 3
    else:
        keys = {"content", "totalElements", "totalPages", "page", "size"}
        assert keys <= data.keys(), data.keys()
        assert "accounts" not in data
        rows = data["content"]
        assert data["size"] == 3
    assert isinstance(rows, list) and len(rows) == 3
    for name in ("totalElements", "totalPages"):
        assert isinstance(data[name], int)
