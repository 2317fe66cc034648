"""The journal of changes: appends, verification and tamper detection, secrets kept out,
one record per change, durability under SIGKILL."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from portal_admin.client import ClientOptions, MemoryTokenStore, PortalClient
from portal_admin.client.errors import NotFoundError
from portal_admin.evidence import journal as jr
from portal_admin.evidence.__main__ import main as evidence_main
from portal_admin.evidence.recorder import attach
from portal_admin.sandbox import SandboxConfig, create_app
from support.accounts import ADMIN_EMAIL, ADMIN_PASSWORD
from support.portal import FAST_RETRY, latest_mail, sign_in
from support.processes import hard_kill


def filled(path: Path, n: int = 5) -> jr.Journal:
    journal = jr.Journal(path)
    for i in range(n):
        journal.append({"operation": "accounts.update", "targets": [f"ACC{i}"], "outcome": "ok"})
    return journal


def lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def test_appends_chain_and_verify(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    filled(path)
    result = jr.verify(path)
    assert result.ok and result.records == 5 and not result.breaks
    records = list(jr.read(path))
    assert [r["seq"] for r in records] == [1, 2, 3, 4, 5]
    assert records[0]["prev"] == jr.GENESIS
    assert all(b["prev"] == a["hash"] for a, b in itertools.pairwise(records))
    assert next(iter(jr.read(path, target="ACC3")))["seq"] == 4
    assert jr.export_csv(jr.read(path), tmp_path / "j.csv") == 5
    assert (tmp_path / "j.csv").read_bytes().startswith(b"\xef\xbb\xbf")
    assert jr.export_json(jr.read(path), tmp_path / "j.json") == 5
    assert evidence_main(["journal", "verify", str(path)]) == 0


@pytest.mark.parametrize("tamper", ["edit", "delete", "reorder"])
def test_tampering_is_found_at_the_exact_record(tmp_path: Path, tamper: str) -> None:
    path = tmp_path / "journal.jsonl"
    filled(path)
    rows = lines(path)
    if tamper == "edit":
        record = json.loads(rows[2])
        record["outcome"] = "failed"
        rows[2] = jr.canonical(record) + b"\n"
        expected = (3, "hash")
    elif tamper == "delete":
        del rows[2]
        expected = (3, "chain")  # the record that followed no longer links
    else:
        rows[1], rows[2] = rows[2], rows[1]
        expected = (2, "chain")
    path.write_bytes(b"".join(rows))
    result = jr.verify(path)
    assert not result.ok
    assert (result.problems[0].line, result.problems[0].reason) == expected
    assert evidence_main(["journal", "verify", str(path)]) == 1


def test_a_torn_tail_is_reported_and_journaling_goes_on_in_a_new_segment(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.jsonl"
    filled(path)
    data = path.read_bytes()
    path.write_bytes(data[:-20])  # a kill in the middle of the last append
    result = jr.verify(path)
    assert [(p.line, p.reason) for p in result.problems] == [(5, "torn")]
    assert result.records == 4
    journal = jr.Journal(path)
    journal.append({"operation": "accounts.status", "outcome": "ok"})
    after = jr.verify(path)
    assert after.ok and after.records == 6
    assert [(b.line, b.reason) for b in after.breaks] == [(5, "torn")]
    segment, change = list(jr.read(path))[-2:]
    assert segment["kind"] == "segment" and segment["after_seq"] == 4
    assert change["segment"] == 1 and change["prev"] == segment["hash"]
    assert path.with_suffix(".torn").read_bytes()  # the torn text is set aside, not lost


def test_a_broken_chain_gets_a_new_segment_that_names_it(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    filled(path, 3)
    rows = lines(path)
    record = json.loads(rows[2])
    record["targets"] = ["SOMEONE-ELSE"]
    rows[2] = jr.canonical(record) + b"\n"
    path.write_bytes(b"".join(rows))
    jr.Journal(path).append({"operation": "accounts.status", "outcome": "ok"})
    result = jr.verify(path)
    assert [(p.line, p.reason) for p in result.problems] == [(3, "hash")]
    assert [b.reason for b in result.breaks] == ["hash"]


SECRETS_PASSWORD = "Another-Secret-Pass-2026!"


@pytest.fixture
async def journaled(tmp_path: Path) -> AsyncIterator[tuple[PortalClient, jr.Journal]]:
    app = create_app(SandboxConfig(db=":memory:", seed_accounts=30, test_clock=True))
    client = PortalClient(
        "http://sandbox.local",
        ClientOptions(access_code="SANDBOX", client_hash="journal-tests", retry=FAST_RETRY),
        transport=httpx.ASGITransport(app=app),
        token_store=MemoryTokenStore(),
    )
    path = tmp_path / "journal.jsonl"
    async with client:
        await sign_in(client)
        journal = jr.Journal(path)
        attach(client, profile="Sandbox", server="http://sandbox.local", journal=journal)
        yield client, journal


async def test_changes_are_journaled_once_each_and_without_secrets(
    journaled: tuple[PortalClient, jr.Journal],
) -> None:
    client, journal = journaled
    path = journal.path
    page = await client.accounts.query(status="ACTIVE", size=5)
    target = next(a for a in page.items if a.account_email != ADMIN_EMAIL)
    await client.accounts.change_status(target.biz_id, "SUSPEND", reason="audit")
    await client.accounts.reset_password(target.biz_id)
    await client.accounts.update(target.biz_id, account_remark="checked")
    codes = await client.security.generate_backup_codes()
    await client.security.set_ip_whitelist(["10.0.0.0/8"])
    smtp = {
        "host": "smtp.example.org",
        "port": 587,
        "security": "STARTTLS",
        "username": "u",
        "password": "Smtp-Pass-77",
        "fromAddress": "office@example.org",
    }
    channel = await client.notifications.create_channel(
        "Mail", "EMAIL", smtp, description="office mail"
    )
    await client.auth.change_password(ADMIN_PASSWORD, SECRETS_PASSWORD)
    with pytest.raises(NotFoundError):  # refused: journaled as failed
        await client.accounts.change_status("ACC-NOT-THERE", "SUSPEND")
    journal.flush()  # the outcomes are written by a worker thread: wait for them here
    everything = list(jr.read(path))
    records = [r for r in everything if r["kind"] == "change"]
    intents = {r["seq"]: r for r in everything if r["kind"] == "intent"}
    # Each change was announced by a durable intent before it left, which its outcome names.
    assert len(intents) == len(records)
    for record in records:
        intent = intents[record["intent_seq"]]
        assert intent["seq"] < record["seq"] and intent["operation"] == record["operation"]
    counted = Counter(r["operation"] for r in records)
    assert counted == {
        "accounts.status": 2,
        "accounts.password_reset": 1,
        "accounts.update": 1,
        "security.backup_codes_generate": 1,
        "security.ip_whitelist_set": 1,
        "notifications.channels_create": 1,
        "auth.password_change": 1,
    }
    suspend = records[0]
    assert suspend["targets"] == [target.biz_id] and suspend["fields"]["action"] == "SUSPEND"
    assert suspend["outcome"] == "ok" and suspend["request_id"] and suspend["server_time"]
    assert records[-1]["outcome"] == "failed" and records[-1]["code"]
    text = path.read_text(encoding="utf-8")
    mail = await latest_mail(client, target.account_email or "")
    secrets = [ADMIN_PASSWORD, SECRETS_PASSWORD, "Smtp-Pass-77", *codes.codes]
    secrets += [str(mail.get("token") or "RESET-TOKEN-ABSENT")]
    for secret in secrets:
        assert secret not in text
    assert channel.biz_id in text  # what was created is named
    assert jr.verify(path).ok


APPENDER = """
import sys
from pathlib import Path
from portal_admin.evidence.journal import Journal
journal = Journal(Path(sys.argv[1]))
print("ready", flush=True)
i = 0
while True:
    i += 1
    journal.append({"operation": "accounts.update", "targets": [f"ACC{i}"], "note": "x" * 300})
"""


@pytest.mark.parametrize("round_", range(3))
def test_a_kill_during_appends_loses_no_complete_record(tmp_path: Path, round_: int) -> None:
    path = tmp_path / "journal.jsonl"
    script = tmp_path / "appender.py"
    script.write_text(APPENDER, encoding="utf-8")
    child = subprocess.Popen(
        [sys.executable, str(script), str(path)], stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None and child.stdout.readline() == "ready\n"
    deadline = time.monotonic() + 60  # some records first, however slow the machine (Wine)
    while time.monotonic() < deadline and (
        not path.exists() or path.read_bytes().count(b"\n") < 12
    ):
        time.sleep(0.02)
    time.sleep(0.13 * round_)
    hard_kill(child)
    child.stdout.close()
    result = jr.verify(path)
    assert result.records > 10
    assert all(p.reason == "torn" for p in result.problems)  # at most a torn tail
    assert len(result.problems) <= 1
    journal = jr.Journal(path)
    journal.append({"operation": "accounts.status", "outcome": "ok"})
    again = jr.verify(path)
    assert again.ok and again.records >= result.records + 1
