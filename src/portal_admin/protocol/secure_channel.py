"""Secure Channel v2: the binary envelope, the AES-GCM payload and the RSA key wrapping.

Implements ``shared/spec/secure-channel-profile.md`` and nothing else: every integer is
unsigned big-endian; type 1 (key exchange) carries the key id and two RSA-wrapped AES-256
keys before its payload; types 2 and 129 carry the payload only; a payload is a 12-byte IV
followed by AES-256-GCM ciphertext with its 16-byte tag, no associated data; plaintext is
UTF-8 JSON. On HTTP the binary envelope travels as ``{"v": 2, "p": <base64url, no padding>}``.

Pure functions: the caller supplies keys and randomness is drawn from ``os.urandom``.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import struct
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Literal

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding as asym_padding
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPrivateKey, RSAPublicKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from pydantic import BaseModel, ConfigDict, Field

#: Anything with the buffer protocol that the codec reads without copying.
Buffer = bytes | bytearray | memoryview

MAGIC = b"SC"
VERSION = 2
IV_LENGTH = 12
TAG_LENGTH = 16
KEY_LENGTH = 32
HEADER_VERSION = "2"  # value of the X-SC-Version header
CONTENT_TYPE = "application/json;charset=UTF-8"


class MessageType(IntEnum):
    """The envelope's type byte."""

    KEY_EXCHANGE = 1
    SESSION_DATA = 2
    RESPONSE = 129


class SecureChannelError(ValueError):
    """Base of every codec failure."""


class UnsupportedAlgorithm(SecureChannelError):
    """The key-wrapping algorithm is unknown, or legacy padding is not allowed."""


class BodyFormatError(SecureChannelError):
    """The HTTP body is not ``{"v": 2, "p": ...}`` (maps to VALIDATION.INVALID_PARAMETER)."""


class DecryptionFailed(SecureChannelError):
    """Wrong magic, version or type, truncated data, RSA unwrap or GCM authentication failed."""


# -- algorithms -------------------------------------------------------------------------------

OAEP_SHA256 = "RSA-OAEP-256"
OAEP_JAVA_SHA256 = "RSA/ECB/OAEPWithSHA-256AndMGF1Padding"
OAEP_SHA1 = "RSA-OAEP"
PKCS1_V15 = "RSA1_5"
PKCS1_V15_JAVA = "RSA/ECB/PKCS1Padding"

MODERN_ALGORITHMS: tuple[str, ...] = (OAEP_SHA256, OAEP_JAVA_SHA256, OAEP_SHA1)
LEGACY_ALGORITHMS: tuple[str, ...] = (PKCS1_V15, PKCS1_V15_JAVA)
ALGORITHMS: tuple[str, ...] = MODERN_ALGORITHMS + LEGACY_ALGORITHMS


def rsa_padding(algorithm: str, *, allow_legacy: bool = False) -> asym_padding.AsymmetricPadding:
    """The RSA padding an algorithm name stands for; refuses unknown or unallowed names."""
    if algorithm == OAEP_SHA256:
        return asym_padding.OAEP(
            mgf=asym_padding.MGF1(hashes.SHA256()), algorithm=hashes.SHA256(), label=None
        )
    if algorithm == OAEP_JAVA_SHA256:
        return asym_padding.OAEP(
            mgf=asym_padding.MGF1(hashes.SHA1()),  # noqa: S303 - the profile names MGF1-SHA1
            algorithm=hashes.SHA256(),
            label=None,
        )
    if algorithm == OAEP_SHA1:
        return asym_padding.OAEP(
            mgf=asym_padding.MGF1(hashes.SHA1()),  # noqa: S303 - RSA-OAEP is SHA-1 by definition
            algorithm=hashes.SHA1(),  # noqa: S303
            label=None,
        )
    if algorithm in LEGACY_ALGORITHMS:
        if not allow_legacy:
            raise UnsupportedAlgorithm(
                f"legacy RSA padding {algorithm!r} is refused unless the profile allows it"
            )
        return asym_padding.PKCS1v15()
    raise UnsupportedAlgorithm(f"unknown key-wrapping algorithm {algorithm!r}")


