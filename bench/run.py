"""Run every benchmark: ``python -m bench.run [--full] [--json PATH] [--only NAME]``.

Prints a table of ratios against baselines measured in the same run, and writes them as JSON
(default ``bench/results/latest.json``; ``--markdown PATH`` also writes the Markdown table).
The quick mode (default) is what CI runs: it reports, it never fails on timing. ``--smoke``
runs every benchmark once at toy scale (the test of the benchmarks themselves).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import sys
import time
import traceback
from pathlib import Path

from . import harness
from .harness import Result, bench_home, markdown_table, table

#: Benchmark modules, each with ``run(quick: bool) -> list[Result]``, in the order they run.
BENCHMARKS = (
    "bench_startup",
    "bench_client",
    "bench_channel",
    "bench_codec",
    "bench_browse",
    "bench_queries",
    "bench_memory",
    "bench_bulk",
    "bench_revert",
    "bench_snapshot",
    "bench_pack",
    "bench_reviews",
    "bench_review_queue",
    "bench_palette",
    "bench_forward",
)


def machine() -> dict[str, str | int]:
    """What the figures were measured on."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu": cpu,
        "nproc": os.cpu_count() or 0,
    }


def isolate() -> None:
    """Keep the benchmarks' own files out of the person's folders (and keyring)."""
    home = bench_home()
    for var, sub in (
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_DATA_HOME", "data"),
        ("XDG_CACHE_HOME", "cache"),
        ("XDG_STATE_HOME", "state"),
    ):
        os.environ[var] = str(home / sub)
    os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__)
    parser.add_argument("--full", action="store_true", help="more repetitions, full scale")
    parser.add_argument("--smoke", action="store_true", help="one repetition at toy scale")
    parser.add_argument("--json", type=Path, default=Path("bench/results/latest.json"))
    parser.add_argument("--markdown", type=Path, help="also write the table as Markdown")
    parser.add_argument("--only", action="append", choices=BENCHMARKS, help="run only these")
    args = parser.parse_args(argv)
    harness.SMOKE = args.smoke
    isolate()
    mode = "smoke" if args.smoke else "full" if args.full else "quick"
    results: list[Result] = []
    failed: list[str] = []
    started = time.perf_counter()
    for name in args.only or BENCHMARKS:
        print(f"running {name} ({mode}) ...", file=sys.stderr, flush=True)
        t0 = time.perf_counter()
        try:
            module = importlib.import_module(f"bench.{name}")
            results.extend(module.run(quick=not args.full))
        except Exception:  # one broken benchmark must not hide the others' figures
            traceback.print_exc()
            failed.append(name)
        print(f"  {name}: {time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
    print(table(results))
    if failed:
        print(f"\nfailed to run: {', '.join(failed)}")
    missed = [r.name for r in results if not r.met]
    print(
        f"\n{len(results) - len(missed)}/{len(results)} goals met ({mode} mode, "
        f"{time.perf_counter() - started:.0f} s)"
    )
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(
        json.dumps(
            {
                "mode": mode,
                "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "machine": machine(),
                "failed": failed,
                "results": [r.as_dict() for r in results],
            },
            indent=2,
        )
    )
    if args.markdown:
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text(markdown_table(results) + "\n")
    # Reporting only: timing never fails the run; a benchmark that could not run does.
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
