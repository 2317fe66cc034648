"""``portal-admin-cli``: accounts, bulk changes and jobs from the command line, on the engine
the desktop program uses (docs/cli.md). No Qt is imported.

Exit status: 0 when every target succeeded or was skipped as planned, 1 when some failed, are
of unknown outcome, or the job paused (it can be resumed), 2 for a command line, input file or
confirmation that cannot be used.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import logging
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from .errors import EXIT_FAILED, EXIT_USAGE, UsageError
from .parser import build_parser
from .typed import arguments_of

PROG = "portal-admin-cli"


def _handler(name: str) -> Callable[..., Any]:
    """The handler ``module:function`` of this package."""
    module, function = name.split(":")
    handler: Callable[..., Any] = getattr(
        importlib.import_module(f"{__package__}.{module}"), function
    )
    return handler


def _quiet_broken_pipe() -> None:
    """Standard output was closed by its reader (``| head``): say nothing more there."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a usage error argparse reported
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    logging.basicConfig(level=logging.WARNING, format=f"{PROG}: %(message)s")
    from portal_admin.client.errors import (
        ConfigurationError,
        InvalidIdError,
        PortalError,
        ReadOnlyError,
    )

    try:
        handler = _handler(args.handler)
        result = handler(
            *arguments_of(handler, args)
        )  # the options, typed: no Namespace goes further
        if inspect.iscoroutine(result):
            result = asyncio.run(result)
        return int(result)
    except UsageError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except (ConfigurationError, InvalidIdError, ReadOnlyError) as exc:  # nothing was sent
        print(f"{PROG}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except PortalError as exc:
        where = f" (request id {exc.request_id})" if exc.request_id else ""
        print(f"{PROG}: {exc.code}: {exc}{where}", file=sys.stderr)
        return EXIT_FAILED
    except (KeyboardInterrupt, asyncio.CancelledError):
        print(f"{PROG}: interrupted", file=sys.stderr)
        return EXIT_FAILED
    except BrokenPipeError:
        _quiet_broken_pipe()
        return EXIT_FAILED
    except OSError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return EXIT_FAILED


if __name__ == "__main__":
    sys.exit(main())
