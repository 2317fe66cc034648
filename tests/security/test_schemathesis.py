"""schemathesis against the sandbox's own OpenAPI description (``sandbox.openapi``).

The description declares every operation's request body, parameters, security and answers
(the success envelope with ``data`` typed per operation, the error envelope with the codes of
each status), so the generated requests reach the handlers: positive and negative bodies,
query strings and headers, over the examples, coverage and fuzzing phases. Every operation,
with the access code, client hash, the signed-in administrator's bearer token and workspace,
over loopback HTTP. Checks: no 5xx; answers conform to the declared schema, statuses, content
types and headers; a method the path does not serve answers 405 with a true ``Allow``;
authentication is enforced where declared; a body the schema refuses is refused (only when
the body is the sole invalid part: the headers the test sets replace generated ones, and
unknown query parameters are ignored by design).

A stateful run then follows the description's links (create or query, then the operations
that take the id answered), each scenario against a fresh in-process sandbox.

Bounded for CI: ``PORTAL_ADMIN_SCHEMATHESIS_EXAMPLES`` fuzzing examples per operation (the
coverage phase adds its own boundary cases), ``PORTAL_ADMIN_SCHEMATHESIS_SCENARIOS`` stateful
scenarios (default ten times the examples). The Secure Channel plaintexts are fuzzed by
``tests/sandbox/test_openapi_sealed.py``; every success answer is checked by the tour of
``tests/sandbox/test_openapi.py``. Left out: logout (it would end the session the
run works in, turning the rest into 401s), the sandbox clock (it would expire the token) and
the sandbox's key rotation (slow, and not part of the API).
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
from hypothesis.stateful import run_state_machine_as_test  # noqa: E402
from schemathesis.checks import CheckContext, not_a_server_error  # noqa: E402
from schemathesis.core.parameters import ParameterLocation  # noqa: E402
from schemathesis.core.transport import Response  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    allow_header_conformance,
    content_type_conformance,
    ignored_auth,
    missing_required_header,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
    unsupported_method,
)

from portal_admin.sandbox import SandboxConfig, create_app  # noqa: E402
from portal_admin.sandbox.tokens import sign_in  # noqa: E402

EXAMPLES = int(os.environ.get("PORTAL_ADMIN_SCHEMATHESIS_EXAMPLES", "6"))
#: Scenarios of the stateful run (each up to STEPS calls along the description's links).
SCENARIOS = int(os.environ.get("PORTAL_ADMIN_SCHEMATHESIS_SCENARIOS", str(10 * EXAMPLES)))
STEPS = 6
#: A file to tally the generated requests in (operation, phase, negative), when set.
TALLY = os.environ.get("PORTAL_ADMIN_SCHEMATHESIS_TALLY")
HEADERS = {"X-PORTAL-ACCESS-CODE": "SANDBOX", "X-Client-Hash": "schemathesis"}
ADMIN = ("admin@sandbox.test", "Sandbox-Admin-2026!")
SKIPPED = r"(auth/logout|sandbox/clock|sandbox/secure-channel)"


@schemathesis.check  # type: ignore[untyped-decorator]
def body_rejection(ctx: CheckContext, response: Response, case: Any) -> bool | None:
    """``negative_data_rejection`` for cases whose only invalid part is the body."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_negative:
        return None
    others = (ParameterLocation.QUERY, ParameterLocation.PATH, ParameterLocation.HEADER)
    if not meta.is_negative_at(ParameterLocation.BODY) or any(
        meta.is_negative_at(location) for location in others
    ):
        return None
    result: bool | None = negative_data_rejection(ctx, response, case)
    return result


CHECKS = [
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    unsupported_method,
    allow_header_conformance,
    ignored_auth,
    missing_required_header,
    body_rejection,
]

#: The checks that judge an answer alone (the others send probes of their own, over HTTP).
ANSWER_CHECKS = [check for check in CHECKS if check not in (unsupported_method, ignored_auth)]

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
            auth = {"Authorization": f"Bearer {done['accessToken']}"}
            profile = http.get("/web/v1/system/profile", headers=auth).json()["data"]
        # Generated X-Workspace-Id values would only earn 403s: the admin's own is sent.
        yield base, {**HEADERS, **auth, "X-Workspace-Id": profile["workspaceBizId"]}
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
    if TALLY:  # one line per request: operation, phase, negative or not (docs/security.md)
        meta = case.meta
        negative = bool(meta and meta.generation.mode.is_negative)
        phase = meta.phase.name.value if meta else "?"
        with open(TALLY, "a", encoding="utf-8") as out:
            out.write(f"{case.operation.label}\t{phase}\t{int(negative)}\n")
    case.call_and_validate(base_url=base, headers=headers, checks=CHECKS)


def test_stateful_walks_along_the_links() -> None:
    """Sequences that follow the description's links: a create or a query, then the
    operations that take the id it answered (update, enable, cancel, delete, ...), so that
    these reach their 2xx answers too; the checks above that judge an answer alone.

    Each scenario gets a fresh in-process sandbox: what a step may do next depends on the
    answers before it, and Hypothesis replays scenarios, so the server must answer a replay
    as it did the first time.
    """

    class Workflow(SCHEMA.as_state_machine()):  # type: ignore[misc]
        def setup(self) -> None:
            super().setup()
            self.app = create_app(SandboxConfig(seed_accounts=10, test_clock=True))
            state = self.app.state.sandbox
            admin = str(
                state.db.scalar("SELECT biz_id FROM accounts WHERE email_key = ?", (ADMIN[0],))
            )
            workspace = state.db.scalar(
                "SELECT workspace_biz_id FROM workspace_members WHERE account_biz_id = ?"
                " AND is_primary = 1",
                (admin,),
            )
            token = sign_in(state, admin, client_hash=HEADERS["X-Client-Hash"]).access_token
            self.headers = {
                **HEADERS,
                "Authorization": f"Bearer {token}",
                "X-Workspace-Id": str(workspace),
            }

        def teardown(self) -> None:
            self.app.state.sandbox.db.close()
            super().teardown()

        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {"app": self.app, "base_url": "http://sandbox.test", "headers": self.headers}

        def validate_response(
            self, response: Any, case: Any, additional_checks: Any = None, **kwargs: Any
        ) -> None:
            case.validate_response(response, checks=ANSWER_CHECKS)

    run_state_machine_as_test(
        Workflow,
        settings=settings(
            max_examples=SCENARIOS,
            stateful_step_count=STEPS,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            derandomize=True,
        ),
    )
