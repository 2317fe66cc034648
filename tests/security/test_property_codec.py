"""Property-based tests of the Secure Channel codec and the envelope parser (beyond
tests/protocol): frames with arbitrary key ids and keys round-trip, any tampered byte of a
sealed message is detected, bodies round-trip, and the parsers fail only in their own way."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from portal_admin.protocol import secure_channel as sc
from portal_admin.protocol.envelope import MalformedEnvelope, build_envelope, parse_envelope

#: Derandomized: the same examples on every run (the fuzzers of fuzz/ explore at random).
SETTINGS = settings(max_examples=200, deadline=None, derandomize=True)

key_ids = st.text(min_size=1, max_size=80).filter(lambda s: 1 <= len(s.encode()) <= 255)
keys = st.binary(min_size=32, max_size=32)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=25,
)


@SETTINGS
@given(
    key_ids, st.binary(max_size=600), st.binary(max_size=600), st.binary(min_size=28, max_size=300)
)
def test_key_exchange_frames_round_trip(
    key_id: str, req: bytes, resp: bytes, payload: bytes
) -> None:
    frame = sc.Frame(sc.MessageType.KEY_EXCHANGE, payload, sc.KeyExchange(key_id, req, resp))
    decoded = sc.decode_frame(sc.encode_frame(frame))
    assert decoded.type is sc.MessageType.KEY_EXCHANGE
    assert decoded.key_exchange == sc.KeyExchange(key_id, req, resp)
    assert bytes(decoded.payload) == payload


@SETTINGS
@given(st.sampled_from([sc.MessageType.SESSION_DATA, sc.MessageType.RESPONSE]), keys, json_values)
def test_sealed_frames_round_trip(kind: sc.MessageType, key: bytes, value: Any) -> None:
    data = bytes(sc.sealed_frame(kind, key, sc.dump_json(value)))
    frame = sc.decode_frame(data)
    assert frame.type is kind
    assert sc.load_json(sc.open_payload(key, frame.payload)) == value
    body = sc.to_body(data)
    assert sc.from_body(json.dumps(body)) == data
    padded = body["p"] + "=" * (-len(body["p"]) % 4)
    assert sc.from_body({"v": 2, "p": padded}) == data


@SETTINGS
@given(keys, json_values, st.data())
def test_any_tampered_byte_is_detected(key: bytes, value: Any, data: st.DataObject) -> None:
    message = bytearray(sc.response_message(key, value))
    index = data.draw(st.integers(0, len(message) - 1), label="index")
    flip = data.draw(st.integers(1, 255), label="xor")
    message[index] ^= flip
    with pytest.raises(sc.DecryptionFailed):
        sc.open_response(key, bytes(message))


@SETTINGS
@given(keys, json_values, st.integers(1, 40))
def test_truncation_is_detected(key: bytes, value: Any, cut: int) -> None:
    message = bytes(sc.response_message(key, value))
    with pytest.raises(sc.DecryptionFailed):
        sc.open_response(key, message[: max(0, len(message) - cut)])


@SETTINGS
@given(keys, keys.filter(lambda k: k != bytes(32)), json_values)
def test_another_key_never_opens(key: bytes, other: bytes, value: Any) -> None:
    if other == key:
        other = bytes(b ^ 0xFF for b in key)
    with pytest.raises(sc.DecryptionFailed):
        sc.open_response(other, bytes(sc.response_message(key, value)))


@SETTINGS
@given(keys, json_values)
def test_request_frame_is_not_a_response(key: bytes, value: Any) -> None:
    with pytest.raises(sc.DecryptionFailed):
        sc.open_response(key, bytes(sc.request_message(key, value)))


def test_ivs_are_fresh() -> None:
    key = os.urandom(32)
    ivs = {
        sc.payload_iv(sc.decode_frame(bytes(sc.response_message(key, {}))).payload)
        for _ in range(500)
    }
    assert len(ivs) == 500


@SETTINGS
@given(st.binary(max_size=400))
def test_decode_then_open_only_fail_as_decryption_failed(data: bytes) -> None:
    key = bytes(32)
    try:
        frame = sc.decode_frame(data)
        sc.open_payload(key, frame.payload)
    except sc.DecryptionFailed:
        return


@SETTINGS
@given(json_values | st.text(max_size=100) | st.binary(max_size=100))
def test_from_body_only_fails_as_body_format_error(body: Any) -> None:
    try:
        sc.from_body(body)
    except sc.BodyFormatError:
        return


@SETTINGS
@given(
    json_values,
    st.sampled_from(["2000", "VALIDATION.INVALID_PARAMETER", "4010", "5000", "AUTH.X"]),
    st.dictionaries(st.text(min_size=1, max_size=8), json_values, max_size=3),
)
def test_envelope_round_trip_with_extras(data: Any, code: str, extra: dict[str, Any]) -> None:
    body = {**extra, **build_envelope(data, code=code, now_ms=1)}
    for raw in (body, json.dumps(body), json.dumps(body).encode()):
        env = parse_envelope(raw)
        assert env.code == code and env.success == (code == "2000")
        assert env.data == (data if code == "2000" else None)
        assert set(env.extra) == set(extra) - set(build_envelope(None, now_ms=1))


@SETTINGS
@given(st.binary(max_size=300) | st.text(max_size=300) | json_values)
def test_envelope_parser_fails_only_as_malformed(raw: Any) -> None:
    try:
        env = parse_envelope(raw)
    except MalformedEnvelope:
        return
    assert isinstance(env.code, str) and env.code and isinstance(env.success, bool)
