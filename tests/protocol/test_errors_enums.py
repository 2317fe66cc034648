"""The error catalogue and the enumerations of sections 2, 3 and 7."""

from __future__ import annotations

import pytest

from portal_admin.protocol import enums, errors


@pytest.mark.parametrize(
    ("code", "status"),
    [
        ("AUTH.INVALID_CREDENTIALS", 401),
        ("AUTH.SESSION_NOT_FOUND", 404),
        ("ACCESS.TOKEN_MISSING", 401),
        ("ACCESS.PERMISSION_DENIED", 403),
        ("VALIDATION.INVALID_PARAMETER", 400),
        ("RESOURCE.NOT_FOUND", 404),
        ("WORKSPACE.OWNER_ROLE_PROTECTED", 409),
        ("WORKSPACE.ROLE_IN_USE", 409),
        ("4010", 401),
        ("4040", 404),
        ("5000", 500),
        ("SECURE_CHANNEL.SESSION_INVALID", 401),
        ("SECURE_CHANNEL.KEY_UNKNOWN", 400),
        ("SECURE_CHANNEL.DECRYPTION_FAILED", 400),
        ("SECURE_CHANNEL.REPLAY_DETECTED", 400),
    ],
)
def test_stated_statuses(code: str, status: int) -> None:
    spec = errors.lookup(code)
    assert spec is not None and spec.http_status == status and spec.status_stated


def test_every_section_7_code_is_catalogued() -> None:
    section7 = [
        "AUTH.INVALID_CREDENTIALS", "AUTH.SESSION_NOT_FOUND", "AUTH.MFA_SEND_COOLDOWN",
        "AUTH.MFA_CODE_INVALID", "AUTH.PASSWORD_RESET_TOKEN_INVALID",
        "AUTH.CURRENT_PASSWORD_INCORRECT", "AUTH.REFRESH_TOKEN_INVALID", "ACCESS.TOKEN_MISSING",
        "ACCESS.UNAUTHORIZED", "ACCESS.PERMISSION_DENIED", "VALIDATION.INVALID_PARAMETER",
        "REQUEST.RATE_LIMITED", "RESOURCE.NOT_FOUND", "WORKSPACE.OWNER_ROLE_PROTECTED",
        "WORKSPACE.ROLE_IN_USE", "4000", "4010", "4040", "5000",
    ]  # fmt: skip
    assert set(section7) <= set(errors.CATALOGUE)
    assert {c.value for c in errors.Code} == set(errors.CATALOGUE)


def test_numeric_and_string_codes_are_the_same() -> None:
    assert errors.lookup(4010) is errors.lookup("4010")
    assert errors.normalize_code(4000.0) == "4000"
    assert errors.lookup("NOT.A.CODE") is None


@pytest.mark.parametrize(
    ("code", "status", "category"),
    [
        ("WORKSPACE.ROLE_IN_USE", 409, errors.Category.CONFLICT),
        ("UNKNOWN", 403, errors.Category.PERMISSION),
        ("UNKNOWN", 429, errors.Category.RATE_LIMITED),
        ("UNKNOWN", 422, errors.Category.VALIDATION),
        ("UNKNOWN", 502, errors.Category.SERVER),
        ("UNKNOWN", None, errors.Category.SERVER),
    ],
)
def test_category_falls_back_on_status(
    code: str, status: int | None, category: errors.Category
) -> None:
    assert errors.category_for(code, status) is category


def test_both_account_status_listings() -> None:
    listing = enums.ACCOUNT_STATUS
    assert listing.value_of("ACTIVE") == 35010101
    assert listing.code_of(10010202) == "ACTIVE"
    assert listing.code_of(10010201) == "REGISTERED"
    assert listing.by_value(35010104) is not None and listing.code_of(35010104) == "REJECTED"


def test_portal_types_both_series() -> None:
    listing = enums.PORTAL_TYPE
    assert listing.code_of(35010202) == listing.code_of(10010102) == "TENANT"
    assert listing.code_of(10010101) == listing.code_of(35010201) == "SYSTEM"
    assert listing.value_of("PARTNER") == 10010103


def test_stated_values() -> None:
    assert enums.MFA_METHOD.value_of("EMAIL") == 10011001
    assert enums.MFA_METHOD.value_of("OTP") == 10011002
    assert enums.ROLE_TYPE.value_of("OWNER") == 10010901
    assert enums.CHANNEL_TYPE_STATUS.value_of("DISABLED") == 80010302
    assert enums.CHANNEL_STATUS.value_of("ACTIVE") == 80010201
    assert enums.INVITATION_STATUS.value_of("EXPIRED") == 10050304
    assert enums.CURRENCY_CONFIG_STATUS.code_of(34010102) == "INACTIVE"
    assert enums.PORTAL_STATUS.value_of("ACTIVE") == 10080101


def test_sixteen_constant_lists() -> None:
    assert len(enums.CONSTANT_PATHS) == 16
    assert {"countries", "timezones", "us-states", "user-join-sources"} <= set(enums.CONSTANT_PATHS)


def test_unknown_code_raises() -> None:
    with pytest.raises(KeyError):
        enums.MFA_METHOD.value_of("SMS")


def test_transitions_only_name_known_statuses() -> None:
    known = {i.code for i in (*enums.ACCOUNT_STATUS.items, *enums.ACCOUNT_STATUS.alternate)}
    for source, moves in enums.ACCOUNT_TRANSITIONS.items():
        assert source in known
        assert set(moves) <= set(enums.ACCOUNT_ACTIONS)
        assert set(moves.values()) <= known
