"""The atheris fuzzers of fuzz/, in a bounded form (20,000 runs each) as subprocesses.

The longer runs and their figures are in docs/security.md.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNS = 20_000

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("atheris") is None,
    reason="atheris is not installed (pip install atheris; Linux x86_64/arm64 wheels)",
)


@pytest.mark.parametrize(("script", "dictionary"), [
    ("fuzz_codec.py", "codec.dict"),
    ("fuzz_envelope.py", "envelope.dict"),
])  # fmt: skip
def test_fuzzer_runs_clean(script: str, dictionary: str, tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "fuzz" / script),
            f"-runs={RUNS}",
            f"-dict={ROOT / 'fuzz' / dictionary}",
            "-seed=1",
            "-max_len=2048",
            f"-artifact_prefix={tmp_path}/",
        ],
        capture_output=True,
        text=True,
        timeout=240,
        cwd=tmp_path,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-3000:]
    assert re.search(rf"Done {RUNS} runs", output), output[-2000:]
    assert not list(tmp_path.glob("crash-*")), output[-2000:]
