"""Against the in-process sandbox: a campaign from a real snapshot, signed-off Revokes turned
into a bulk job planned from the current state (already suspended: no change; changed since
the scope: marked), run and found again; separation of duties recorded; the closing check;
the campaign's pack verified as any pack is."""

from __future__ import annotations

import csv
import io
import threading
import zipfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from portal_admin import jobs
from portal_admin.client import ClientOptions, MemoryTokenStore, PortalClient
from portal_admin.evidence import keys
from portal_admin.evidence.pack import verify_pack
from portal_admin.evidence.snapshot import take_snapshot
from portal_admin.reviews import (
    CampaignError,
    Query,
    Settings,
    closing,
    create_campaign,
    decide,
    remediation,
    reviewer_of,
    sign,
)
from portal_admin.reviews import pack as review_pack
from portal_admin.sandbox import SandboxConfig, create_app
from support.portal import FAST_RETRY, sign_in

ADMIN = "admin@sandbox.test"


@pytest.fixture
async def client() -> AsyncIterator[PortalClient]:
    app = create_app(SandboxConfig(db=":memory:", seed_accounts=80, test_clock=True))
    async with PortalClient(
        "http://sandbox.local",
        ClientOptions(access_code="SANDBOX", client_hash="review-tests", retry=FAST_RETRY),
        transport=httpx.ASGITransport(app=app),
        token_store=MemoryTokenStore(),
    ) as made:
        await sign_in(made)
        yield made


async def context(client: PortalClient) -> jobs.JobContext:
    me = await client.auth.profile()
    return jobs.JobContext(  # the server the scope's snapshot names (take_snapshot below)
        "Sandbox", "sandbox://built-in", me.account_email or "", me.biz_id, "sandbox"
    )


async def pick(client: PortalClient, *statuses: str) -> Any:
    found = []
    for status in statuses:
        page = await client.accounts.query(status=status, size=5)
        found.extend(a for a in page.items if a.account_email != ADMIN)
    return found


def table(zf: zipfile.ZipFile, name: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(zf.read(name).decode("utf-8-sig"))))


async def test_the_whole_loop_in_process(tmp_path: Path, client: PortalClient) -> None:
    scope = await take_snapshot(client, tmp_path / "scope.sqlite3", server="sandbox://built-in")
    active = await pick(client, "ACTIVE")
    suspended = await pick(client, "SUSPENDED")
    deactivated = await pick(client, "DEACTIVATED", "REJECTED")
    me = await client.auth.profile()
    campaign = create_campaign(tmp_path / "q4.review", scope, Settings("Q4", "2026-12-31"))
    store = keys.MemoryStore()
    reviewer = reviewer_of(ADMIN, store)  # the administrator reviews: separation warned
    other = reviewer_of("auditor@sandbox.test", keys.MemoryStore())
    revoke = [f"account:{a.biz_id}" for a in (active[0], active[1], suspended[0])]
    decide(campaign, revoke, "Revoke", "left the company", reviewer)
    decide(campaign, f"account:{me.biz_id}", "Revoke", "test the refusal", other)
    decide(campaign, f"account:{active[2].biz_id}", "Keep", "still here", reviewer)
    (invitation, *_) = campaign.page(Query(kind="invitation"))
    decide(campaign, invitation.id, "Revoke", "no longer expected", other)
    (role, *_) = campaign.page(Query(kind="role"))
    decide(campaign, role.id, "Revoke", "unused", other)
    with pytest.raises(CampaignError) as unsigned:
        await remediation.remediate(
            campaign, client, await context(client), folder=tmp_path, key_store=store
        )
    assert unsigned.value.code == "NOT_SIGNED"
    sign(campaign, ADMIN, keys.signing_key(store))

    # Meanwhile: one revoked account suspended by a colleague, one renamed; a kept one renamed.
    await client.accounts.change_status(active[1].biz_id, "SUSPEND")
    await client.accounts.update(active[0].biz_id, account_name="Renamed Meanwhile")
    await client.accounts.update(active[2].biz_id, account_name="Kept But Renamed")
    await client.accounts.change_status(deactivated[0].biz_id, "ACTIVATE")  # appears

    plan = await remediation.remediate(
        campaign, client, await context(client), folder=tmp_path, key_store=store
    )
    assert not plan.resumed and plan.same_person and plan.administrator == ADMIN
    assert plan.reviewers == [ADMIN, "auditor@sandbox.test"]  # who signed, who decided
    assert plan.manual == [role.id]  # no bulk action removes a role
    assert plan.changed == {
        f"account:{active[0].biz_id}": f"name: {active[0].account_name} → Renamed Meanwhile",
        f"account:{active[1].biz_id}": "status: ACTIVE → SUSPENDED",
    }
    job, cancel = plan.jobs
    assert job.counts()["planned"] == 1  # active[0]; active[1] and suspended[0]: no change
    assert job.skip_counts() == {"NO_CHANGE": 2, "SELF": 1}
    assert cancel.meta()["kind"] == "cancel-invitation" and cancel.counts()["planned"] == 1
    assert campaign.meta["remediation"]["same_person"] is True
    for each in plan.jobs:
        await jobs.Runner(client, each).run()
    plan.close()
    assert (await client.accounts.get(active[0].biz_id)).account_status.code == "SUSPENDED"  # type: ignore[union-attr]
    again = await remediation.remediate(
        campaign, client, await context(client), folder=tmp_path, key_store=store
    )
    assert again.resumed and [j.id for j in again.jobs] == [job.id, cancel.id]  # never twice
    again.close()

    end = await take_snapshot(client, tmp_path / "end.sqlite3", server="sandbox://built-in")
    counts = closing.check(campaign, end, close_as=ADMIN, folder=tmp_path)
    assert counts == {
        "revoked and done": 4,  # three accounts, the invitation
        "revoked, not done": 2,  # the signed-in administrator is never a target; the role
        "kept, changed meanwhile": 1,
        "appeared after the scope": 1,
    }
    rows = {r[0]: r for r in closing.closing_rows(campaign)}
    assert rows[f"account:{me.biz_id}"][1:3] == ("revoked, not done", "ACTIVE")
    assert "Kept But Renamed" in rows[f"account:{active[2].biz_id}"][3]
    assert f"account:{deactivated[0].biz_id}" in rows
    with pytest.raises(CampaignError) as closed:
        decide(campaign, f"account:{active[3].biz_id}", "Keep", "", other)
    assert closed.value.code == "CLOSED"

    key = keys.signing_key(keys.MemoryStore())
    manifest = review_pack.write(campaign, tmp_path / "q4.zip", key, folder=tmp_path)
    checked = verify_pack(tmp_path / "q4.zip", manifest["fingerprint"])
    assert checked.status == "intact", checked.problems
    with zipfile.ZipFile(tmp_path / "q4.zip") as zf:
        names = set(zf.namelist())
        assert {"items.csv", "decisions.csv", "signoffs.csv", "remediation.csv",
                "remediation_result.csv", "remediation_result_invitations.csv", "closing.csv",
                "report.html"} <= names  # fmt: skip
        result = table(zf, "remediation_result.csv")
        assert [r["outcome"] for r in result].count("done") == 1
        items = {r["id"]: r for r in table(zf, "items.csv")}
        assert items[revoke[0]]["decision"] == "REVOKE"
        assert items[revoke[0]]["justification"] == "left the company"
        assert items[revoke[0]]["fingerprint"] == reviewer.fingerprint
        report = zf.read("report.html").decode()
    for words in ("revoked and done", "not done", "overdue", "items", "decided"):
        assert f"<th>{words}</th>" in report
    summary = review_pack.totals(campaign)
    assert (summary["revoked"], summary["revoked and done"], summary["not done"]) == (6, 4, 2)
    campaign.close()


