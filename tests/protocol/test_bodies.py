"""Request bodies are described once, in ``protocol.bodies``: the client builds them from the
models, the sandbox validates them with the same models, and no route defines its own."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from portal_admin.protocol import bodies
from portal_admin.protocol.operations import OPERATIONS

ROUTES = Path(bodies.__file__).resolve().parents[1] / "sandbox" / "routes"


def test_every_body_belongs_to_an_operation_that_takes_one() -> None:
    for op_id, model in bodies.BODIES.items():
        assert op_id in OPERATIONS, op_id
        assert OPERATIONS[op_id].method == "POST", op_id
        assert issubclass(model, bodies.Body)


@pytest.mark.parametrize("op_id", sorted(bodies.BODIES))
def test_build_uses_the_spec_names_and_leaves_none_out(op_id: str) -> None:
    model = bodies.BODIES[op_id]
    values: dict[str, Any] = {name: f"v-{name}" for name in model.model_fields}
    wire = model.build(**values)
    assert set(wire) == {f.alias for f in model.model_fields.values()}
    assert all(key[0].islower() and "_" not in key for key in wire)  # camelCase, as the spec
    first = next(iter(model.model_fields))
    assert model.build(**{first: None}) == {}
    assert model.build(keep_none=True, **{first: None}) == {model.model_fields[first].alias: None}
    with pytest.raises(TypeError):
        model.build(not_a_field=1)


def test_the_sandbox_reads_the_wire_names_and_keeps_the_limits() -> None:
    body = bodies.AccountStatusChange.model_validate({"userBizId": "ACC1", "action": "SUSPEND"})
    assert body.user_biz_id == "ACC1" and body.reason is None
    with pytest.raises(ValidationError):
        bodies.AccountStatusChange.model_validate({"userBizId": "ACC1", "action": "X" * 33})
    with pytest.raises(ValidationError):  # strict: the spec's types, not look-alikes
        bodies.MfaSend.model_validate({"sessionId": "s", "method": "1"})
    with pytest.raises(ValidationError):  # a strict body refuses what it does not know
        bodies.AccountUpdate.model_validate({"userBizId": "A", "accountNmae": "typo"})
    assert bodies.LoginInitiate.model_validate({"email": "a@b.c", "password": "p", "x": 1})


def _own_models(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            bases = {getattr(b, "id", getattr(b, "attr", "")) for b in node.bases}
            if bases & {"BaseModel", "Body", "Strict", "StrictBody", "LenientBody"}:
                found.append(f"{path.name}:{node.name}")
    return found


def test_no_route_describes_a_body_of_its_own() -> None:
    """Fails when a sandbox route module defines a pydantic body model instead of using
    ``protocol.bodies`` (the one description of the wire)."""
    # The sandbox's own tools (mailbox, TOTP, clock, key rotation) are not operations of the
    # specification: their models live with them.
    paths = [p for p in sorted(ROUTES.glob("*.py")) if p.name != "sandbox_tools.py"]
    found = [m for path in paths for m in _own_models(path)]
    assert found == []


def test_text_and_lenient_integers_as_the_hand_readers_took_them() -> None:
    body = bodies.InvitationCreate.model_validate(
        {"inviteeEmail": "  ann@example.org ", "expirationDays": "7", "message": ""}
    )
    assert (body.invitee_email, body.expiration_days, body.message) == ("ann@example.org", 7, "")
    assert (
        bodies.InvitationCreate.model_validate(
            {"inviteeEmail": "a@b.cd", "expirationDays": 30.0}
        ).expiration_days
        == 30
    )
    assert (
        bodies.InvitationCreate.model_validate(
            {"inviteeEmail": "a@b.cd", "expirationDays": ""}
        ).expiration_days
        is None
    )
    for bad in (
        {"inviteeEmail": "   "},  # blank once stripped
        {"inviteeEmail": "a@b.cd", "expirationDays": 31},
        {"inviteeEmail": "a@b.cd", "expirationDays": "٣"},  # not ASCII digits
        {"inviteeEmail": "a@b.cd", "expirationDays": True},
        {"inviteeEmail": "a@b.cd", "message": "bell\x07"},
        {"inviteeEmail": "a@b.cd", "message": "x" * (bodies.INVITATION_MESSAGE + 1)},
    ):
        with pytest.raises(ValidationError):
            bodies.InvitationCreate.model_validate(bad)


def test_a_whitelist_is_a_bounded_list_of_strings() -> None:
    limit = bodies.WHITELIST_ENTRIES
    ips = [f"10.0.{i // 250}.{i % 250}" for i in range(limit)]
    assert bodies.IpWhitelistSet.model_validate({"ips": ips}).ips == ips
    for bad in ({"ips": [*ips, "10.9.9.9"]}, {"ips": ["10.0.0.1", 7]}, {"ips": "10.0.0.1"}, {}):
        with pytest.raises(ValidationError):
            bodies.IpWhitelistSet.model_validate(bad)


def test_a_portal_type_is_a_value_of_either_series() -> None:
    from portal_admin.protocol.enums import PORTAL_TYPE

    for item in (*PORTAL_TYPE.items, *PORTAL_TYPE.alternate):
        body = {"portalType": str(item.value), "domain": " p.example.org "}
        created = bodies.PortalCreate.model_validate(body)
        assert (created.portal_type, created.domain) == (item.value, "p.example.org")
    for bad in (
        {"portalType": 1, "domain": "p.example.org"},  # no such value
        {"portalType": "TENANT", "domain": "p.example.org"},  # a code: the spec sends values
        {"portalType": PORTAL_TYPE.items[0].value, "domain": " "},
        {"portalType": PORTAL_TYPE.items[0].value, "domain": "d", "remark": "a\x00b"},
    ):
        with pytest.raises(ValidationError):
            bodies.PortalCreate.model_validate(bad)
    kept = bodies.PortalCreate.model_validate(
        {"portalType": PORTAL_TYPE.items[0].value, "domain": "d", "remark": "  two  spaces "}
    )
    assert kept.remark == "  two  spaces "  # a remark keeps its own spacing
