"""Input that cannot be used exits 2 with a message naming the file and the line, nothing sent."""

from __future__ import annotations

from pathlib import Path

import pytest

from portal_admin import jobs
from portal_admin.cli.main import main


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"email\nok@example.org\n\xff\xfe@example.org\n", "line 3: the file is not UTF-8"),
        ("email\nok@example.org\nzoë@example.org\n".encode("latin-1"), "line 3: the file is not"),
        (b"first,second\na,b\n", "line 1: no column is named email or id"),
        (b'email\n"unterminated@example.org\n', "line 2: the CSV cannot be read"),
        (b"\n\n", "the file lists nothing"),
    ],
)
def test_a_bad_file_names_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, message: str
) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_bytes(content)
    argv = ["--sandbox", "bulk", "reset-password", "--file", str(bad)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"{bad}, {message}" in err or f"{bad}: {message}" in err, err
    assert "Traceback" not in err
    assert jobs.list_jobs() == []


def test_an_invitation_list_with_a_bad_expiry_names_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    people = tmp_path / "people.csv"
    people.write_text("email,expirationDays\na@example.org,5\nb@example.org,abc\n", "utf-8")
    assert main(["--sandbox", "bulk", "invite", "--file", str(people)]) == 2
    assert "people.csv, line 3: expirationDays must be a whole number" in capsys.readouterr().err
    assert jobs.list_jobs() == []


def test_a_million_lines_are_refused_quickly_naming_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    big = tmp_path / "big.csv"
    big.write_bytes(b"email\n" + b"someone@example.org\n" * 1_000_000)  # 1,000,001 lines
    assert main(["--sandbox", "bulk", "reset-password", "--file", str(big), "--dry-run"]) == 2
    err = capsys.readouterr().err
    assert "big.csv, line 200001: the file has more than 200,000 lines" in err


def test_a_missing_file_and_an_unwritable_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.csv"
    assert main(["--sandbox", "bulk", "reset-password", "--file", str(missing)]) == 2
    assert f"{missing}: No such file or directory" in capsys.readouterr().err
    argv = ["--sandbox", "bulk", "reset-password", "--all-matching", "--status", "ACTIVE"]
    assert main([*argv, "--out", str(tmp_path)]) == 2  # a folder: refused before signing in
    assert "is a folder" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--sandbox", "bulk", "reset-password"], "one of --file, --ids, --all-matching"),
        (["--sandbox", "bulk", "reset-password", "--ids", "A", "--all-matching"], "choose one"),
        (["--sandbox", "bulk", "reset-password", "--ids", "A", "--status", "ACTIVE"], "filters"),
        (["--sandbox", "bulk", "reset-password", "--ids", " , "], "--ids names nothing"),
        (["--sandbox", "bulk", "cancel-invitations"], "--all-pending/--older-than"),
        (
            ["--sandbox", "bulk", "reset-password", "--ids", "A", "--concurrency", "0"],
            "from 1 to 64",
        ),
        (["accounts", "query"], "name a server"),
        (["--sandbox", "--profile", "x", "accounts", "query"], "choose one of --sandbox"),
        (["--profile", "nowhere", "accounts", "query"], "no connection profile called"),
        (["--sandbox", "--access-code", "X", "accounts", "query"], "go with --server"),
        (
            ["--server", "https://portal.example.com", "--sandbox-mfa", "accounts", "query"],
            "--sandbox-mfa is for a sandbox on this computer",
        ),
        (["jobs", "show", "nope"], "no job 'nope'"),
        (["jobs", "resume", "nope"], "no job 'nope'"),
    ],
)
def test_usage_errors_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["--sandbox", "bulk", "status", "--action", "explode", "--ids", "x"],
        ["--sandbox", "bulk", "update", "--field", "password", "--value", "x", "--ids", "x"],
        ["--sandbox", "bulk", "status", "--ids", "x"],
        ["--sandbox", "nothing"],
        [],
    ],
)
def test_argparse_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert "usage: portal-admin-cli" in capsys.readouterr().err


def test_help_and_version_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    assert "exit status" in capsys.readouterr().out
    assert main(["bulk", "status", "--help"]) == 0
    assert "--yes-i-typed" in capsys.readouterr().out
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("portal-admin-cli ")


def test_plain_http_to_a_remote_host_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--server", "http://portal.example.com", "accounts", "query"]) == 2
    assert "plain http" in capsys.readouterr().err
