"""schemathesis behind the Secure Channel: generated plaintexts, sealed in a live session.

schemathesis cannot seal a body, so against the description itself every sealed operation
ends at the frame checks (400/401). Here the description's ``x-sealed-plaintext`` request
schemas take the place of the frame: schemathesis generates plaintexts (positive and
negative, examples, coverage and fuzzing phases), the test seals each in a live session
(``sc_wire``, written from the profile), sends it to the served sandbox, and checks the answer
against the real description: the status is declared, the frame conforms, and the decrypted
envelope conforms to what the description says the frame carries. No 5xx.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from openapi_checks import Described
from sandbox_flows import BASE_HEADERS, OTP, SC, SYSTEM, Served
from sc_wire import WireClient, body
from schemathesis.core import NOT_SET

from portal_admin.protocol.operations import match
from portal_admin.sandbox import SandboxConfig, create_app
from portal_admin.sandbox.openapi import PLAINTEXT_KEY
from support.accounts import ADMIN_EMAIL, ADMIN_PASSWORD

EXAMPLES = int(os.environ.get("PORTAL_ADMIN_SCHEMATHESIS_EXAMPLES", "6"))

_app = create_app(SandboxConfig(seed_accounts=0, test_clock=True))
SPEC: dict[str, Any] = _app.openapi()
_app.state.sandbox.db.close()


def plaintext_description(spec: dict[str, Any]) -> dict[str, Any]:
    """The sealed operations alone, each taking its plaintext as the body."""
    variant = copy.deepcopy(spec)
    paths: dict[str, Any] = {}
    for path, item in variant["paths"].items():
        for method, operation in item.items():
            if operation.get("x-secure-channel") != "sealed":
                continue
            media = operation["requestBody"]["content"]["application/json"]
            media["schema"] = media.pop(PLAINTEXT_KEY)
            operation["parameters"] = []  # the channel headers are the test's
            operation["security"] = []
            paths.setdefault(path, {})[method] = operation
    variant["paths"] = paths
    return variant


PLAINTEXTS = schemathesis.openapi.from_dict(plaintext_description(SPEC))
DESCRIBED = Described(SPEC)


class Channel:
    """A signed-in administrator and a Secure Channel session on the served sandbox."""

    def __init__(self, http: httpx.Client) -> None:
        self.http = http
        self.public_key = http.get(f"{SC}/public-key").json()["data"]
        start = http.post(
            f"{SYSTEM}/auth/login/initiate", json={"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD}
        ).json()["data"]
        code = http.get("/sandbox/totp", params={"email": ADMIN_EMAIL}).json()["data"]["code"]
        done = http.post(
            f"{SYSTEM}/auth/login/complete",
            json={"sessionId": start["sessionId"], "method": OTP, "code": code},
        ).json()["data"]
        self.token = {"Authorization": f"Bearer {done['accessToken']}"}
        self.wire = self.open()

    def open(self, plaintext: Any = None) -> WireClient:
        """A new session (its creation answer checked by the caller when it matters)."""
        wire = WireClient.from_public_key(self.public_key)
        resp = self.create(wire, plaintext)
        wire.session_id = wire.open(resp.json())["data"]["sessionId"]
        return wire

    def create(self, wire: WireClient, plaintext: Any) -> httpx.Response:
        return self.http.post(
            f"{SC}/session", json=body(wire.key_exchange(plaintext)), headers={"X-SC-Version": "2"}
        )


@pytest.fixture(scope="module")
def channel(served: Served) -> Iterator[Channel]:
    with httpx.Client(base_url=served.base_url, headers=BASE_HEADERS, timeout=30) as http:
        yield Channel(http)


@pytest.mark.http
@PLAINTEXTS.parametrize()  # type: ignore[untyped-decorator]
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_sealed_plaintexts_get_declared_answers(case: Any, channel: Channel) -> None:
    method, path = case.operation.label.split(" ", 1)
    op = match(method, path)
    assert op is not None, case.operation.label
    plaintext = {} if case.body is NOT_SET else case.body
    if isinstance(plaintext, bytes):  # "any JSON" schemas get raw bodies too: send them as text
        plaintext = plaintext.decode("latin-1")
    if op.id == "secure_channel.session_create":
        wire = WireClient.from_public_key(channel.public_key)
        resp = channel.create(wire, plaintext)
    else:
        # Closing would end the shared session: close a session of its own.
        wire = channel.open() if op.id == "secure_channel.session_close" else channel.wire
        headers = {**wire.headers(), **channel.token}
        resp = channel.http.post(op.path, json=body(wire.data(plaintext)), headers=headers)
    assert resp.status_code < 500, resp.text
    envelope = DESCRIBED.check(op.id, resp, wire)
    assert "Traceback" not in str(envelope)
