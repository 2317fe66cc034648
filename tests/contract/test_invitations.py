"""Invitations (spec 4.6; contract on `statuses`)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from ._support import SYS, Api, error, is_enum_item, ok, parse_iso

pytestmark = pytest.mark.http

INVALID = "VALIDATION.INVALID_PARAMETER"
INVITATION_FIELDS = {
    "bizId",
    "workspaceBizId",
    "workspaceName",
    "inviterBizId",
    "inviterName",
    "inviteeEmail",
    "inviteeAccountBizId",
    "inviteeAccountName",
    "invitationStatus",
    "message",
    "expiresAt",
    "acceptedAt",
    "createdAt",
    "canAccept",
}
STATED = {"PENDING": 10050301, "ACCEPTED": 10050302, "EXPIRED": 10050304}


def _create(api: Api, token: str, email: str) -> Any:
    return api.post(
        f"{SYS}/invitations",
        {"inviteeEmail": email, "message": "Welcome aboard", "expirationDays": 7},
        token=token,
    )


def test_list_workspace_invitations(api: Api, admin_token: str) -> None:
    data = ok(api.get(f"{SYS}/invitations", token=admin_token))
    assert isinstance(data, list)


def test_list_without_token(api: Api) -> None:
    error(api.get(f"{SYS}/invitations"), 401, "ACCESS.TOKEN_MISSING")


def test_create_and_cancel(api: Api, admin_token: str) -> None:
    email = f"invitee-{uuid.uuid4().hex[:8]}@example.test"
    resp = _create(api, admin_token, email)
    assert resp.status_code == 200, resp.text
    ok(resp)
    listed = ok(api.get(f"{SYS}/invitations", token=admin_token))
    mine = [i for i in listed if i.get("inviteeEmail") == email]
    assert mine, f"created invitation to {email} not listed"
    biz_id = mine[0]["bizId"]
    resp = api.post(
        f"{SYS}/invitations/cancel",
        {"invitationBizId": biz_id, "reason": "contract test"},
        token=admin_token,
    )
    assert resp.status_code == 200, resp.text
    ok(resp)


@pytest.mark.parametrize(
    "email", ["not-an-email", "", "a@", "@b.test", "two@@b.test"], ids=lambda e: e or "empty"
)
def test_create_invalid_email(api: Api, admin_token: str, email: str) -> None:
    error(_create(api, admin_token, email), 400, INVALID)


@pytest.mark.parametrize(
    "body",
    [{}, {"message": "m", "expirationDays": 7}, {"inviteeEmail": 5}, {"inviteeEmail": None}],
    ids=["empty", "no-email", "number", "null"],
)
def test_create_invalid_body(api: Api, admin_token: str, body: dict[str, Any]) -> None:
    error(api.post(f"{SYS}/invitations", body, token=admin_token), 400, INVALID)


def test_cancel_unknown(api: Api, admin_token: str) -> None:
    resp = api.post(
        f"{SYS}/invitations/cancel",
        {"invitationBizId": "no-such-invitation", "reason": "x"},
        token=admin_token,
    )
    error(resp, 400, INVALID)


def _own(api: Api, token: str, params: Any = None) -> list[dict[str, Any]]:
    data = ok(api.get(f"{SYS}/profile/invitations", token=token, params=params))
    assert isinstance(data, list)
    return data


def test_own_invitations_shape(api: Api, admin_token: str) -> None:
    for item in _own(api, admin_token):
        missing = INVITATION_FIELDS - item.keys()
        assert not missing, f"Invitation lacks {sorted(missing)}: {item}"
        is_enum_item(item["invitationStatus"])
        assert isinstance(item["canAccept"], bool)
        parse_iso(item["expiresAt"])
        parse_iso(item["createdAt"])
        if item["acceptedAt"] is not None:
            parse_iso(item["acceptedAt"])
        if item["invitationStatus"]["code"] != "PENDING":
            assert item["canAccept"] is False, item


def test_own_invitations_status_filter(api: Api, admin_token: str) -> None:
    everything = _own(api, admin_token)
    pending = _own(api, admin_token, {"statuses": STATED["PENDING"]})
    assert all(i["invitationStatus"]["value"] == STATED["PENDING"] for i in pending)
    assert len(pending) == len(
        [i for i in everything if i["invitationStatus"]["value"] == STATED["PENDING"]]
    )


def test_own_invitations_statuses_repeated_or_comma_separated(api: Api, admin_token: str) -> None:
    wanted = (STATED["PENDING"], STATED["ACCEPTED"])
    repeated = _own(api, admin_token, [("statuses", str(v)) for v in wanted])
    commas = _own(api, admin_token, {"statuses": ",".join(str(v) for v in wanted)})
    assert sorted(i["bizId"] for i in repeated) == sorted(i["bizId"] for i in commas)
    assert all(i["invitationStatus"]["value"] in wanted for i in repeated)
    everything = _own(api, admin_token)
    expected = [i["bizId"] for i in everything if i["invitationStatus"]["value"] in wanted]
    assert sorted(expected) == sorted(i["bizId"] for i in repeated)


def test_own_invitations_bad_status_value(api: Api, admin_token: str) -> None:
    resp = api.get(f"{SYS}/profile/invitations", token=admin_token, params={"statuses": "pending"})
    error(resp, 400, INVALID)


def test_own_invitations_invalid_token(api: Api) -> None:
    error(api.get(f"{SYS}/profile/invitations", token="bad.token.here"), 401, "4010")


def test_own_invitations_without_token(api: Api) -> None:
    error(api.get(f"{SYS}/profile/invitations"), 401, {"4010", "ACCESS.TOKEN_MISSING"})


def test_seeded_invitations_in_every_status(api: Api, admin_token: str) -> None:
    items = ok(api.get(f"{SYS}/invitations", token=admin_token)) + _own(api, admin_token)
    codes = {i["invitationStatus"]["code"] for i in items if isinstance(i, dict)}
    assert {"PENDING", "ACCEPTED", "EXPIRED"} <= codes, codes
    assert len(codes) >= 5, f"cancelled and declined also exist as statuses: {codes}"