def load_public_key(public_key_b64: str) -> RSAPublicKey:
    """Decode the standard-base64 DER SubjectPublicKeyInfo of the public-key answer."""
    try:
        der = base64.b64decode(public_key_b64, validate=True)
        key = serialization.load_der_public_key(der)
    except (ValueError, binascii.Error, TypeError) as exc:
        raise SecureChannelError("the public key is not base64 DER SubjectPublicKeyInfo") from exc
    if not isinstance(key, RSAPublicKey):
        raise SecureChannelError("the public key is not an RSA key")
    if key.key_size < 2048:
        raise SecureChannelError("the public key is shorter than 2048 bits")
    return key


def export_public_key(key: RSAPublicKey) -> str:
    """Standard base64 (padded) of the DER SubjectPublicKeyInfo."""
    der = key.public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return base64.b64encode(der).decode("ascii")


def wrap_key(
    public_key: RSAPublicKey, algorithm: str, key: bytes, *, allow_legacy: bool = False
) -> bytes:
    """RSA-encrypt one AES key."""
    return public_key.encrypt(key, rsa_padding(algorithm, allow_legacy=allow_legacy))


def unwrap_key(private_key: RSAPrivateKey, algorithm: str, wrapped: bytes) -> bytes:
    """RSA-decrypt one AES key; any failure is a DecryptionFailed."""
    try:
        key = private_key.decrypt(wrapped, rsa_padding(algorithm, allow_legacy=True))
    except ValueError as exc:
        raise DecryptionFailed("RSA unwrap failed") from exc
    if len(key) != KEY_LENGTH:
        raise DecryptionFailed("the unwrapped key is not 32 bytes")
    return key


# -- payload ----------------------------------------------------------------------------------


def seal(key: bytes, plaintext: Buffer, iv: bytes | None = None) -> bytearray:
    """IV followed by AES-256-GCM ciphertext and tag; a fresh random IV unless one is given."""
    return _seal_into(bytearray(), key, plaintext, iv)


def _seal_into(head: bytearray, key: bytes, plaintext: Buffer, iv: bytes | None) -> bytearray:
    """``head`` + IV + ciphertext + tag, encrypted straight into one buffer (no extra copy)."""
    iv = os.urandom(IV_LENGTH) if iv is None else iv
    if len(iv) != IV_LENGTH:
        raise ValueError("the IV must be 12 bytes")
    start = len(head) + IV_LENGTH
    out = bytearray(start + len(memoryview(plaintext)) + TAG_LENGTH)
    out[: len(head)] = head
    out[len(head) : start] = iv
    AESGCM(key).encrypt_into(iv, plaintext, None, memoryview(out)[start:])
    return out  # a bytearray: bytes-like, and not copied once more


def open_payload(key: bytes, payload: Buffer) -> bytes:
    """Authenticate and decrypt a payload."""
    view = memoryview(payload)
    if len(view) < IV_LENGTH + TAG_LENGTH:
        raise DecryptionFailed("the payload is too short")
    try:
        return AESGCM(key).decrypt(view[:IV_LENGTH], view[IV_LENGTH:], None)
    except InvalidTag as exc:
        raise DecryptionFailed("GCM authentication failed") from exc


def payload_iv(payload: Buffer) -> bytes:
    """The IV of a payload (for replay detection)."""
    return bytes(memoryview(payload)[:IV_LENGTH])


# -- binary envelope --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class KeyExchange:
    """The type-1 header fields after the common header."""

    key_id: str
    wrapped_request_key: bytes
    wrapped_response_key: bytes


@dataclass(frozen=True, slots=True)
class Frame:
    """A decoded binary envelope."""

    type: MessageType
    payload: Buffer
    key_exchange: KeyExchange | None = None


