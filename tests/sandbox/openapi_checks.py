"""Checking sandbox answers against the sandbox's OpenAPI description (``sandbox.openapi``)."""

from __future__ import annotations

from typing import Any

import httpx
import jsonschema_rs
from sc_wire import WireClient

from portal_admin.sandbox.openapi import PLAINTEXT_KEY


def operations(spec: dict[str, Any]) -> dict[str, tuple[str, str, dict[str, Any]]]:
    """operationId -> (method, path, operation object)."""
    found: dict[str, tuple[str, str, dict[str, Any]]] = {}
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            found[operation["operationId"]] = (method.upper(), path, operation)
    return found


class Described:
    """Checks answers against the description of the app that gave them."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.operations = operations(self.spec)
        self.seen: dict[str, set[int]] = {}
        self._validators: dict[int, Any] = {}

    def _validate(self, schema: dict[str, Any], instance: Any, what: str) -> None:
        key = id(schema)
        if key not in self._validators:
            root = {**schema, "components": self.spec["components"]}
            self._validators[key] = jsonschema_rs.validator_for(root, validate_formats=True)
        errors = [str(e) for e in self._validators[key].iter_errors(instance)]
        assert not errors, (what, errors[:3], instance)

    def check(self, op_id: str, resp: httpx.Response, wire: WireClient | None = None) -> Any:
        """Assert the answer is declared and conforms; returns the (decrypted) envelope."""
        operation = self.operations[op_id][2]
        status = resp.status_code
        answer = operation["responses"].get(str(status))
        assert answer is not None, f"{op_id}: {status} is not declared: {resp.text[:300]}"
        assert resp.headers.get("X-Request-Id")
        ((media_type, media),) = answer["content"].items()
        assert resp.headers["content-type"].split(";")[0] == media_type.split(";")[0]
        envelope = resp.json()
        self._validate(media["schema"], envelope, f"{op_id} {status}")
        if isinstance(envelope, dict) and set(envelope) == {"v", "p"}:
            assert wire is not None and PLAINTEXT_KEY in media, op_id
            envelope = wire.open(envelope)
            self._validate(media[PLAINTEXT_KEY], envelope, f"{op_id} {status} (sealed)")
        self.seen.setdefault(op_id, set()).add(status)
        return envelope

    def data(self, op_id: str, resp: httpx.Response, wire: WireClient | None = None) -> Any:
        """Check a success answer; returns its data."""
        envelope = self.check(op_id, resp, wire)
        assert resp.status_code == 200 and envelope["success"] is True, envelope
        return envelope["data"]
