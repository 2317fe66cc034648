"""Coverage-guided fuzzing (atheris) of the Secure Channel codec: decode_frame + open_payload,
open_response and from_body. The only failures allowed are the codec's own exceptions.

    .venv/bin/python fuzz/fuzz_codec.py -runs=20000 [-max_len=4096] [corpus_dir]
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    from portal_admin.protocol import secure_channel as sc

KEY = bytes(range(32))


def test_one_input(data: bytes) -> None:
    """One input: as a binary frame, and as an HTTP body (bytes and text)."""
    fdp = atheris.FuzzedDataProvider(data)
    choice = fdp.ConsumeIntInRange(0, 3)
    rest = fdp.ConsumeBytes(fdp.remaining_bytes())
    try:
        if choice == 0:
            frame = sc.decode_frame(rest)
            sc.load_json(sc.open_payload(KEY, frame.payload))
        elif choice == 1:
            sc.open_response(KEY, rest)
        elif choice == 2:
            frame = sc.decode_frame(sc.from_body(rest))
        else:
            text = rest.decode("utf-8", "replace")
            sc.from_body({"v": 2, "p": text})
    except sc.SecureChannelError:
        return


def main() -> None:
    """Run libFuzzer with the command-line options."""
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