def encode_frame(frame: Frame) -> bytes:
    """Serialize a frame to its binary envelope."""
    return bytes(_header(frame.type, frame.key_exchange) + frame.payload)


def _header(kind: MessageType, kx: KeyExchange | None = None) -> bytearray:
    """Magic, version, type and, for type 1, the key-exchange fields."""
    head = bytearray(MAGIC + bytes((VERSION, int(kind))))
    if kind is MessageType.KEY_EXCHANGE:
        if kx is None:
            raise ValueError("a key-exchange frame needs its key-exchange header")
        key_id = kx.key_id.encode("utf-8")
        if not 1 <= len(key_id) <= 255:
            raise ValueError("keyId must be 1 to 255 bytes of UTF-8")
        if len(kx.wrapped_request_key) > 0xFFFF or len(kx.wrapped_response_key) > 0xFFFF:
            raise ValueError("a wrapped key is longer than 65535 bytes")
        head += (
            struct.pack(">B", len(key_id))
            + key_id
            + struct.pack(">H", len(kx.wrapped_request_key))
            + kx.wrapped_request_key
            + struct.pack(">H", len(kx.wrapped_response_key))
            + kx.wrapped_response_key
        )
    return head


def decode_frame(data: Buffer) -> Frame:
    """Parse a binary envelope without copying its payload; DecryptionFailed if malformed."""
    data = memoryview(data)
    if len(data) < 4 or data[:2] != MAGIC:  # memoryview compares by content
        raise DecryptionFailed("wrong magic")
    if data[2] != VERSION:
        raise DecryptionFailed("wrong version")
    try:
        kind = MessageType(data[3])
    except ValueError as exc:
        raise DecryptionFailed("unknown type") from exc
    pos = 4
    kx: KeyExchange | None = None
    if kind is MessageType.KEY_EXCHANGE:
        try:
            (id_len,) = struct.unpack_from(">B", data, pos)
            pos += 1
            key_id_raw = data[pos : pos + id_len]
            if id_len == 0 or len(key_id_raw) != id_len:
                raise DecryptionFailed("truncated keyId")
            pos += id_len
            (req_len,) = struct.unpack_from(">H", data, pos)
            pos += 2
            req_key = data[pos : pos + req_len]
            pos += req_len
            (resp_len,) = struct.unpack_from(">H", data, pos)
            pos += 2
            resp_key = data[pos : pos + resp_len]
            pos += resp_len
        except struct.error as exc:
            raise DecryptionFailed("truncated key-exchange header") from exc
        if len(req_key) != req_len or len(resp_key) != resp_len:
            raise DecryptionFailed("truncated wrapped key")
        try:
            key_id = bytes(key_id_raw).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DecryptionFailed("keyId is not UTF-8") from exc
        kx = KeyExchange(key_id, bytes(req_key), bytes(resp_key))
    payload = data[pos:]
    if len(payload) < IV_LENGTH + TAG_LENGTH:
        raise DecryptionFailed("the payload is too short")
    return Frame(kind, payload, kx)


# -- HTTP body --------------------------------------------------------------------------------


