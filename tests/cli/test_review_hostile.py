"""``portal-admin-cli review`` on hostile and half-finished campaigns: names from a file never
reach the terminal raw; sign-off with undecided items and closing with Revokes not carried out
are refused unless asked for; a signer this installation does not trust is refused for
remediation until trusted; this installation's key under another name is warned; closing then
reopening works through the engine and the command line."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest

from portal_admin.cli.main import main
from portal_admin.evidence import keys
from portal_admin.reviews import Campaign, decide, reviewer_of, sign, verify
from reviews.support import INVITATIONS, ROLES, account, make_snapshot

from .conftest import rows
from .test_loopback import DictKeyring

REVIEWER = ["--reviewer", "ana@example.test"]


@pytest.fixture(autouse=True)
def os_keyring() -> Iterator[DictKeyring]:
    previous = keyring.get_keyring()
    ring = DictKeyring()
    keyring.set_keyring(ring)
    try:
        yield ring
    finally:
        keyring.set_keyring(previous)


@pytest.fixture
def made(tmp_path: Path) -> Path:
    scope = make_snapshot(
        tmp_path / "scope.sqlite3", [account(n) for n in range(1, 6)], ROLES, INVITATIONS
    )
    out = tmp_path / "q4.review"
    argv = ["review", "create", str(out), "--name", "Q4", "--due", "2026-12-31"]
    assert main([*argv, "--snapshot", str(scope)]) == 0
    return out


def test_names_from_the_file_never_reach_the_terminal_raw(
    made: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["review", "decide", str(made), "--item", "account:ACC000001", "--decision", "keep"]
    assert main([*argv, *REVIEWER]) == 0
    assert main(["review", "sign", str(made), *REVIEWER, "--allow-undecided"]) == 0
    paint = "\x1b[1A\x1b[2K\x1b[32mq4.review: intact\x1b[0m\u202e"
    conn = sqlite3.connect(made)
    conn.execute("UPDATE meta SET value = ? WHERE key = 'name'", (json.dumps(paint),))
    conn.execute("UPDATE signoffs SET reviewer = ?", (paint,))
    conn.execute("UPDATE decisions SET reviewer = ?", (paint,))
    conn.commit()
    conn.close()
    capsys.readouterr()
    for command in ("status", "verify"):
        main(["review", command, str(made)])
        seen = capsys.readouterr()
        for stream in (seen.out, seen.err):
            assert "\x1b" not in stream and "\u202e" not in stream, (command, stream)
        assert "\\x1b[32mq4.review: intact" in seen.out


def test_a_hostile_file_ends_in_its_named_refusal(
    made: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    conn = sqlite3.connect(made)
    conn.execute("CREATE TRIGGER t AFTER INSERT ON decisions BEGIN SELECT 1; END")
    conn.execute("PRAGMA writable_schema=ON")
    conn.execute("UPDATE sqlite_master SET type = 'TRIGGER' WHERE name = 't'")
    conn.commit()
    conn.close()
    for command in (["status", str(made)], ["verify", str(made)], ["sign", str(made), *REVIEWER]):
        assert main(["review", *command]) == 2
        err = capsys.readouterr().err
        assert "(FOREIGN_SQL)" in err and "TRIGGER 't'" in err and "Traceback" not in err


def test_signing_off_undecided_items_needs_allow_undecided(
    made: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["review", "decide", str(made), "--item", "account:ACC000001", "--decision", "keep"]
    assert main([*argv, *REVIEWER]) == 0
    with Campaign.open(made) as campaign:
        total, undecided = campaign.count(), campaign.undecided()
    before = made.read_bytes()
    assert main(["review", "sign", str(made), *REVIEWER]) == 2
    err = capsys.readouterr().err
    assert f"{undecided:,} of {total:,} items have no decision" in err and "UNDECIDED" in err
    with Campaign.open(made) as campaign:
        assert not campaign.is_signed()
    assert main(["review", "sign", str(made), *REVIEWER, "--allow-undecided"]) == 0
    assert f"({undecided:,} undecided: they stay not reviewed)" in capsys.readouterr().err
    assert made.read_bytes() != before or Path(f"{made}-wal").exists()


def test_an_untrusted_signer_is_refused_and_own_key_under_another_name_warned(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], sent: list[str]
) -> None:
    out = tmp_path / "q4.review"
    assert main(["review", "create", "--sandbox", str(out), "--name", "Q4"]) == 0
    items = tmp_path / "items.csv"
    assert main(["review", "status", str(out), "--items", str(items)]) == 0
    target = next(r for r in rows(items) if r["status"] == "ACTIVE" and r["kind"] == "account"
                  and r["label"] != "admin@sandbox.test")  # fmt: skip
    colleague = keys.MemoryStore()  # another installation's key
    with Campaign.open(out) as campaign:
        ana = reviewer_of("ana@example.test", colleague)
        decide(campaign, target["id"], "Revoke", "left", ana)
        sign(campaign, ana.name, keys.signing_key(colleague))
    capsys.readouterr()
    assert main(["review", "verify", str(out)]) == 3
    printed = capsys.readouterr().out
    assert f"key {ana.fingerprint}; NOT TRUSTED by this installation" in printed
    assert "intact, but signed with a key this installation does not trust" in printed
    assert main(["review", "remediate", "--sandbox", str(out), "--dry-run"]) == 1
    err = capsys.readouterr().err
    assert "refused (UNTRUSTED)" in err and ana.fingerprint in err
    assert "accounts.status" not in sent
    fingerprint = ana.fingerprint.replace(" ", "")
    assert main(["evidence", "trust", "add", fingerprint, "--name", "Ana"]) == 0
    assert main(["review", "verify", str(out)]) == 0
    assert "trusted as 'Ana'" in capsys.readouterr().out
    assert main(["review", "remediate", "--sandbox", str(out), "--dry-run"]) == 0
    err = capsys.readouterr().err
    assert "warning" not in err and "dry run: nothing was sent" in err

    # This installation's key under another name: warned, whatever name was typed.
    again = tmp_path / "again.review"
    assert main(["review", "create", "--sandbox", str(again), "--name", "Q4 again"]) == 0
    argv = ["review", "decide", str(again), "--item", target["id"], "--decision", "revoke"]
    assert main([*argv, "--justification", "left", "--reviewer", "someone.else@example"]) == 0
    argv = ["review", "sign", str(again), "--reviewer", "someone.else@example"]
    assert main([*argv, "--allow-undecided"]) == 0
    capsys.readouterr()
    assert main(["review", "remediate", "--sandbox", str(again), "--dry-run"]) == 0
    err = capsys.readouterr().err
    assert "warning: admin@sandbox.test remediates decisions they made or signed off" in err
    assert "with this installation's key" in err


def test_closing_with_revokes_not_carried_out_needs_allow_unremediated_and_reopens(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], sent: list[str]
) -> None:
    out = tmp_path / "q4.review"
    assert main(["review", "create", "--sandbox", str(out), "--name", "Q4"]) == 0
    items = tmp_path / "items.csv"
    assert main(["review", "status", str(out), "--items", str(items)]) == 0
    target = next(r for r in rows(items) if r["status"] == "ACTIVE" and r["kind"] == "account"
                  and r["label"] != "admin@sandbox.test")  # fmt: skip
    argv = ["review", "decide", str(out), "--item", target["id"], "--decision", "revoke"]
    assert main([*argv, "--justification", "left", *REVIEWER]) == 0
    assert main(["review", "sign", str(out), *REVIEWER, "--allow-undecided"]) == 0
    capsys.readouterr()
    before = len(sent)
    assert main(["review", "close", "--sandbox", str(out)]) == 2
    err = capsys.readouterr().err
    assert "1 signed-off Revokes were not carried out" in err and "UNREMEDIATED" in err
    assert len(sent) == before  # nothing asked of the server
    assert not list(tmp_path.glob("q4.review.closing-*"))
    with Campaign.open(out) as campaign:
        assert not campaign.meta.get("closed")
    assert main(["review", "close", "--sandbox", str(out), "--allow-unremediated"]) == 0
    assert "closed with 1 signed-off Revokes not carried out" in capsys.readouterr().err
    with Campaign.open(out) as campaign:  # reopened through the engine
        assert campaign.meta["closed"] is True and campaign.meta["closed_unremediated"] == 1
        assert verify(campaign, own=None).status == "intact"
    assert main(["review", "status", str(out)]) == 0  # and the command line
    assert main(["review", "verify", str(out)]) == 0
    assert main(["review", "pack", str(out), str(tmp_path / "pack.zip")]) == 0
    assert main(["review", "remediate", "--sandbox", str(out), "--dry-run"]) == 1  # closed
