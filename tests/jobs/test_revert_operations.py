"""Every reversible operation, changed with its value before recorded (``client.before``, as
the panels do), then reverted from its journal records; every mutating operation is either
reversible or says why not."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from portal_admin import jobs
from portal_admin.client import before
from portal_admin.evidence import journal as journal_file
from portal_admin.jobs import RevertError
from portal_admin.jobs.reversible import NOT_REVERSIBLE, REVERSIBLE
from portal_admin.jobs.revert import RevertSkip
from portal_admin.protocol.operations import OPERATIONS

from .conftest import Portal
from .test_revert import journaled

Make = Callable[..., Awaitable[Portal]]


def test_every_mutating_operation_is_classified_once() -> None:
    mutating = {op.id for op in OPERATIONS.values() if op.mutating}
    assert set(REVERSIBLE) | set(NOT_REVERSIBLE) == mutating
    assert not set(REVERSIBLE) & set(NOT_REVERSIBLE)
    assert all(why and instead for why, instead in NOT_REVERSIBLE.values())


async def state(portal: Portal, account: str, channel: str, kind: str) -> dict[str, Any]:
    """Everything the changes below touch."""
    client = portal.client
    found = await client.accounts.get(account)
    listing = await client.security.ip_whitelist()
    ch = (await client.notifications.query_channels(biz_id=channel)).items[0]
    ty = (await client.notifications.query_channel_types(biz_id=kind)).items[0]
    return {
        "status": found.account_status.code if found.account_status else "",
        "fields": [
            found.account_name, found.account_phone, found.account_remark or "",
            found.default_language, found.default_timezone, found.default_country,
        ],
        "ips": sorted(e.ip for e in listing.entries),
        "enabled": listing.enabled,
        "channel": (ch.channel_status.code if ch.channel_status else "", ch.channel_name,
                    ch.description or ""),
        "type": (ty.type_status.code if ty.type_status else "", ty.type_name, ty.display_order,
                 ty.type_description, ty.icon_url),
    }  # fmt: skip


async def test_each_reversible_operation_is_reverted(make_portal: Make, tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    portal, journal = await journaled(make_portal, path, seed_accounts=20)
    client = portal.client
    context = await portal.context()
    account = next(
        a
        for a in (await client.accounts.query(status="ACTIVE", size=20)).items
        if a.biz_id != context.self_id
    )
    channel = next(c for c in (await client.notifications.query_channels()).items if c.active)
    kind = next(t for t in (await client.notifications.query_channel_types()).items if t.enabled)
    first = await state(portal, account.biz_id, channel.biz_id, kind.biz_id)
    listing = await client.security.ip_whitelist()

    changes = {
        "account_name": "Renamed",
        "account_phone": "+1-555-0100",
        "account_remark": "edited",
        "default_language": "ja",
        "default_timezone": "Asia/Tokyo",
        "default_country": "JP",
    }
    await before.described(
        before.account_update(account, changes), client.accounts.update(account.biz_id, **changes)
    )
    await before.described(
        before.account_status(account, "SUSPEND"),
        client.accounts.change_status(account.biz_id, "SUSPEND"),
    )
    await before.described(
        before.whitelist_ips(listing, ["192.0.2.7"]),
        client.security.set_ip_whitelist(["192.0.2.7"]),
    )
    await before.described(
        before.whitelist_enabled(listing.enabled, True), client.security.enable_ip_whitelist()
    )
    await before.described(
        before.channel_update(channel, {"channel_name": "Renamed channel", "description": "new"}),
        client.notifications.update_channel(
            channel.biz_id, channel_name="Renamed channel", description="new"
        ),
    )
    await before.described(
        before.channel_status(channel, False),
        client.notifications.deactivate_channel(channel.biz_id),
    )
    await before.described(
        before.type_update(
            kind,
            {
                "type_name": "Renamed type",
                "display_order": 9,
                "type_description": "d",
                "icon_url": "https://static.sandbox.test/x.svg",
            },
        ),
        client.notifications.update_channel_type(
            kind.biz_id,
            type_name="Renamed type",
            display_order=9,
            type_description="d",
            icon_url="https://static.sandbox.test/x.svg",
        ),
    )
    await before.described(
        before.type_status(kind, False), client.notifications.disable_channel_type(kind.biz_id)
    )
    journal.flush()
    changed = await state(portal, account.biz_id, channel.biz_id, kind.biz_id)
    assert all(changed[k] != first[k] for k in first)

    records = [r for r in journal_file.read(path) if r["kind"] == "change"]
    operations = {r["operation"] for r in records}
    assert operations == set(REVERSIBLE) - {
        "security.ip_whitelist_disable", "notifications.channels_activate",
        "notifications.channel_types_enable",
    }  # fmt: skip
    assert all(r["before"] for r in records), [r for r in records if not r["before"]]
    revert = await jobs.plan_records_revert(
        client, [r["seq"] for r in records], context, journal_path=path, folder=tmp_path
    )
    assert revert.counts()["skipped"] == 0, list(revert.items())
    progress = await jobs.Runner(client, revert).run()
    assert progress.counts["done"] == revert.counts()["done"] > 10
    assert await state(portal, account.biz_id, channel.biz_id, kind.biz_id) == first

    # Its records revert too: the reverting ones name what they revert; a revert of the
    # revert changes everything again.
    journal.flush()
    reverting = [r for r in journal_file.read(path) if r.get("after", {}).get("job") == revert.id]
    assert {r["operation"] for r in reverting} >= {
        "security.ip_whitelist_disable", "notifications.channels_activate",
        "notifications.channel_types_enable",
    }  # fmt: skip
    again = await jobs.plan_job_revert(
        client, revert.id, context, journal_path=path, folder=tmp_path
    )
    await jobs.Runner(client, again).run()
    assert await state(portal, account.biz_id, channel.biz_id, kind.biz_id) == changed


async def test_what_cannot_be_reverted_says_why(make_portal: Make, tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    portal, journal = await journaled(make_portal, path, seed_accounts=20)
    client = portal.client
    context = await portal.context()
    target = next(
        a
        for a in (await client.accounts.query(status="ACTIVE", size=20)).items
        if a.biz_id != context.self_id
    )
    await client.accounts.reset_password(target.biz_id)
    invitation = await client.invitations.create("new.person@example.org")
    await client.accounts.update(target.biz_id, account_remark="no before recorded")
    await client.accounts.change_status(target.biz_id, "DEACTIVATE")  # no before either
    journal.flush()
    records = [r for r in journal_file.read(path) if r["kind"] == "change"]
    revert = await jobs.plan_records_revert(
        client, [r["seq"] for r in records], context, journal_path=path, folder=tmp_path
    )
    lines = list(revert.items())
    assert revert.counts()["planned"] == 0
    by_operation = {i.record["operation"]: i for i in lines}
    assert by_operation["accounts.password_reset"].skip == RevertSkip.NOT_REVERSIBLE
    assert by_operation["invitations.create"].target_id == invitation.invitee_email
    assert "cancel it" in by_operation["invitations.create"].record["instead"]
    assert by_operation["accounts.update"].skip == RevertSkip.NO_BEFORE
    assert by_operation["accounts.status"].skip == RevertSkip.NO_BEFORE


async def test_a_status_that_cannot_go_back_is_not_allowed(
    make_portal: Make, tmp_path: Path
) -> None:
    path = tmp_path / "journal.jsonl"
    portal, journal = await journaled(make_portal, path, seed_accounts=20)
    client = portal.client
    context = await portal.context()
    suspended = next(
        a
        for a in (await client.accounts.query(status="SUSPENDED", size=20)).items
        if a.biz_id != context.self_id
    )
    await before.described(
        before.account_status(suspended, "DEACTIVATE"),
        client.accounts.change_status(suspended.biz_id, "DEACTIVATE"),
    )
    journal.flush()
    seq = [r["seq"] for r in journal_file.read(path) if r["kind"] == "change"]
    revert = await jobs.plan_records_revert(
        client, seq, context, journal_path=path, folder=tmp_path
    )
    (line,) = list(revert.items())
    assert line.skip == jobs.Skip.NOT_ALLOWED
    assert "DEACTIVATED cannot become SUSPENDED" in line.record["why"]


async def test_bad_input_is_refused_with_nothing_sent(make_portal: Make, tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    portal, journal = await journaled(make_portal, path, seed_accounts=20)
    client = portal.client
    context = await portal.context()
    account = next(
        a
        for a in (await client.accounts.query(status="ACTIVE", size=20)).items
        if a.biz_id != context.self_id
    )
    await before.described(
        before.account_status(account, "SUSPEND"),
        client.accounts.change_status(account.biz_id, "SUSPEND"),
    )
    journal.flush()
    seq = next(r["seq"] for r in journal_file.read(path) if r["kind"] == "change")
    sent = len(portal.finished)

    async def refused(code: str, call: Awaitable[jobs.JobFile]) -> str:
        with pytest.raises(RevertError) as caught:
            await call
        assert caught.value.code == code
        return str(caught.value)

    text = await refused(
        "NO_SUCH_RECORD",
        jobs.plan_records_revert(client, [seq, 999], context, journal_path=path, folder=tmp_path),
    )
    assert "999" in text
    await refused(
        "NO_SUCH_JOB",
        jobs.plan_job_revert(client, "no-such-job", context, journal_path=path, folder=tmp_path),
    )
    other = jobs.JobContext(
        "Other", "https://portal.example.org", "x@example.org", None, "production"
    )
    text = await refused(
        "OTHER_SERVER",
        jobs.plan_records_revert(client, [seq], other, journal_path=path, folder=tmp_path),
    )
    assert "sandbox://built-in" in text
    # An edited record: the journal does not verify, and the break is named.
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[0] = lines[0].replace('"SUSPEND"', '"ACTIVATE"', 1)
    path.write_text("".join(lines), encoding="utf-8")
    text = await refused(
        "JOURNAL_BROKEN",
        jobs.plan_records_revert(client, [seq], context, journal_path=path, folder=tmp_path),
    )
    assert "line 1" in text
    assert len(portal.finished) == sent  # nothing read, nothing sent
    assert not list(tmp_path.glob("*.job.sqlite3"))


async def test_no_revert_across_a_recorded_break(make_portal: Make, tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    portal, journal = await journaled(make_portal, path, seed_accounts=20)
    client = portal.client
    context = await portal.context()
    first, second = [
        a
        for a in (await client.accounts.query(status="ACTIVE", size=20)).items
        if a.biz_id != context.self_id
    ][:2]
    await before.described(
        before.account_status(first, "SUSPEND"),
        client.accounts.change_status(first.biz_id, "SUSPEND"),
    )
    journal.flush()
    with path.open("ab") as fh:  # a kill cut the next line short
        fh.write(b'{"kind":"change","seq":')
    await before.described(
        before.account_status(second, "SUSPEND"),
        client.accounts.change_status(second.biz_id, "SUSPEND"),
    )
    journal.flush()
    records = list(journal_file.read(path))
    assert any(r["kind"] == "segment" for r in records)
    early, late = [r["seq"] for r in records if r["kind"] == "change"]
    with pytest.raises(RevertError) as caught:
        await jobs.plan_records_revert(client, [early], context, journal_path=path, folder=tmp_path)
    assert caught.value.code == "ACROSS_BREAK" and "torn" in str(caught.value)
    revert = await jobs.plan_records_revert(
        client, [late], context, journal_path=path, folder=tmp_path
    )
    assert revert.counts()["planned"] == 1


async def test_a_change_sent_whose_outcome_was_not_recorded_is_planned_from_the_state(
    make_portal: Make, tmp_path: Path
) -> None:
    path = tmp_path / "journal.jsonl"
    portal, journal = await journaled(make_portal, path, seed_accounts=20)
    client = portal.client
    context = await portal.context()
    applied, lost = [
        a
        for a in (await client.accounts.query(status="ACTIVE", size=20)).items
        if a.biz_id != context.self_id
    ][:2]
    # Two intents whose process died before their outcome: one was applied, one was not.
    portal.app.state.sandbox.db.execute(
        "UPDATE accounts SET status = 'SUSPENDED' WHERE biz_id = ?", (applied.biz_id,)
    )
    for account in (applied, lost):
        journal.append(
            {
                "kind": "intent",
                "profile": "Sandbox",
                "server": "sandbox://built-in",
                "account": context.account,
                "operation": "accounts.status",
                "targets": [account.biz_id],
                "fields": {"action": "SUSPEND"},
                "before": {"status": "ACTIVE"},
                "after": {"status": "SUSPENDED"},
            }
        )
    journal.flush()
    seqs = [r["seq"] for r in journal_file.read(path)]
    revert = await jobs.plan_records_revert(
        client, seqs, context, journal_path=path, folder=tmp_path
    )
    lines = {i.target_id: i for i in revert.items()}
    assert lines[applied.biz_id].skip is None and lines[applied.biz_id].new == "ACTIVE"
    assert lines[lost.biz_id].skip == jobs.Skip.NO_CHANGE  # never applied: already as before
