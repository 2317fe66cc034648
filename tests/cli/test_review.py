"""``portal-admin-cli review``: offline commands on a campaign file (no request sent), bad
input named with nothing recorded, verification's exit statuses, split and merge, and
remediation's separation-of-duties warning on the built-in sandbox. The installation key
lives in a keyring of the test's own."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest

from portal_admin.cli.main import main
from portal_admin.reviews import Campaign
from reviews.support import INVITATIONS, ROLES, account, make_snapshot

from .conftest import rows
from .test_loopback import DictKeyring

REVIEWER = ["--reviewer", "ana@example.test"]
FIRST = "account:ACC000001,Keep,"


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
def made(tmp_path: Path, sent: list[str]) -> Path:
    """A campaign made offline from a snapshot file."""
    scope = make_snapshot(
        tmp_path / "scope.sqlite3",
        [account(n, portal="SYSTEM" if n == 3 else "TENANT") for n in range(1, 6)],
        ROLES,
        INVITATIONS,
    )
    out = tmp_path / "q4.review"
    argv = ["review", "create", str(out), "--name", "Q4", "--due", "2026-12-31"]
    assert main([*argv, "--snapshot", str(scope)]) == 0
    assert sent == []  # no server
    return out


def csv_file(path: Path, *lines: str) -> str:
    path.write_text("\n".join(["id,decision,justification", *lines]) + "\n", encoding="utf-8")
    return str(path)


def test_offline_status_decide_sign_verify(
    tmp_path: Path, made: Path, sent: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    items = tmp_path / "items.csv"
    assert main(["review", "status", str(made), "--items", str(items)]) == 0
    listed = rows(items)
    assert [r["id"] for r in listed][:2] == ["account:ACC000001", "account:ACC000002"]
    assert listed[2]["flags"] == "ADMIN" and listed[0]["decision"] == ""
    decisions = csv_file(
        tmp_path / "d.csv", "account:ACC000001,Revoke,left", "account:ACC000003,Keep,admin ok"
    )
    assert main(["review", "decide", str(made), decisions, *REVIEWER]) == 0
    assert "2 decisions recorded by ana@example.test (key " in capsys.readouterr().err
    assert main(["review", "verify", str(made)]) == 3  # nothing signed yet
    assert main(["review", "sign", str(made), *REVIEWER, "--allow-undecided"]) == 0
    err = capsys.readouterr().err
    fingerprint = err.split("key fingerprint: ")[1].split("  ")[0]
    assert main(["review", "verify", str(made), "--fingerprint", fingerprint]) == 0
    assert f"key {fingerprint}" in capsys.readouterr().out
    more = csv_file(tmp_path / "e.csv", "account:ACC000002,Keep,")
    assert main(["review", "decide", str(made), more, *REVIEWER]) == 1  # frozen
    assert "signed off, its decision is frozen" in capsys.readouterr().err
    conn = sqlite3.connect(made)
    conn.execute("UPDATE decisions SET decision = 'KEEP' WHERE item = 'account:ACC000001'")
    conn.commit()
    conn.close()
    assert main(["review", "verify", str(made)]) == 1
    out = capsys.readouterr().out
    assert "changed: account:ACC000001" in out and "CHANGED since sign-off" in out
    assert sent == []  # every one of these offline


@pytest.mark.parametrize(
    ("lines", "words"),
    [
        ([FIRST, "account:NOPE,Keep,"], "line 3 (account:NOPE): no such item"),
        ([FIRST, "account:ACC000002,Sack,x"], "line 3 (account:ACC000002): not a decision"),
        ([FIRST, "account:ACC000002,Revoke,"],
         "line 3 (account:ACC000002): a justification is required (Revoke)"),
        ([FIRST, FIRST], "line 3 (account:ACC000001): listed before, on line 2"),
    ],
)  # fmt: skip
def test_a_bad_decisions_csv_is_refused_naming_the_line(
    tmp_path: Path, made: Path, lines: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    decisions = csv_file(tmp_path / "d.csv", *lines)
    assert main(["review", "decide", str(made), decisions, *REVIEWER]) == 2
    err = capsys.readouterr().err
    assert words in err and "nothing recorded" in err
    with Campaign.open(made) as campaign:
        assert campaign.totals()["decided"] == 0


def test_files_that_are_not_campaigns(
    tmp_path: Path, made: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    newer = tmp_path / "newer.review"
    newer.write_bytes(made.read_bytes())
    conn = sqlite3.connect(newer)
    conn.execute("UPDATE meta SET value = '7' WHERE key = 'schema'")
    conn.commit()
    conn.close()
    for path, words in (
        (text, "notes.txt is not a campaign file"),
        (tmp_path / "scope.sqlite3", "scope.sqlite3 is not a campaign file"),
        (newer, "newer.review was made by a newer program"),
        (tmp_path / "none.review", "does not exist"),
    ):
        assert main(["review", "status", str(path)]) == 2
        assert words in capsys.readouterr().err
    assert main(["review", "verify", str(text)]) == 2
    assert main(["review", "decide", str(made), "--item", "account:ACC000001"]) == 2  # no word
    assert main(["review", "decide", str(made), "--item", "x", "--decision", "keep"]) == 2
    assert "--reviewer" in capsys.readouterr().err


def test_split_and_merge(tmp_path: Path, made: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parts = tmp_path / "parts"
    argv = ["review", "split", str(made), "--by", "portal", "--out-dir", str(parts)]
    assert main([*argv, "--reviewer", "TENANT=ana@example.test"]) == 0
    tenant = parts / "q4.portal-TENANT.review"
    assert tenant.is_file() and "portal=TENANT" in capsys.readouterr().out
    decisions = csv_file(tmp_path / "d.csv", "account:ACC000001,Revoke,left")
    assert main(["review", "decide", str(tenant), decisions, *REVIEWER]) == 0
    assert main(["review", "sign", str(tenant), *REVIEWER, "--allow-undecided"]) == 0
    other = tmp_path / "other.review"
    argv = ["review", "create", str(other), "--name", "Other", "--due", "2026-12-31"]
    assert main([*argv, "--snapshot", str(tmp_path / "scope.sqlite3")]) == 0
    capsys.readouterr()
    assert main(["review", "merge", str(made), str(tenant), str(other)]) == 1
    err = capsys.readouterr().err
    assert "merged 1 decisions and 1 sign-offs (portal=TENANT)" in err
    assert "other.review: refused (OTHER_CAMPAIGN)" in err
    assert main(["review", "verify", str(made)]) == 0


def test_remediation_warns_when_the_reviewer_remediates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], sent: list[str]
) -> None:
    out = tmp_path / "q4.review"
    assert main(["review", "create", "--sandbox", str(out), "--name", "Q4"]) == 0
    items = tmp_path / "items.csv"
    assert main(["review", "status", str(out), "--items", str(items), "--undecided"]) == 0
    target = next(r for r in rows(items) if r["status"] == "ACTIVE" and r["kind"] == "account"
                  and r["label"] != "admin@sandbox.test")  # fmt: skip
    admin = ["--reviewer", "admin@sandbox.test"]
    argv = ["review", "decide", str(out), "--item", target["id"], "--decision", "revoke"]
    assert main([*argv, "--justification", "left", *admin]) == 0
    assert main(["review", "sign", str(out), *admin, "--allow-undecided"]) == 0
    fingerprint = capsys.readouterr().err.split("key fingerprint: ")[1].split("  ")[0]
    assert main(["review", "remediate", "--sandbox", str(out), "--dry-run"]) == 0
    err = capsys.readouterr().err
    assert "signed off by admin@sandbox.test (the whole campaign) at " in err  # to compare
    assert f"key {fingerprint}; this installation's key" in err
    assert "warning: admin@sandbox.test remediates decisions they made or signed off" in err
    assert "1 to change" in err and "dry run: nothing was sent" in err
    assert "accounts.status" not in sent
    dry_run_job = campaign_jobs(out)
    gets = sent.count("accounts.get")
    assert main(["review", "remediate", "--sandbox", str(out)]) == 0
    err = capsys.readouterr().err
    assert "(planned): 1 to change" in err and "finished: 1 done" in err
    assert sent.count("accounts.get") == gets + 1  # the state read again before sending
    assert sent.count("accounts.status") == 1
    assert not dry_run_job.exists()  # the dry run's plan replaced, not left behind
    assert main(["review", "remediate", "--sandbox", str(out)]) == 0
    assert "found again" in capsys.readouterr().err  # a job that ran is never planned twice
    assert sent.count("accounts.status") == 1
    with Campaign.open(out) as campaign:
        assert campaign.meta["remediation"]["same_person"] is True
        assert campaign.meta["remediation"]["reviewers"] == ["admin@sandbox.test"]


def campaign_jobs(path: Path) -> Path:
    """The first remediation job file the campaign records (by id, in the jobs folder)."""
    from portal_admin.reviews import remediation

    with Campaign.open(path) as campaign:
        found = remediation.job_path(campaign.meta["remediation"]["jobs"][0]["id"])
    assert found is not None
    return found


def test_hostile_files_end_in_named_errors(
    tmp_path: Path, made: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hostile = tmp_path / "h.csv"
    hostile.write_text("id,decision,justification\n\x1b[2Jaccount:X,Keep,\n", encoding="utf-8")
    assert main(["review", "decide", str(made), str(hostile), *REVIEWER]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\\x1b[2Jaccount:X" in err  # escaped, not run by a terminal

    gutted = tmp_path / "gutted.review"
    gutted.write_bytes(made.read_bytes())
    conn = sqlite3.connect(gutted)
    conn.execute("DROP TABLE decisions")
    conn.commit()
    conn.close()
    assert main(["review", "status", str(gutted)]) == 2
    assert "gutted.review is damaged: no decisions table" in capsys.readouterr().err

    damaged = tmp_path / "damaged.review"
    data = bytearray(made.read_bytes())
    page = 4096
    for start in range(2 * page, len(data), page):  # every page after the first two
        data[start : start + 64] = b"\xa5" * 64
    damaged.write_bytes(bytes(data))
    seen: list[str] = []
    for command in (["status", str(damaged)], ["verify", str(damaged)],
                    ["merge", str(made), str(damaged)]):  # fmt: skip
        code = main(["review", *command])
        err = capsys.readouterr().err
        assert code in (1, 2), command
        assert "Traceback" not in err
        assert "damaged.review" in err or "cannot be used" in err, err
        seen.append(err)
    assert len(seen) == 3


@pytest.mark.parametrize(
    "command",
    [
        "create",
        "status",
        "split",
        "merge",
        "decide",
        "sign",
        "verify",
        "remediate",
        "close",
        "pack",
    ],
)
def test_every_command_has_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", command, "--help"]) == 0
    assert f"portal-admin-cli review {command}" in capsys.readouterr().out


def test_without_a_keyring_the_key_file_decides_and_signs(
    tmp_path: Path, made: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No keyring (a kiosk image, a server): the installation key lives in its owner-only
    file, and deciding, signing and packing work as with a keyring."""
    from keyring.backends import fail

    from portal_admin.evidence import keys

    keyring.set_keyring(fail.Keyring())  # the autouse fixture puts the previous one back
    decisions = csv_file(tmp_path / "d.csv", "account:ACC000001,Keep,")
    assert main(["review", "decide", str(made), decisions, *REVIEWER]) == 0
    assert main(["review", "sign", str(made), *REVIEWER, "--allow-undecided"]) == 0
    assert main(["review", "pack", str(made), str(tmp_path / "p.zip")]) == 0
    assert keys.key_file_path().exists()
    mine = keys.fingerprint(keys.signing_key().public_key())
    assert capsys.readouterr().err.count(mine) == 3  # decide, sign, pack: one key
    with Campaign.open(made) as campaign:
        assert campaign.totals()["decided"] == 1 and campaign.is_signed()


def test_a_locked_key_file_decides_and_signs_nothing(
    tmp_path: Path, made: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from keyring.backends import fail

    from portal_admin.evidence import keys

    keyring.set_keyring(fail.Keyring())
    monkeypatch.setenv(keys.PASSPHRASE_ENV, "kept apart")
    keys.signing_key()  # made, protected by the passphrase
    monkeypatch.delenv(keys.PASSPHRASE_ENV)
    decisions = csv_file(tmp_path / "d.csv", "account:ACC000001,Keep,")
    assert main(["review", "decide", str(made), decisions, *REVIEWER]) == 2
    assert main(["review", "sign", str(made), *REVIEWER]) == 2
    err = capsys.readouterr().err
    assert err.count("this installation's key is needed") == 2
    assert err.count(keys.PASSPHRASE_ENV) == 2
    assert main(["review", "pack", str(made), str(tmp_path / "p.zip")]) == 2
    assert "--ephemeral-key" in capsys.readouterr().err
    with Campaign.open(made) as campaign:
        assert campaign.totals()["decided"] == 0 and not campaign.is_signed()
