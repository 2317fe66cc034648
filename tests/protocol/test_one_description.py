"""The wire is described once, in ``protocol/``: these tests fail when a sandbox route reads a
body by hand, builds a record without a protocol model, or is registered without the models
the OpenAPI document is generated from."""

from __future__ import annotations

import ast
import re
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from fastapi.routing import APIRoute

from portal_admin.protocol import bodies, records
from portal_admin.protocol.envelope import Failed, Ok, build_envelope
from portal_admin.protocol.operations import OPERATIONS, Channel
from portal_admin.sandbox import SandboxConfig, create_app

ROUTES = Path(bodies.__file__).resolve().parents[1] / "sandbox" / "routes"
#: The hand readers of JSON bodies and query strings the protocol's models replaced.
HAND_READERS = {"json_body", "object_body", "get_str", "get_int", "get_bool", "enum_code"}
#: A wire name: camelCase, as the spec spells fields.
_CAMEL = re.compile(r"^[a-z]+[A-Z][A-Za-z0-9]*$")


def _trees() -> Iterator[tuple[str, ast.AST]]:
    for path in sorted(ROUTES.glob("*.py")):
        yield path.name, ast.parse(path.read_text(encoding="utf-8"))


def _called(node: ast.Call) -> str:
    func = node.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")


def test_no_route_reads_a_body_or_query_by_hand() -> None:
    found = []
    for name, tree in _trees():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            called = _called(node)
            target = getattr(node.func, "value", None)
            on_request = isinstance(target, ast.Name) and target.id == "request"
            reads_request = on_request and called in {"json", "body", "form"}
            reads_query = (
                isinstance(target, ast.Attribute) and target.attr == "query_params"
            ) and called in {"get", "getlist"}
            if called in HAND_READERS or reads_request or reads_query:
                found.append(f"{name}:{node.lineno} {called}")
    assert found == []


def test_no_route_builds_a_record_by_hand() -> None:
    """A dict literal keyed by wire names is a record described a second time: answers are
    built with ``Record.wire`` (or the page builders) instead."""
    found = []
    for name, tree in _trees():
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict):
                keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
                wire = [k for k in keys if isinstance(k, str) and _CAMEL.match(k)]
                if wire:
                    found.append(f"{name}:{node.lineno} {wire[:3]}")
    assert found == []


def _routes() -> dict[str, APIRoute]:
    app = create_app(SandboxConfig(seed_accounts=0))
    try:
        return {
            route.operation_id: route
            for route in app.state.area_routes
            if isinstance(route, APIRoute) and route.operation_id
        }
    finally:
        app.state.sandbox.db.close()


ROUTED = _routes()


def _models_in(tp: Any) -> set[Any]:
    """Every class named by a type annotation (through unions, generics, Annotated)."""
    found = {tp}
    for arg in typing.get_args(tp):
        found |= _models_in(arg)
    metadata = getattr(tp, "__pydantic_generic_metadata__", None)
    for arg in (metadata or {}).get("args", ()):
        found |= _models_in(arg)
    return found


@pytest.mark.parametrize("op_id", sorted(OPERATIONS))
def test_every_operation_is_routed_with_the_protocol_models(op_id: str) -> None:
    route = ROUTED.get(op_id)
    assert route is not None, f"{op_id} is not registered with routes._route.route"
    op = OPERATIONS[op_id]
    assert (set(route.methods or ()), route.path) == ({op.method}, op.path)
    answer = route.response_model
    assert isinstance(answer, type) and issubclass(answer, Ok), op_id
    data = _models_in(answer.model_fields["data"].annotation)
    described = {
        m for m in data if isinstance(m, type) and issubclass(m, records.Record | records.BaseModel)
    }
    assert described or data <= {type(None), Any, dict, list}, (op_id, data)
    sealed = op.channel in (Channel.ENCRYPTED, Channel.SESSION) and op.method == "POST"
    model = bodies.BODIES.get(op_id)
    body = route.body_field
    if model is not None and not sealed:
        assert body is not None, f"{op_id} does not declare its body"
        assert model in _models_in(body.field_info.annotation), (op_id, body)
    if body is not None:
        assert all(
            issubclass(m, bodies.Body)
            for m in _models_in(body.field_info.annotation)
            if isinstance(m, type) and issubclass(m, records.BaseModel)
        ), op_id


@pytest.mark.parametrize("op_id", sorted(bodies.BODIES))
def test_each_body_example_is_valid_for_the_model_and_its_schema(op_id: str) -> None:
    model = bodies.BODIES[op_id]
    schema = model.model_json_schema(by_alias=True)
    validator = jsonschema_rs.validator_for(schema)
    for example in schema.get("examples", []):
        model.model_validate(example)
        assert validator.is_valid(example), (op_id, example)


def test_the_envelope_models_describe_what_the_server_builds() -> None:
    Ok[None].model_validate(build_envelope(None, now_ms=1))
    Ok[list[int]].model_validate(build_envelope([1, 2], now_ms=1))
    Failed.model_validate(build_envelope(code="RESOURCE.NOT_FOUND", now_ms=1))


def test_a_record_is_sent_with_every_field_under_its_wire_name() -> None:
    values = {name: None for name in records.IpEntry.model_fields}
    assert records.IpEntry.wire(**values) == {"ip": None, "createdAt": None}
    with pytest.raises(TypeError, match="missing"):
        records.IpEntry.wire(ip="192.0.2.1")
    with pytest.raises(TypeError, match="unknown"):
        records.IpEntry.wire(ip="192.0.2.1", created_at=None, colour="red")


def test_lenient_fields_say_so_in_their_schema() -> None:
    """The document must not refuse what the server takes (schemathesis sends what the
    document refuses and fails when it is accepted)."""
    cases: list[tuple[type[bodies.Body], dict[str, Any]]] = [
        (bodies.InvitationCreate, {"inviteeEmail": "a@b.co", "expirationDays": " 7 "}),
        (bodies.PortalCreate, {"portalType": "10010102", "domain": " x.test "}),
        (bodies.ChannelTypeQuery, {"enabledOnly": "TRUE", "page": "2", "typeStatus": 80010301}),
        (bodies.ChannelQuery, {"channelCategory": "email", "channelStatus": "inactive"}),
        (
            bodies.SmtpServer,
            {"host": "h", "port": "25", "security": " tls ", "fromAddress": "a@b.co"},
        ),
    ]
    for model, body in cases:
        model.model_validate(body)
        assert jsonschema_rs.validator_for(model.model_json_schema(by_alias=True)).is_valid(body)
