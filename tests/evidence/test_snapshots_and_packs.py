"""Access-review snapshots (complete, read-only, interrupted), diffs of seeded changes, signed
evidence packs and their verification (tampering: changed, added, removed; not a pack)."""

from __future__ import annotations

import asyncio
import csv
import sqlite3
import subprocess
import sys
import zipfile
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from portal_admin.client import (
    ClientOptions,
    MemoryTokenStore,
    PortalClient,
    sandbox_transport,
)
from portal_admin.evidence import keys, pack
from portal_admin.evidence.diff import diff_snapshots
from portal_admin.evidence.journal import Journal, read
from portal_admin.evidence.snapshot import SnapshotError, open_snapshot, take_snapshot
from portal_admin.sandbox import SandboxConfig, create_app
from support.accounts import ADMIN_EMAIL, AUDITOR
from support.portal import FAST_RETRY, sign_in
from support.processes import hard_kill


def make_client(app: object, *, read_only: bool = False) -> PortalClient:
    return PortalClient(
        "http://sandbox.local",
        ClientOptions(
            access_code="SANDBOX",
            client_hash="snapshot-tests",
            retry=FAST_RETRY,
            read_only=read_only,
        ),
        transport=sandbox_transport(app),  # yields to the loop as a network does
        token_store=MemoryTokenStore(),
    )


@pytest.fixture
async def admin() -> AsyncIterator[PortalClient]:
    app = create_app(SandboxConfig(db=":memory:", seed_accounts=250, test_clock=True))
    async with make_client(app) as client:
        await sign_in(client)
        yield client


async def test_a_snapshot_holds_everything_the_api_reports(
    admin: PortalClient, tmp_path: Path
) -> None:
    stages: list[str] = []
    snap = await take_snapshot(
        admin,
        tmp_path / "s.sqlite3",
        profile="Sandbox",
        account=ADMIN_EMAIL,
        progress=lambda stage, done, total: stages.append(stage),
    )
    total = (await admin.accounts.query(size=1)).total_items
    counts = snap.counts()
    assert counts["accounts"] == total
    assert counts["roles"] == len(await admin.roles.list())
    assert counts["invitations"] == len(await admin.invitations.list())
    assert counts["mfa"] == len(await admin.security.mfa_settings())
    assert "accounts" in stages and "notifications" in stages
    with snap.connect() as conn:
        ids = {r[0] for r in conn.execute("SELECT id FROM accounts")}
        assert len(ids) == total
        roles = conn.execute("SELECT member_count, permissions FROM roles").fetchall()
        assert all(r[0] is not None for r in roles) and any(r[1] != "[]" for r in roles)
    opened = open_snapshot(snap.path)
    assert opened.meta["complete"] is True and opened.meta["account"] == ADMIN_EMAIL


async def test_the_auditor_takes_a_snapshot_read_only(tmp_path: Path) -> None:
    app = create_app(SandboxConfig(db=":memory:", seed_accounts=40, test_clock=True))
    async with make_client(app, read_only=True) as auditor:
        await sign_in(auditor, *AUDITOR)
        snap = await take_snapshot(auditor, tmp_path / "audit.sqlite3")
        assert snap.counts()["accounts"] > 40


async def test_a_cancelled_snapshot_leaves_nothing_that_opens(
    admin: PortalClient, tmp_path: Path
) -> None:
    target = tmp_path / "cut.sqlite3"
    task: asyncio.Future[object]

    def cut(stage: str, done: int, total: int) -> None:
        if stage == "accounts" and done >= 100:
            task.cancel()  # mid-way through the accounts

    task = asyncio.ensure_future(take_snapshot(admin, target, progress=cut))
    with pytest.raises(asyncio.CancelledError):
        await task
    assert not target.exists()
    assert not list(tmp_path.glob("*.partial"))


def test_foreign_or_incomplete_files_are_refused(tmp_path: Path) -> None:
    text = tmp_path / "notes.sqlite3"
    text.write_text("hello", encoding="utf-8")
    other = tmp_path / "other.sqlite3"
    sqlite3.connect(other).execute("CREATE TABLE meta (key TEXT, value TEXT)").connection.close()
    codes = []
    for path in (tmp_path / "missing.sqlite3", text, other):
        with pytest.raises(SnapshotError) as caught:
            open_snapshot(path)
        codes.append(caught.value.code)
    assert codes == ["NOT_FOUND", "NOT_A_SNAPSHOT", "NOT_A_SNAPSHOT"]


