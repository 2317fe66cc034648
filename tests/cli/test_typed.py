"""The options are parsed once, at the edge, into the typed value each handler takes: every
command of the grammar gets a value of its handler's class, every option the command has
reaches it, each field has the type its class says, and a grammar that lacks a field the
class needs is the program's mistake, named."""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import types
import typing
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from portal_admin.cli.bulk import BulkCommand
from portal_admin.cli.parser import build_parser
from portal_admin.cli.typed import ConnectionOptions, RunOptions, arguments_of, from_options

from .test_options import OPTIONS, _base, _commands, _valid

#: Namespace entries that choose the command, not options of it.
GRAMMAR = {"handler", "area", "command", "trust_command"}


class Reads(argparse.Namespace):
    """A Namespace that remembers which options were read."""

    def __init__(self, args: argparse.Namespace) -> None:
        super().__init__(**vars(args))
        object.__setattr__(self, "read", set())

    def __getattribute__(self, name: str) -> Any:
        if not name.startswith("_") and name != "read" and name in vars(self):
            object.__getattribute__(self, "read").add(name)
        return object.__getattribute__(self, name)


def _handler(name: str) -> Any:
    module, function = name.split(":")
    return getattr(importlib.import_module(f"portal_admin.cli.{module}"), function)


def _fits(value: Any, hint: Any) -> bool:
    """True when ``value`` is of the type ``hint`` (the few forms the command classes use)."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, each) for each in typing.get_args(hint))
    if origin is tuple:
        parts = typing.get_args(hint)
        if not isinstance(value, tuple):
            return False
        if len(parts) == 2 and parts[1] is Ellipsis:
            return all(_fits(v, parts[0]) for v in value)
        return len(parts) == len(value) and all(map(_fits, value, parts))
    if hint is type(None):
        return value is None
    if hint is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, hint)


def _typed_check(value: Any) -> None:
    """Every field of ``value`` (and of its groups) has its declared type."""
    hints = typing.get_type_hints(type(value))
    for field in dataclasses.fields(value):
        inner = getattr(value, field.name)
        if dataclasses.is_dataclass(inner):
            _typed_check(inner)
        assert _fits(inner, hints[field.name]), (type(value).__name__, field.name, inner)


def _needs(parser: argparse.ArgumentParser) -> list[str]:
    """A command's positionals and required options, and one of each required group."""
    argv = _base(parser)
    for group in parser._mutually_exclusive_groups:
        if group.required:
            first = group._group_actions[0]
            argv += [first.option_strings[0], *(_valid(first) if first.nargs != 0 else [])]
    return argv


def _own_options(parser: argparse.ArgumentParser) -> set[str]:
    return {
        action.dest
        for action in parser._actions
        if action.dest not in GRAMMAR and not isinstance(action, argparse._HelpAction)
    }


COMMANDS = list(_commands(build_parser()))


@pytest.mark.parametrize(("words", "parser"), COMMANDS, ids=[" ".join(w) for w, _ in COMMANDS])
def test_every_command_gets_its_typed_value_with_every_option(
    words: tuple[str, ...], parser: argparse.ArgumentParser
) -> None:
    args = Reads(build_parser().parse_args([*words, *_needs(parser)]))
    name = parser.get_default("handler")
    for value in arguments_of(_handler(name), args):
        assert dataclasses.is_dataclass(value) and not isinstance(value, argparse.Namespace)
        _typed_check(value)
    unread = _own_options(parser) - args.read
    assert not unread, f"{' '.join(words)}: {sorted(unread)} never reach the handler"


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(OPTIONS), st.text(max_size=40))
def test_any_value_that_parses_is_of_its_fields_type(
    case: tuple[tuple[str, ...], list[str], str], value: str
) -> None:
    words, base, option = case
    try:
        args = build_parser().parse_args([*words, *base, f"{option}={value}"])
    except SystemExit:
        return  # refused by name: test_options
    for typed in arguments_of(_handler(args.handler), args):
        _typed_check(typed)


def test_groups_are_read_from_the_same_options() -> None:
    args = build_parser().parse_args(
        [
            *("--sandbox", "bulk", "status", "--action", "suspend", "--all-matching"),
            *("--status", "active", "--user", "a@b.c", "--concurrency", "7", "--format", "json"),
        ]
    )
    (cmd,) = arguments_of(_handler(args.handler), args)
    assert isinstance(cmd, BulkCommand)
    assert cmd.connection.sandbox and cmd.connection.user == "a@b.c"
    assert cmd.targets.all_matching and cmd.targets.filters.status == "ACTIVE"
    assert (cmd.run.concurrency, cmd.run.format, cmd.run.dry_run) == (7, "json", False)
    assert cmd.action == "SUSPEND"
    with pytest.raises(dataclasses.FrozenInstanceError):
        cmd.connection.user = "someone else"  # type: ignore[misc]


def test_a_field_the_grammar_lacks_is_named() -> None:
    args = build_parser().parse_args(["jobs", "list"])
    with pytest.raises(TypeError, match="a handler takes a dataclass"):
        arguments_of(lambda options: options, args)  # no annotation: it would get the Namespace
    with pytest.raises(TypeError, match=r"ConnectionOptions\.sandbox"):
        from_options(ConnectionOptions, argparse.Namespace(format="text"))
    with pytest.raises(TypeError, match=r"RunOptions\.concurrency"):
        from_options(RunOptions, args)
