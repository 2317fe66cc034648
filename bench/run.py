"""Run every benchmark: ``python -m bench.run [--full] [--json PATH]``.

Prints a table of ratios against baselines measured in the same run, and writes them as JSON.
The quick mode (default) is what CI runs: it reports, it never fails on timing.
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import sys
import time
from pathlib import Path

from .harness import Result, table

#: Benchmark modules, each with ``run(quick: bool) -> list[Result]``.
BENCHMARKS = ("bench_codec",)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__)
    parser.add_argument("--full", action="store_true", help="more repetitions, full scale")
    parser.add_argument("--json", type=Path, default=Path("bench/results/latest.json"))
    parser.add_argument("--only", action="append", help="run only these modules")
    args = parser.parse_args(argv)
    results: list[Result] = []
    for name in args.only or BENCHMARKS:
        module = importlib.import_module(f"bench.{name}")
        print(f"running {name} ...", file=sys.stderr, flush=True)
        results.extend(module.run(quick=not args.full))
    print(table(results))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(
        json.dumps(
            {
                "mode": "full" if args.full else "quick",
                "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "machine": {
                    "python": platform.python_version(),
                    "platform": platform.platform(),
                    "processor": platform.processor() or platform.machine(),
                },
                "results": [r.as_dict() for r in results],
            },
            indent=2,
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