def b64url_encode(data: Buffer) -> str:
    """URL-safe base64 without padding."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    """URL-safe base64, with or without padding; raises BodyFormatError when invalid."""
    stripped = text.strip().rstrip("=")
    if len(stripped) % 4 == 1:
        raise BodyFormatError("invalid base64url length")
    try:
        return base64.b64decode(
            stripped + "=" * (-len(stripped) % 4), altchars=b"-_", validate=True
        )
    except (binascii.Error, ValueError) as exc:
        raise BodyFormatError("invalid base64url") from exc


def to_body(frame_bytes: Buffer) -> dict[str, Any]:
    """The JSON object that carries a binary envelope on HTTP."""
    return {"v": VERSION, "p": b64url_encode(frame_bytes)}


def from_body(body: Any) -> bytes:
    """The binary envelope inside ``{"v": 2, "p": ...}``; raises BodyFormatError otherwise."""
    if isinstance(body, bytes | str):
        try:
            body = json.loads(body)
        except (ValueError, UnicodeDecodeError, RecursionError) as exc:
            raise BodyFormatError("the body is not JSON") from exc
    if not isinstance(body, dict) or set(body) != {"v", "p"}:
        raise BodyFormatError('the body is not {"v", "p"}')
    version, text = body["v"], body["p"]
    if isinstance(version, bool) or version != VERSION:
        raise BodyFormatError("v is not 2")
    if not isinstance(text, str) or not text:
        raise BodyFormatError("p is not a string")
    return b64url_decode(text)


def dump_json(obj: Any) -> bytes:
    """Compact UTF-8 JSON, the plaintext form of every sealed message."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def load_json(plaintext: Buffer) -> Any:
    """Parse a decrypted plaintext; malformed UTF-8 or JSON is a DecryptionFailed."""
    try:
        return json.loads(bytes(plaintext).decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise DecryptionFailed("the plaintext is not UTF-8 JSON") from exc


# -- session keys and whole messages ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SessionKeys:
    """The two independent AES-256 keys of one session."""

    request_key: bytes
    response_key: bytes

    @classmethod
    def generate(cls) -> SessionKeys:
        """Two fresh keys from the operating system's CSPRNG."""
        return cls(os.urandom(KEY_LENGTH), os.urandom(KEY_LENGTH))

    def __repr__(self) -> str:  # never show key material
        return "SessionKeys(<redacted>)"


def key_exchange_message(
    public_key: RSAPublicKey,
    algorithm: str,
    key_id: str,
    keys: SessionKeys,
    plaintext: Any,
    *,
    allow_legacy: bool = False,
) -> bytearray:
    """A type-1 envelope: both keys wrapped, ``plaintext`` sealed with the request key."""
    kx = KeyExchange(
        key_id,
        wrap_key(public_key, algorithm, keys.request_key, allow_legacy=allow_legacy),
        wrap_key(public_key, algorithm, keys.response_key, allow_legacy=allow_legacy),
    )
    head = _header(MessageType.KEY_EXCHANGE, kx)
    return _seal_into(head, keys.request_key, dump_json(plaintext), None)


def request_message(request_key: bytes, plaintext: Any) -> bytearray:
    """A type-2 envelope sealed with the request key."""
    return sealed_frame(MessageType.SESSION_DATA, request_key, dump_json(plaintext))


def response_message(response_key: bytes, plaintext: Any) -> bytearray:
    """A type-129 envelope sealed with the response key."""
    return sealed_frame(MessageType.RESPONSE, response_key, dump_json(plaintext))


def sealed_frame(kind: MessageType, key: bytes, plaintext: Buffer) -> bytearray:
    """A type-2 or type-129 envelope around ``plaintext``, built in one buffer."""
    return _seal_into(_header(kind), key, plaintext, None)


def open_response(response_key: bytes, data: Buffer) -> Any:
    """Verify magic, version and type 129, decrypt, and parse the JSON plaintext."""
    frame = decode_frame(data)
    if frame.type is not MessageType.RESPONSE:
        raise DecryptionFailed("not a response envelope")
    return load_json(open_payload(response_key, frame.payload))


class SealedBody(BaseModel):
    """A Secure Channel v2 frame on HTTP (its JSON Schema is the OpenAPI document's)."""

    model_config = ConfigDict(extra="forbid", title="SealedBody")

    v: Literal[2]
    p: str = Field(
        min_length=1,
        pattern="^[A-Za-z0-9_-]+={0,2}$",
        description="URL-safe base64 (padding optional) of the binary envelope: magic SC, "
        "version 2, type (1 key exchange, 2 session data, 129 response), then for type 1 the "
        "keyId and the two RSA-wrapped AES keys, then a 12-byte IV and the AES-256-GCM "
        "ciphertext with its 16-byte tag.",
    )