async def test_a_campaign_changed_after_sign_off_is_not_remediated(
    tmp_path: Path, client: PortalClient
) -> None:
    scope = await take_snapshot(client, tmp_path / "scope.sqlite3", server="sandbox://built-in")
    active = await pick(client, "ACTIVE")
    store = keys.MemoryStore()
    reviewer = reviewer_of("reviewer@example.test", store)
    with create_campaign(tmp_path / "c.review", scope, Settings("Q4", "2026-12-31")) as campaign:
        decide(campaign, f"account:{active[0].biz_id}", "Keep", "stays", reviewer)
        sign(campaign, reviewer.name, keys.signing_key(store))
        with campaign.transaction() as conn:  # someone turns the Keep into a Revoke
            conn.execute(
                "UPDATE items SET decision = 'REVOKE' WHERE id = ?",
                (f"account:{active[0].biz_id}",),
            )
        with pytest.raises(CampaignError) as refused:
            await remediation.remediate(
                campaign, client, await context(client), folder=tmp_path, key_store=store
            )
        assert refused.value.code == "CHANGED"
        assert refused.value.item == f"account:{active[0].biz_id}"
    assert not list(tmp_path.glob("*.job.sqlite3"))


async def test_the_check_before_remediating_runs_off_the_event_loop(
    tmp_path: Path, client: PortalClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """About a second at 100,000 items: the desktop's event loop does not wait it out."""
    threads: list[threading.Thread] = []
    real = remediation.verify

    def recording(campaign: Any, expected: str | None = None, **trust: Any) -> Any:
        threads.append(threading.current_thread())
        return real(campaign, expected, **trust)

    monkeypatch.setattr(remediation, "verify", recording)
    scope = await take_snapshot(client, tmp_path / "scope.sqlite3", server="sandbox://built-in")
    settings = Settings("Q4", "2026-12-31")
    store = keys.MemoryStore()
    with (
        create_campaign(tmp_path / "c.review", scope, settings) as campaign,
        pytest.raises(CampaignError) as unsigned,
    ):
        await remediation.remediate(
            campaign, client, await context(client), folder=tmp_path, key_store=store
        )
    assert unsigned.value.code == "NOT_SIGNED"
    assert threads and threading.main_thread() not in threads
