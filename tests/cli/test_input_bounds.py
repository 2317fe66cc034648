"""Input bounds (#27): a list is read up to its bound and no further (``/dev/zero``, an endless
pipe: exit 2, in bounded memory); planning shows its progress; an id that is not one is a
skipped line, never a path; a refused id is a usage error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from portal_admin.cli import targets
from portal_admin.cli.bulk import BulkCommand
from portal_admin.cli.main import main
from portal_admin.client import InvalidIdError
from portal_admin.files.portable import under_wine
from portal_admin.jobs.targets import MAX_BYTES, PlanProgress

from .conftest import Query, rows

#: The address space the command may use: the interpreter and its imports take about 300 MiB
#: of it here, a list at its bound 64 MiB twice (read, then copied once); reading /dev/zero
#: whole never fits.
MEMORY_LIMIT = 1024 * 1024 * 1024

_CHILD = """
import sys
try:
    import resource
    resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
except ImportError:  # Windows has no address-space limit: the refusal is checked, not the bound
    pass
from portal_admin.cli.main import main
sys.exit(main(sys.argv[1:]))
"""

BULK = ["--sandbox", "bulk", "status", "--action", "suspend", "--dry-run"]


def _run(args: list[str], tmp_path: Path, **kwargs: object) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "PORTAL_ADMIN_HOME": str(tmp_path / "portal-admin"),
    }
    return subprocess.run(
        [sys.executable, "-c", _CHILD.format(limit=MEMORY_LIMIT), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        **kwargs,  # type: ignore[arg-type]
    )


@pytest.mark.skipif(
    sys.platform == "win32" or not Path("/dev/zero").exists(), reason="no /dev/zero (Windows)"
)
def test_dev_zero_is_refused_in_bounded_memory(tmp_path: Path) -> None:
    done = _run([*BULK, "--file", "/dev/zero"], tmp_path)
    assert done.returncode == 2, done.stderr[-2000:]
    assert "/dev/zero: the file is larger than 64 MiB" in done.stderr
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr


@pytest.mark.skipif(
    under_wine(),
    reason="Wine's pipes carry about 0.3 MB/s (measured): 64 MiB through one takes over 3 minutes",
)
def test_an_endless_pipe_is_refused_in_bounded_memory(tmp_path: Path) -> None:
    writer = "import sys\nwhile True:\n    sys.stdout.write('ACC0000000000000001\\n')"
    with subprocess.Popen([sys.executable, "-c", writer], stdout=subprocess.PIPE) as endless:
        try:
            done = _run([*BULK, "--file", "-"], tmp_path, stdin=endless.stdout)
        finally:
            endless.kill()
    assert done.returncode == 2, done.stderr[-2000:]
    assert "-: the file is larger than 64 MiB" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_list_at_the_bound_is_read_and_one_byte_more_is_not(tmp_path: Path) -> None:
    at_bound = tmp_path / "at.csv"
    line = b"ACC0000000000000001," + b"x" * 1004 + b"\n"  # 1 KiB: fewer lines than the bound
    with at_bound.open("wb") as fh:
        fh.write(b"id,note\n")
        fh.write(line * ((MAX_BYTES - fh.tell()) // len(line)))
        fh.write(b"\n" * (MAX_BYTES - fh.tell()))
    assert at_bound.stat().st_size == MAX_BYTES
    assert len(targets.read_list(str(at_bound)).problems) > 0  # read: a duplicate id, many times
    with at_bound.open("ab") as fh:
        fh.write(b"\n")
    with pytest.raises(targets.UsageError, match="larger than 64 MiB"):
        targets.read_list(str(at_bound))


def test_planning_shows_its_progress(
    tmp_path: Path, query: Query, capsys: pytest.CaptureFixture[str]
) -> None:
    ids = [a["id"] for a in query("--status", "ACTIVE", "--name", "emma")]
    listed = tmp_path / "ids.txt"
    listed.write_text("\n".join(ids), encoding="utf-8")
    capsys.readouterr()
    assert main([*BULK, "--file", str(listed), "--progress"]) == 0
    err = capsys.readouterr().err
    assert f"planning: 0/{len(ids)} lines read" in err
    assert f"planning: {len(ids)}/{len(ids)} lines read" in err
    assert err.index("planning:") < err.index("plan:")


def test_progress_of_every_account_matching(
    query: Query, capsys: pytest.CaptureFixture[str]
) -> None:
    many = len(query("--status", "ACTIVE", "--name", "emma"))
    capsys.readouterr()
    argv = [*BULK, "--all-matching", "--status", "ACTIVE", "--name", "emma", "--progress"]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert f"planning: {many} accounts read" in err


def test_a_terminal_line_is_rewritten_and_ended() -> None:
    class Terminal:
        def __init__(self) -> None:
            self.text = ""

        def isatty(self) -> bool:
            return True

        def write(self, text: str) -> None:
            self.text += text

        def flush(self) -> None:
            pass

    now = [0.0]
    screen = Terminal()
    printer = targets.PlanPrinter(screen, clock=lambda: now[0])  # type: ignore[arg-type]
    printer(PlanProgress("match", 0, 3))
    now[0] += 0.1
    printer(PlanProgress("match", 1, 3))  # too soon: not shown
    printer(PlanProgress("match", 3, 3, skipped=1, retries=2))  # the last: shown
    printer.end()
    assert screen.text == (
        "\r\x1b[Kplanning: 0/3 lines read"
        "\r\x1b[Kplanning: 3/3 lines read · 1 name no account · 2 read again after a server "
        "error\n"
    )


def test_an_id_that_is_not_one_is_a_skipped_line_and_no_path(
    tmp_path: Path, query: Query, sent: list[str]
) -> None:
    real = query("--status", "ACTIVE", "--name", "emma")[0]["id"]
    listed = tmp_path / "ids.csv"
    listed.write_text(
        f'id\n../../../sandbox/mailbox\n"x?to=admin@sandbox.test"\na/b\n{real}\n',
        encoding="utf-8",
    )
    plan = tmp_path / "plan.csv"
    sent.clear()
    assert main([*BULK, "--file", str(listed), "--out", str(plan)]) == 0
    lines = {r["target id"]: r["skipped because"] for r in rows(plan)}
    assert lines == {
        "../../../sandbox/mailbox": "INVALID",
        "x?to=admin@sandbox.test": "NOT_FOUND",  # taken for an email: a body field
        "a/b": "INVALID",
        real: "",
    }
    assert sent.count("accounts.get") == 1  # the real id's, to its own path
    assert sent.count("accounts.query") == 1  # the "email", in a JSON body


def test_a_refused_id_is_a_usage_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async def refuse(_cmd: BulkCommand) -> int:
        raise InvalidIdError("userBizId 'a/b' is not an id", operation_id="accounts.get")

    monkeypatch.setattr("portal_admin.cli.bulk.run_bulk", refuse)
    assert main([*BULK, "--ids", "x"]) == 2
    err = capsys.readouterr().err
    assert "userBizId 'a/b' is not an id" in err and "Traceback" not in err


def test_ids_and_file_names_that_are_not_utf8_end_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A shell passes bytes that are not UTF-8 as surrogates: refused as --ids (they could not be
    kept in the plan: a UnicodeEncodeError traceback), shown with escapes as a file's name."""
    assert main([*BULK, "--ids", "ACC\udcff"]) == 2
    assert "--ids is not UTF-8 text" in capsys.readouterr().err
    if sys.platform == "win32":
        return  # Windows' file names are Unicode: no name carries bytes that are not UTF-8
    listed = tmp_path / "list-\udcff.csv"
    listed.write_text("id\nACC0000000000000001\n", encoding="utf-8")
    assert main([*BULK, "--file", str(listed)]) == 0
    assert "list-\\udcff.csv" in capsys.readouterr().err
