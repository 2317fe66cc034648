"""Every option value is checked where it is parsed: a bad one ends in exit status 2 with a
message naming the option and what it accepts, never in a traceback; every handler the grammar
names exists."""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from portal_admin.cli import options
from portal_admin.cli.main import main
from portal_admin.cli.parser import build_parser

#: A value that every checked option accepts, by type function name.
VALID = {
    "an account status": "ACTIVE",
    "a portal": "SYSTEM",
    "number": "1",
    "seconds": "1",
    "day": "2026-12-01",
    "moment": "2026-12-01T00:00:00Z",
    "fingerprint": "0" * 64,
    "sort": "accountEmail,asc",
}


def _commands(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """(the words naming it, its parser) of every command of the grammar."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield path, parser
        return
    for name, child in subs[0].choices.items():
        yield from _commands(child, (*path, name))


def _valid(action: argparse.Action) -> list[str]:
    """Values that satisfy ``action`` (for a positional or a required option)."""
    if action.choices:
        value = str(next(iter(action.choices)))
    else:
        value = VALID.get(getattr(action.type, "__name__", ""), "x")
    count = action.nargs if isinstance(action.nargs, int) else 1
    return [value] * count


def _base(parser: argparse.ArgumentParser) -> list[str]:
    """What a command needs besides the option tried: its positionals and required options."""
    argv: list[str] = []
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        if not action.option_strings:
            argv += _valid(action)
        elif action.required:
            argv += [action.option_strings[0], *_valid(action)]
    return argv


def _value_options() -> list[tuple[tuple[str, ...], list[str], str]]:
    """(command words, its base arguments, an option that takes a value) for every command."""
    found = []
    for words, parser in _commands(build_parser()):
        base = _base(parser)
        for action in parser._actions:
            if action.option_strings and action.nargs != 0 and action.dest != "help":
                found.append((words, base, action.option_strings[0]))
    return found


OPTIONS = _value_options()


def test_every_command_has_a_handler_that_resolves() -> None:
    for words, parser in _commands(build_parser()):
        handler = parser.get_default("handler")
        assert handler, f"{' '.join(words)} names no handler"
        module, function = handler.split(":")
        found = importlib.import_module(f"portal_admin.cli.{module}")
        assert callable(getattr(found, function, None)), f"{' '.join(words)}: {handler}"


def test_the_walk_finds_the_options_that_were_bugs() -> None:
    names = {(" ".join(words), option) for words, _, option in OPTIONS}
    assert ("accounts query", "--status") in names
    assert ("accounts query", "--portal") in names
    assert ("bulk status", "--status") in names
    assert len(OPTIONS) > 100


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["accounts", "query", "--status", "FOO"], "argument --status: 'FOO' is not an account"),
        (["accounts", "query", "--portal", "FOO"], "argument --portal: 'FOO' is not a portal"),
        (
            ["bulk", "status", "--action", "suspend", "--all-matching", "--status", "NOPE"],
            "argument --status: 'NOPE' is not an account status: one of ACTIVE, SUSPENDED",
        ),
        (["bulk", "invite", "--file", "x", "--expiration-days", "0"], "from 1 to 30"),
        (["accounts", "query", "--sort", "a;drop"], "argument --sort:"),
        (["evidence", "verify", "p.zip", "--fingerprint", "zz"], "64 hexadecimal digits"),
        (["doctor", "--timeout", "nan"], "argument --timeout:"),
        (["journal", "revert", "0"], "argument SEQ: '0' is not a whole number from 1"),
        (["review", "create", "c.review", "--name", "n", "--due", "soon"], "YYYY-MM-DD"),
        (["accounts", "query", "--status", "\x1b[2Kx"], "'\\\\x1b[2Kx' is not"),
    ],
)
def test_a_bad_value_names_the_option_and_what_it_accepts(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--sandbox", *argv]) == 2
    err = capsys.readouterr().err
    assert named in err, err
    assert "Traceback" not in err
    assert "\x1b" not in err


def test_email_is_the_filter_and_user_signs_in(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--email", "admin@sandbox.test", "--sandbox", "accounts", "query"]) == 2
    assert "sign in as an account with --user EMAIL" in capsys.readouterr().err
    args = build_parser().parse_args(["--user", "a@b.c", "accounts", "query", "--email", "em"])
    assert (args.user, args.email) == ("a@b.c", "em")
    help_text = build_parser()._subparsers._group_actions[0].choices["accounts"]  # type: ignore[union-attr]
    query = help_text._subparsers._group_actions[0].choices["query"]  # type: ignore[union-attr]
    assert "start with TEXT" in query.format_help()


def test_checked_values_come_out_in_the_handlers_form() -> None:
    args = build_parser().parse_args(
        ["accounts", "query", "--status", " suspended", "--portal", "35010201"]
    )
    assert (args.status, args.portal) == ("SUSPENDED", "SYSTEM")
    assert options.fingerprint("AB:" * 30 + "ABCD" + " ") == "ab" * 30 + "abcd"


PARSER = build_parser()


def _parses_or_refuses(argv: list[str]) -> None:
    try:
        PARSER.parse_args(argv)
    except SystemExit as exc:
        assert exc.code == 2, argv


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(OPTIONS), st.text(max_size=40))
def test_any_value_of_any_option_parses_or_is_refused_by_name(
    case: tuple[tuple[str, ...], list[str], str], value: str
) -> None:
    words, base, option = case
    _parses_or_refuses([*words, *base, f"{option}={value}"])


def test_every_option_with_odd_values(capsys: pytest.CaptureFixture[str]) -> None:
    """Every option of every command, with hostile and odd values: parsed or refused (exit 2),
    nothing else."""
    odd = ("", " ", "-1", "0", "1e309", "nan", "\x00", "\x1b[2K", "é" * 300, "A,B", "--")
    for words, base, option in OPTIONS:
        for value in odd:
            _parses_or_refuses([*words, *base, f"{option}={value}"])
    assert "Traceback" not in capsys.readouterr().err


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    option=st.sampled_from(
        ["--status", "--portal", "--institution", "--email", "--name", "--sort"]
    ),
    value=st.text(max_size=30),
)
def test_a_query_with_any_filter_value_ends_in_an_exit_status(
    tmp_path: Path, option: str, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The whole command, run on the built-in sandbox: an exit status, never a traceback."""
    out = tmp_path / "out.csv"
    status = main(["--sandbox", "accounts", "query", f"{option}={value}", "--out", str(out)])
    assert status in (0, 1, 2)
    assert "Traceback" not in capsys.readouterr().err


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    option=st.sampled_from(
        ["--status", "--portal", "--name", "--reason", "--concurrency", "--confirm"]
    ),
    value=st.text(max_size=30),
)
def test_a_dry_run_with_any_value_ends_in_an_exit_status(
    tmp_path: Path, option: str, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "plan.csv"
    argv = ["--sandbox", "bulk", "status", "--action", "suspend", "--all-matching", "--dry-run"]
    status = main([*argv, "--name", "zz-nobody", f"{option}={value}", "--out", str(out)])
    assert status in (0, 1, 2)
    assert "Traceback" not in capsys.readouterr().err
