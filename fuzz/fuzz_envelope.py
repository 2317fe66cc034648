"""Coverage-guided fuzzing (atheris) of the response-envelope parser and the page parser.
The only failures allowed are MalformedEnvelope (and ValueError for pages).

    .venv/bin/python fuzz/fuzz_envelope.py -runs=20000 [-max_len=4096] [corpus_dir]
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    from portal_admin.protocol.envelope import MalformedEnvelope, parse_envelope
    from portal_admin.protocol.pages import parse_page


def test_one_input(data: bytes) -> None:
    """One input: an envelope body; when it parses, its data as a page."""
    try:
        envelope = parse_envelope(data)
    except MalformedEnvelope:
        return
    assert isinstance(envelope.code, str) and envelope.code
    assert isinstance(envelope.success, bool)
    try:
        parse_page(envelope.data)
    except ValueError:
        return


def main() -> None:
    """Run libFuzzer with the command-line options."""
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
