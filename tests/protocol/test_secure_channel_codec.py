"""The Secure Channel v2 codec against the wire profile, byte by byte."""

from __future__ import annotations

import base64
import json
import os
import struct

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from hypothesis import given, settings
from hypothesis import strategies as st

from portal_admin.protocol import secure_channel as sc


@pytest.fixture(scope="module")
def rsa_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def test_type_2_layout_is_exactly_the_profile() -> None:
    key = os.urandom(32)
    raw = sc.request_message(key, {"refreshToken": "r"})
    assert raw[:2] == b"SC" and raw[2] == 2 and raw[3] == 2
    iv, sealed = raw[4:16], raw[16:]
    assert json.loads(AESGCM(key).decrypt(iv, sealed, None)) == {"refreshToken": "r"}


def test_type_1_layout_big_endian(rsa_key: rsa.RSAPrivateKey) -> None:
    keys = sc.SessionKeys.generate()
    raw = bytes(sc.key_exchange_message(rsa_key.public_key(), sc.OAEP_SHA256, "kid-1", keys, {}))
    assert raw[:4] == b"SC\x02\x01"
    id_len = raw[4]
    assert raw[5 : 5 + id_len] == b"kid-1"
    pos = 5 + id_len
    (req_len,) = struct.unpack(">H", raw[pos : pos + 2])
    assert req_len == 256  # 2048-bit key
    oaep = padding.OAEP(padding.MGF1(hashes.SHA256()), hashes.SHA256(), None)
    assert rsa_key.decrypt(raw[pos + 2 : pos + 2 + req_len], oaep) == keys.request_key
    pos += 2 + req_len
    (resp_len,) = struct.unpack(">H", raw[pos : pos + 2])
    assert rsa_key.decrypt(raw[pos + 2 : pos + 2 + resp_len], oaep) == keys.response_key
    payload = raw[pos + 2 + resp_len :]
    assert AESGCM(keys.request_key).decrypt(payload[:12], payload[12:], None) == b"{}"


@pytest.mark.parametrize("algorithm", sc.ALGORITHMS)
def test_every_padding_round_trips(rsa_key: rsa.RSAPrivateKey, algorithm: str) -> None:
    keys = sc.SessionKeys.generate()
    raw = sc.key_exchange_message(
        rsa_key.public_key(), algorithm, "k", keys, {"x": 1}, allow_legacy=True
    )
    frame = sc.decode_frame(raw)
    assert frame.key_exchange is not None
    assert sc.unwrap_key(rsa_key, algorithm, frame.key_exchange.wrapped_request_key) == (
        keys.request_key
    )
    assert sc.load_json(sc.open_payload(keys.request_key, frame.payload)) == {"x": 1}


def test_java_name_means_mgf1_sha1(rsa_key: rsa.RSAPrivateKey) -> None:
    wrapped = sc.wrap_key(rsa_key.public_key(), sc.OAEP_JAVA_SHA256, b"k" * 32)
    java = padding.OAEP(padding.MGF1(hashes.SHA1()), hashes.SHA256(), None)
    assert rsa_key.decrypt(wrapped, java) == b"k" * 32


@pytest.mark.parametrize("name", sc.LEGACY_ALGORITHMS)
def test_legacy_refused_unless_allowed(name: str) -> None:
    with pytest.raises(sc.UnsupportedAlgorithm):
        sc.rsa_padding(name)
    assert isinstance(sc.rsa_padding(name, allow_legacy=True), padding.PKCS1v15)


def test_unknown_algorithm_refused() -> None:
    with pytest.raises(sc.UnsupportedAlgorithm):
        sc.rsa_padding("RSA-OAEP-512")


def test_response_round_trip_and_type_check() -> None:
    keys = sc.SessionKeys.generate()
    env = {"code": "2000", "data": {"sessionId": "s", "expiresIn": 1800}}
    assert sc.open_response(keys.response_key, sc.response_message(keys.response_key, env)) == env
    with pytest.raises(sc.DecryptionFailed):  # a type-2 frame is not a response
        sc.open_response(keys.request_key, sc.request_message(keys.request_key, env))


@pytest.mark.parametrize("index", [0, 1, 2, 3, 10, -1])
def test_tampering_is_detected(index: int) -> None:
    key = os.urandom(32)
    raw = bytearray(sc.response_message(key, {"a": 1}))
    raw[index] ^= 0x01
    with pytest.raises(sc.DecryptionFailed):
        sc.open_response(key, bytes(raw))


def test_wrong_key_fails() -> None:
    raw = sc.response_message(os.urandom(32), {})
    with pytest.raises(sc.DecryptionFailed):
        sc.open_response(os.urandom(32), raw)


def test_fresh_iv_every_message() -> None:
    key = os.urandom(32)
    ivs = {sc.payload_iv(sc.decode_frame(sc.request_message(key, {})).payload) for _ in range(50)}
    assert len(ivs) == 50


@pytest.mark.parametrize(
    "body",
    [
        {"v": 1, "p": "AAAA"},
        {"v": "2", "p": "AAAA"},
        {"v": True, "p": "AAAA"},
        {"v": 2},
        {"p": "AAAA"},
        {"v": 2, "p": ""},
        {"v": 2, "p": 5},
        {"v": 2, "p": "AAAA", "x": 1},
        {"v": 2, "p": "not base64!"},
        [],
        "plain",
    ],
)
def test_body_format_errors(body: object) -> None:
    with pytest.raises(sc.BodyFormatError):
        sc.from_body(json.dumps(body) if isinstance(body, str) else body)


def test_body_accepts_padding_or_none() -> None:
    frame = b"SC\x02\x02" + os.urandom(29)
    unpadded = sc.to_body(frame)
    assert "=" not in unpadded["p"]
    padded = {"v": 2, "p": base64.urlsafe_b64encode(frame).decode()}
    assert sc.from_body(unpadded) == sc.from_body(padded) == frame
    assert sc.from_body(json.dumps(unpadded)) == frame


def test_public_key_export_and_checks(rsa_key: rsa.RSAPrivateKey) -> None:
    text = sc.export_public_key(rsa_key.public_key())
    assert sc.load_public_key(text).public_numbers() == rsa_key.public_key().public_numbers()
    with pytest.raises(sc.SecureChannelError):
        sc.load_public_key("!!!")
    small = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    with pytest.raises(sc.SecureChannelError):
        sc.load_public_key(sc.export_public_key(small.public_key()))


def test_keys_are_never_shown() -> None:
    assert "redacted" in repr(sc.SessionKeys.generate())


@given(st.binary(max_size=200))
def test_decode_frame_only_raises_decryption_failed(data: bytes) -> None:
    try:
        frame = sc.decode_frame(data)
    except sc.DecryptionFailed:
        return
    assert frame.type in set(sc.MessageType)


@given(st.text(max_size=80))
def test_from_body_only_raises_body_format_error(text: str) -> None:
    try:
        raw = sc.from_body({"v": 2, "p": text})
    except sc.BodyFormatError:
        return
    assert len(raw) == len(text.strip().rstrip("=")) * 3 // 4


@settings(max_examples=50)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(),
        lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=5), c, max_size=3),
        max_leaves=8,
    )
)
def test_any_json_round_trips(value: object) -> None:
    key = os.urandom(32)
    assert sc.open_response(key, sc.response_message(key, value)) == value
    assert sc.from_body(sc.to_body(sc.response_message(key, value)))[:4] == b"SC\x02\x81"
