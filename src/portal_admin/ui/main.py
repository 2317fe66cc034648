"""Entry point of ``portal-admin``: parse options, then start Qt (only when needed)."""

from __future__ import annotations

import sys

from .options import parse_args


def main(argv: list[str] | None = None) -> int:
    """Run the program; ``--version`` and ``--help`` return before Qt is imported."""
    options = parse_args(argv)
    qt_argv = sys.argv[:1] + (argv if argv is not None else sys.argv[1:])
    if options.self_check:
        from .self_check import run_self_check

        return run_self_check(qt_argv)
    from .app import run  # Qt is imported from here on

    return run(options, qt_argv)


if __name__ == "__main__":
    sys.exit(main())
