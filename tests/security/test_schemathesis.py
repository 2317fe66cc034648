"""schemathesis against the sandbox's own OpenAPI description (FastAPI ``app.openapi()``).

Every operation, with the access code and client hash, and a bearer token of the signed-in
administrator (TOTP code from the sandbox): no 5xx, and every answer conforms to the schema
the description declares. Bounded for CI (``PORTAL_ADMIN_SCHEMATHESIS_EXAMPLES`` per operation).
Operations that end the session the run works in (logout, password reset and change, account
status of the administrator) are left out: they would only turn the rest into 401s.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

schemathesis = pytest.importorskip(
    "schemathesis", reason="schemathesis is not installed (pip install schemathesis)"
)
import subprocess  # noqa: E402
import sys  # noqa: E402
from collections.abc import Iterator  # noqa: E402

import httpx  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import response_schema_conformance  # noqa: E402

from portal_admin.sandbox import SandboxConfig, create_app  # noqa: E402

EXAMPLES = int(os.environ.get("PORTAL_ADMIN_SCHEMATHESIS_EXAMPLES", "6"))
HEADERS = {"X-PORTAL-ACCESS-CODE": "SANDBOX", "X-Client-Hash": "schemathesis"}
ADMIN = ("admin@sandbox.test", "Sandbox-Admin-2026!")
SKIPPED = (
    r"(auth/logout|auth/password/|sandbox/clock|accounts/admin/status|security/sessions/revoke)"
)

#: The description comes from the app itself; the calls go to the real server on loopback.
SCHEMA = schemathesis.openapi.from_dict(
    create_app(SandboxConfig(seed_accounts=0, test_clock=True)).openapi()
).exclude(path_regex=SKIPPED)


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[str, dict[str, str]]]:
    """``portal-sandbox serve`` on a free loopback port, and the admin's headers."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "portal_admin.sandbox.cli", "serve", "--port", "0",
         "--db", ":memory:", "--seed-accounts", "10", "--test-clock"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("Sandbox listening on "), line
        base = line.split()[-1]
        with httpx.Client(base_url=base, headers=HEADERS, timeout=30) as http:
            start = http.post(
                "/web/v1/system/auth/login/initiate",
                json={"email": ADMIN[0], "password": ADMIN[1]},
            ).json()["data"]
            code = http.get("/sandbox/totp", params={"email": ADMIN[0]}).json()["data"]["code"]
            done = http.post(
                "/web/v1/system/auth/login/complete",
                json={"sessionId": start["sessionId"], "method": 10011002, "code": code},
            ).json()["data"]
        yield base, {**HEADERS, "Authorization": f"Bearer {done['accessToken']}"}
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
        assert "Traceback" not in err, err[-2000:]


@SCHEMA.parametrize()  # type: ignore[untyped-decorator]
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_no_server_error_and_no_schema_violation(
    case: Any, served: tuple[str, dict[str, str]]
) -> None:
    base, headers = served
    case.call_and_validate(
        base_url=base, headers=headers, checks=[not_a_server_error, response_schema_conformance]
    )