async def test_a_diff_finds_each_seeded_change(admin: PortalClient, tmp_path: Path) -> None:
    before = await take_snapshot(admin, tmp_path / "before.sqlite3")
    page = await admin.accounts.query(status="ACTIVE", size=10)
    a, b = [x for x in page.items if x.account_email != ADMIN_EMAIL][:2]
    await admin.accounts.change_status(a.biz_id, "SUSPEND")
    language = "vi" if b.default_language != "vi" else "ja"
    await admin.accounts.update(b.biz_id, default_language=language, account_remark="moved")
    await admin.security.set_ip_whitelist(["192.0.2.0/24"])
    invited = await admin.invitations.create("diff.new@example.org", message="hi")
    after = await take_snapshot(admin, tmp_path / "after.sqlite3")
    diff = diff_snapshots(before.path, after.path)
    changed = {(c.kind, c.id, c.field): (c.before, c.after) for c in diff.changes}
    assert changed[("account", a.biz_id, "status")] == ("ACTIVE", "SUSPENDED")
    assert changed[("account", b.biz_id, "language")][1] == language
    assert changed[("account", b.biz_id, "remark")][1] == "moved"
    assert ("whitelist", "192.0.2.0/24", "") in changed
    assert ("invitation", invited.biz_id, "") in changed
    counts = diff.counts()
    assert counts[("account", "changed")] == 3
    assert counts[("invitation", "added")] == 1
    assert [c.id for c in diff.filtered(kind="account", text="moved")] == [b.biz_id]
    assert diff.write_csv(tmp_path / "diff.csv") == len(diff.changes)
    with (tmp_path / "diff.csv").open(encoding="utf-8-sig", newline="") as fh:
        lines = list(csv.DictReader(fh))
    status = next(r for r in lines if r["id"] == a.biz_id and r["field"] == "status")
    assert (status["before"], status["after"]) == ("ACTIVE", "SUSPENDED")  # the codes
    assert status["after_label"] not in ("", "SUSPENDED")  # and beside them, the label


@pytest.fixture
def key() -> keys.Ed25519PrivateKey:
    return keys.signing_key(keys.MemoryStore())


async def test_packs_verify_and_every_tampering_is_named(
    admin: PortalClient, tmp_path: Path, key: keys.Ed25519PrivateKey
) -> None:
    snap = await take_snapshot(admin, tmp_path / "s.sqlite3")
    path = tmp_path / "pack.zip"
    manifest = pack.write_pack(
        path, "snapshot", pack.snapshot_tables(snap), pack.snapshot_summary(snap), key
    )
    assert set(manifest["files"]) >= {"accounts.csv", "roles.csv", "report.html"}
    mine = manifest["fingerprint"]
    assert pack.verify_pack(path, own=mine).status == "intact"
    assert pack.verify_pack(path, mine, own=None).exit_status == 0
    assert pack.verify_pack(path, "00" * 32, own=mine).exit_status == 1
    report = zipfile.ZipFile(path).read("report.html").decode()
    assert "<script" not in report and "http" not in report.split("<body>")[0]

    def rewrite(name: str, change: str) -> Path:
        out = tmp_path / f"{change}-{name}.zip"
        with zipfile.ZipFile(path) as src, zipfile.ZipFile(out, "w") as dst:
            for info in src.infolist():
                data = src.read(info.filename)
                if info.filename == name and change == "flip":
                    data = bytes([data[0] ^ 1]) + data[1:]
                if info.filename == name and change == "remove":
                    continue
                dst.writestr(info.filename, data)
            if change == "add":
                dst.writestr("extra.csv", b"x")
        return out

    for name in ("accounts.csv", "report.html", "manifest.json", "public_key.pem"):
        flipped = pack.verify_pack(rewrite(name, "flip"), own=mine)
        assert flipped.exit_status in (1, 2) and flipped.problems, name
    assert pack.verify_pack(rewrite("accounts.csv", "flip"), own=mine).problems == [
        "changed: accounts.csv"
    ]
    assert pack.verify_pack(rewrite("roles.csv", "remove"), own=mine).problems == [
        "removed: roles.csv"
    ]
    assert pack.verify_pack(rewrite("roles.csv", "add"), own=mine).problems == ["added: extra.csv"]
    not_zip = tmp_path / "notes.zip"
    not_zip.write_text("not a zip", encoding="utf-8")
    assert pack.verify_pack(not_zip).exit_status == 2
    random_zip = tmp_path / "random.zip"
    with zipfile.ZipFile(random_zip, "w") as zf:
        zf.writestr("a.txt", "a")
    assert pack.verify_pack(random_zip).exit_status == 2
    # the same from another process, as anyone would check it (no Qt needed)
    for target, status in ((path, 0), (rewrite("roles.csv", "remove"), 1), (not_zip, 2)):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "portal_admin.evidence",
                "verify",
                str(target),
                "--fingerprint",
                mine,
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == status, done.stdout + done.stderr


