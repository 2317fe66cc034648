"""An independent Secure Channel v2 client, written from secure-channel-profile.md alone.

It deliberately does not use ``portal_admin.protocol.secure_channel``: a mistake shared by the
project's codec and the sandbox would otherwise go unnoticed.
"""

from __future__ import annotations

import base64
import json
import os
import struct
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM


def oaep(algorithm: str) -> padding.AsymmetricPadding:
    """The RSA padding each algorithm name of the profile stands for."""
    if algorithm == "RSA-OAEP-256":
        return padding.OAEP(
            mgf=padding.MGF1(hashes.SHA256()), algorithm=hashes.SHA256(), label=None
        )
    if algorithm == "RSA/ECB/OAEPWithSHA-256AndMGF1Padding":
        return padding.OAEP(mgf=padding.MGF1(hashes.SHA1()), algorithm=hashes.SHA256(), label=None)
    if algorithm == "RSA-OAEP":
        return padding.OAEP(mgf=padding.MGF1(hashes.SHA1()), algorithm=hashes.SHA1(), label=None)
    if algorithm in ("RSA1_5", "RSA/ECB/PKCS1Padding"):
        return padding.PKCS1v15()
    raise ValueError(algorithm)


def b64url(data: bytes) -> str:
    """URL-safe base64 without padding."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    """URL-safe base64 with or without padding."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def seal(key: bytes, plaintext: Any, iv: bytes | None = None) -> bytes:
    """12-byte IV then AES-256-GCM ciphertext with its tag, no associated data."""
    iv = os.urandom(12) if iv is None else iv
    return iv + AESGCM(key).encrypt(iv, json.dumps(plaintext).encode(), None)


def body(frame: bytes) -> dict[str, Any]:
    """The HTTP body carrying a binary envelope."""
    return {"v": 2, "p": b64url(frame)}


@dataclass
class WireClient:
    """Keys of one session and the frames that go with them."""

    key_id: str
    public_key: RSAPublicKey
    algorithm: str
    request_key: bytes = field(default_factory=lambda: os.urandom(32))
    response_key: bytes = field(default_factory=lambda: os.urandom(32))
    session_id: str | None = None

    @classmethod
    def from_public_key(cls, data: dict[str, Any]) -> WireClient:
        """Build from the ``data`` of the public-key operation."""
        key = serialization.load_der_public_key(base64.b64decode(data["publicKey"]))
        assert isinstance(key, RSAPublicKey)
        return cls(data["keyId"], key, data["algorithm"])

    def key_exchange(
        self,
        plaintext: Any = None,
        *,
        key_id: str | None = None,
        head: bytes = b"SC\x02\x01",
        wrapped: tuple[bytes, bytes] | None = None,
    ) -> bytes:
        """A type-1 envelope (``{}`` unless told)."""
        kid = (key_id or self.key_id).encode()
        pad = oaep(self.algorithm)
        req, resp = wrapped or (
            self.public_key.encrypt(self.request_key, pad),
            self.public_key.encrypt(self.response_key, pad),
        )
        return (
            head
            + struct.pack(">B", len(kid))
            + kid
            + struct.pack(">H", len(req))
            + req
            + struct.pack(">H", len(resp))
            + resp
            + seal(self.request_key, {} if plaintext is None else plaintext)
        )

    def data(
        self,
        plaintext: Any,
        *,
        iv: bytes | None = None,
        head: bytes = b"SC\x02\x02",
        key: bytes | None = None,
    ) -> bytes:
        """A type-2 envelope."""
        return head + seal(key or self.request_key, plaintext, iv)

    def open(self, response_body: dict[str, Any]) -> dict[str, Any]:
        """Decrypt a type-129 HTTP body into its envelope."""
        assert response_body.get("v") == 2, response_body
        raw = unb64url(response_body["p"])
        assert raw[:4] == b"SC\x02\x81", raw[:4]
        payload = raw[4:]
        plain = AESGCM(self.response_key).decrypt(payload[:12], payload[12:], None)
        result: dict[str, Any] = json.loads(plain.decode("utf-8"))
        return result

    def headers(self) -> dict[str, str]:
        """Headers of a call in this session."""
        assert self.session_id is not None
        return {
            "X-SC-Version": "2",
            "X-SC-Session-Id": self.session_id,
            "Content-Type": "application/json;charset=UTF-8",
        }
