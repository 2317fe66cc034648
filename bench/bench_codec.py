"""Secure Channel codec throughput on 1 MiB against bare AES-GCM from cryptography."""

from __future__ import annotations

import os

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from portal_admin.protocol import secure_channel as sc

from .harness import Result, at_least, interleaved

MIB = 1024 * 1024


def run(quick: bool) -> list[Result]:
    key = os.urandom(32)
    data = os.urandom(MIB)
    aes = AESGCM(key)

    def bare() -> None:
        iv = os.urandom(12)
        aes.decrypt(iv, aes.encrypt(iv, data, None), None)

    def codec() -> None:
        raw = sc.sealed_frame(sc.MessageType.SESSION_DATA, key, data)
        sc.open_payload(key, sc.decode_frame(raw).payload)

    t_bare, t_codec = interleaved(bare, codec, repeat=7 if quick else 31, number=3)
    # Throughput is MiB per second: higher is better, so the ratio is codec / bare.
    return [
        at_least(
            "codec throughput, 1 MiB seal+open (MiB/s)",
            1 / t_codec,
            1 / t_bare,
            "MiB/s",
            0.8,
            "frame encode/decode and payload seal/open vs AESGCM encrypt/decrypt",
        )
    ]
