"""The options, parsed once: each handler takes one typed value (``def run_bulk(cmd:
BulkCommand) -> int``), made here, at the edge, from argparse's Namespace, which goes no
further. Handlers read fields a type checker knows, not attributes of an ``Any``; what a
command is given is written in one place, its value's class.

A command's class is the one its handler's parameter is annotated with (a handler with no
parameter is given nothing). Each field is named as its option's ``dest``; a field whose type
is one of these dataclasses is a group of options read from the same Namespace (the connection
options, the account filters, the running options); a field with a default may be missing
from a command's grammar (``jobs resume`` has no ``--dry-run``), one without may not. Values
were checked when parsed (``options.py``); lists become tuples (the values are frozen).

Only the standard library is imported: ``--help`` stays quick.
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class ConnectionOptions:
    """Where to connect and how to sign in: one of ``--sandbox``, ``--profile NAME`` and
    ``--server URL`` (with ``--access-code`` and ``--environment``), the account (``--user``),
    the password's environment variable, ``--sandbox-mfa``, ``--keep-session`` (without a
    keyring: the sign-in kept in an owner-only file) and the labels' language."""

    sandbox: bool
    profile: str | None
    server: str | None
    access_code: str | None
    environment: str | None
    user: str | None
    password_env: str | None
    sandbox_mfa: bool
    keep_session: bool
    lang: str

    @property
    def named(self) -> bool:
        """True when the options name a server."""
        return bool(self.sandbox or self.profile or self.server)


@dataclass(frozen=True)
class AccountFilters:
    """The accounts query's filters (as the Accounts panel's)."""

    status: str | None = None
    portal: str | None = None
    institution: str | None = None
    email: str | None = None
    name: str | None = None


@dataclass(frozen=True)
class RunOptions:
    """How a job runs: ``--dry-run``, ``--concurrency``, ``--out``, ``--delimiter``,
    ``--confirm``, ``--progress`` and ``--format`` (``jobs resume`` has no ``--dry-run``, and
    its ``--concurrency`` is None: the job's own)."""

    concurrency: int | None
    out: str | None
    delimiter: str
    confirm: int | None
    progress: bool
    format: str
    dry_run: bool = False


def arguments_of(handler: Callable[..., Any], args: argparse.Namespace) -> tuple[Any, ...]:
    """The arguments ``handler`` is called with: none, or the value of the dataclass its one
    parameter is annotated with, made from ``args``."""
    hints = typing.get_type_hints(handler)
    parameters = inspect.signature(handler).parameters
    return tuple(from_options(hints.get(name, object), args) for name in parameters)


def from_options(kind: type[T], args: argparse.Namespace) -> T:
    """A ``kind`` (a dataclass) from the options in ``args``; TypeError naming the field when
    the grammar gives no option of that name, or the class when it is no dataclass (mistakes
    of the program's, never the person's)."""
    if not (isinstance(kind, type) and dataclasses.is_dataclass(kind)):
        raise TypeError(f"{kind!r}: a handler takes a dataclass of its options")
    hints = typing.get_type_hints(kind)
    values: dict[str, Any] = {}
    for field in dataclasses.fields(kind):
        hint = hints[field.name]
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            values[field.name] = from_options(hint, args)
        elif hasattr(args, field.name):
            value = getattr(args, field.name)
            values[field.name] = tuple(value) if isinstance(value, list) else value
        elif field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
            raise TypeError(f"{kind.__name__}.{field.name}: the command has no such option")
    return kind(**values)
