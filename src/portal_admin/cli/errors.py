"""Exit statuses and the error that means "this command line cannot be carried out"."""

from __future__ import annotations

#: Every target succeeded or was skipped as planned (or the command did what it says).
EXIT_OK = 0
#: Some targets failed or have an unknown outcome, the job paused, or the server refused.
EXIT_FAILED = 1
#: The command line or an input file cannot be used; nothing was sent.
EXIT_USAGE = 2


class UsageError(Exception):
    """A command line, input file or confirmation that cannot be used (exit status 2)."""