async def test_diff_and_journal_packs(
    admin: PortalClient, tmp_path: Path, key: keys.Ed25519PrivateKey
) -> None:
    one = await take_snapshot(admin, tmp_path / "one.sqlite3")
    page = await admin.accounts.query(status="ACTIVE", size=5)
    target = next(x for x in page.items if x.account_email != ADMIN_EMAIL)
    await admin.accounts.change_status(target.biz_id, "SUSPEND")
    two = await take_snapshot(admin, tmp_path / "two.sqlite3")
    diff = diff_snapshots(one.path, two.path)
    out = tmp_path / "diff.zip"
    pack.write_pack(out, "diff", pack.diff_tables(diff), pack.diff_summary(diff), key)
    mine = keys.fingerprint(key.public_key())
    assert pack.verify_pack(out, own=mine).status == "intact"
    journal_path = tmp_path / "journal.jsonl"
    journal = Journal(journal_path)
    journal.append({"operation": "accounts.status", "targets": [target.biz_id], "outcome": "ok"})
    journal.flush()
    out = tmp_path / "journal.zip"
    pack.write_pack(out, "journal", pack.journal_tables(read(journal_path)), {"records": 1}, key)
    assert pack.verify_pack(out, own=mine).status == "intact"


def test_a_keyring_that_forgets_signs_nothing() -> None:
    class Forgetful(keys.MemoryStore):
        def set(self, value: str) -> None:
            del value

    with pytest.raises(keys.KeyUnavailable):
        keys.signing_key(Forgetful())
    store = keys.MemoryStore()
    first = keys.signing_key(store)
    again = keys.signing_key(store)
    assert keys.fingerprint(first.public_key()) == keys.fingerprint(again.public_key())
    assert len(keys.fingerprint(first.public_key()).split()) == 16


SNAPSHOTTER = """
import asyncio, sys
from pathlib import Path
sys.path.insert(0, sys.argv[2])
from portal_admin.client import ClientOptions, MemoryTokenStore, PortalClient, sandbox_transport
from portal_admin.evidence.snapshot import take_snapshot
from portal_admin.sandbox import SandboxConfig, create_app
from support.portal import sign_in

async def main():
    app = create_app(SandboxConfig(db=":memory:", seed_accounts=3000, test_clock=True))
    options = ClientOptions(access_code="SANDBOX", client_hash="kill-test")
    transport = sandbox_transport(app)
    async with PortalClient("http://sandbox.local", options, transport=transport,
                            token_store=MemoryTokenStore()) as client:
        await sign_in(client)
        def told(stage, done, total):
            if stage == "accounts" and done >= 500:
                print("midway", flush=True)
        await take_snapshot(client, Path(sys.argv[1]), progress=told)

asyncio.run(main())
"""


def test_a_killed_snapshot_leaves_nothing_that_opens(tmp_path: Path) -> None:

    script = tmp_path / "snap.py"
    script.write_text(SNAPSHOTTER, encoding="utf-8")
    target = tmp_path / "killed.sqlite3"
    tests_dir = str(Path(__file__).resolve().parents[1])
    child = subprocess.Popen(
        [sys.executable, str(script), str(target), tests_dir], stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None and child.stdout.readline() == "midway\n"
    hard_kill(child)
    child.stdout.close()
    assert not target.exists()
    for leftover in tmp_path.glob("*.partial"):
        with pytest.raises(SnapshotError) as caught:
            open_snapshot(leftover)
        assert caught.value.code == "NOT_A_SNAPSHOT"
