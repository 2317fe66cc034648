"""The response envelope: building, and tolerant parsing of every variant section 2.1 allows."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from portal_admin.protocol.envelope import (
    ENVELOPE_VERSION,
    MalformedEnvelope,
    build_envelope,
    parse_envelope,
)


def test_build_success_has_every_field() -> None:
    env = build_envelope({"a": 1}, now_ms=1_700_000_000_000)
    assert env == {
        "version": ENVELOPE_VERSION,
        "timestamp": 1_700_000_000_000,
        "success": True,
        "code": "2000",
        "message": "SUCCESS",
        "data": {"a": 1},
    }


def test_build_error_has_null_data() -> None:
    env = build_envelope({"ignored": True}, code="RESOURCE.NOT_FOUND", message="nope", now_ms=1)
    assert env["success"] is False
    assert env["data"] is None
    assert env["message"] == "nope"


def test_parse_round_trip() -> None:
    raw = json.dumps(build_envelope([1, 2], now_ms=5))
    env = parse_envelope(raw)
    assert env.ok and env.data == [1, 2] and env.timestamp == 5 and env.version == "2.0.0"


@pytest.mark.parametrize(
    ("body", "success"),
    [
        ({"code": "2000", "message": "Success", "data": {}}, True),
        ({"code": 2000, "data": None}, True),
        ({"code": "AUTH.INVALID_CREDENTIALS", "message": "x", "data": None}, False),
        ({"code": 4010, "message": "expired"}, False),
        ({"code": "2000", "success": "false"}, False),
    ],
)
def test_parse_tolerates_omitted_fields(body: dict[str, object], success: bool) -> None:
    env = parse_envelope(body)
    assert env.success is success
    assert env.version is None or isinstance(env.version, str)


def test_numeric_code_becomes_string() -> None:
    assert parse_envelope({"code": 4040}).code == "4040"


def test_unknown_fields_are_kept() -> None:
    env = parse_envelope({"code": "2000", "traceId": "t-1"})
    assert env.extra == {"traceId": "t-1"}


@pytest.mark.parametrize(
    "body",
    [
        b"<html><body>502 Bad Gateway</body></html>",
        "",
        "[]",
        "42",
        '{"message": "no code"}',
        '{"code": null}',
        '{"code": {"nested": 1}}',
        '{"code": ""}',
        b"\xff\xfe",
    ],
)
def test_not_an_envelope(body: bytes | str) -> None:
    with pytest.raises(MalformedEnvelope):
        parse_envelope(body)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


@given(json_values)
def test_parser_never_fails_unexpectedly(value: object) -> None:
    """Any JSON value either parses or raises MalformedEnvelope, nothing else."""
    try:
        env = parse_envelope(json.dumps(value))
    except MalformedEnvelope:
        return
    assert isinstance(env.code, str) and env.code
    assert isinstance(env.success, bool)


@given(st.binary(max_size=64))
def test_parser_on_arbitrary_bytes(data: bytes) -> None:
    try:
        env = parse_envelope(data)
    except MalformedEnvelope:
        return
    assert env.code


@given(json_values, st.sampled_from(["2000", "VALIDATION.INVALID_PARAMETER", "5000"]))
def test_build_then_parse(data: object, code: str) -> None:
    env = parse_envelope(json.dumps(build_envelope(data, code=code, now_ms=0)))
    assert env.code == code
    assert env.success is (code == "2000")
    assert env.data == (data if code == "2000" else None)


@pytest.mark.parametrize(
    ("timestamp", "read"),
    [("²", None), ("--5", None), ("١٢", None), (" 12 ", 12), ("-7", -7), ("1.5", None)],
)
def test_a_timestamp_in_odd_digits_is_not_read_and_does_not_crash(
    timestamp: str, read: int | None
) -> None:
    envelope = parse_envelope({"code": 2000, "timestamp": timestamp, "data": None})
    assert envelope.timestamp == read


def test_an_enum_argument_in_odd_digits_is_an_unknown_code_not_a_crash() -> None:
    from portal_admin.client.areas._base import enum_value
    from portal_admin.protocol import enums

    assert enum_value(enums.ACCOUNT_STATUS, " 35010101 ") == 35010101
    assert enum_value(enums.ACCOUNT_STATUS, "active") == 35010101
    with pytest.raises(KeyError):  # was: ValueError from int("²")
        enum_value(enums.ACCOUNT_STATUS, "²")
