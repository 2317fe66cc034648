"""Intents: a mutating request leaves only once its intent is on disk; the outcome names it;
a journal that cannot be written never stops a change."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from portal_admin.client import ClientOptions, MemoryTokenStore, PortalClient
from portal_admin.client.events import RequestStarted
from portal_admin.evidence import journal as jr
from portal_admin.evidence.recorder import attach
from portal_admin.sandbox import SandboxConfig, create_app
from support.accounts import ADMIN_EMAIL
from support.portal import FAST_RETRY, sign_in


@pytest.fixture
async def client() -> AsyncIterator[PortalClient]:
    app = create_app(SandboxConfig(db=":memory:", seed_accounts=20, test_clock=True))
    async with PortalClient(
        "http://sandbox.local",
        ClientOptions(access_code="SANDBOX", client_hash="intent-tests", retry=FAST_RETRY),
        transport=httpx.ASGITransport(app=app),
        token_store=MemoryTokenStore(),
    ) as client:
        await sign_in(client)
        yield client


async def someone(client: PortalClient) -> str:
    page = await client.accounts.query(status="ACTIVE", size=5)
    return next(a.biz_id for a in page.items if a.account_email != ADMIN_EMAIL)


async def test_the_intent_is_on_disk_before_the_request_leaves(
    client: PortalClient, tmp_path: Path
) -> None:
    path = tmp_path / "journal.jsonl"
    journal = jr.Journal(path)
    attach(client, profile="Sandbox", server="http://sandbox.local", journal=journal)
    seen_on_disk: list[list[dict[str, object]]] = []

    def on_request(event: object) -> None:
        if isinstance(event, RequestStarted) and event.operation_id == "accounts.status":
            seen_on_disk.append(list(jr.read(path)))  # what a kill right now would leave

    client.events.subscribe(on_request, RequestStarted)
    target = await someone(client)
    await client.accounts.change_status(target, "SUSPEND", reason="left")
    journal.flush()
    [before_sending] = seen_on_disk
    assert [(r["kind"], r["operation"], r["targets"]) for r in before_sending] == [
        ("intent", "accounts.status", [target])
    ]
    assert before_sending[0]["fields"] == {"action": "SUSPEND", "reason": "left"}
    intent, outcome = jr.read(path)
    assert outcome["kind"] == "change" and outcome["intent_seq"] == intent["seq"] == 1
    assert outcome["outcome"] == "ok"
    result = jr.verify(path)
    assert result.ok and result.pending == 0


def test_an_intent_without_its_outcome_is_counted_pending(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    journal = jr.Journal(path)
    journal.append({"kind": "intent", "operation": "accounts.status", "targets": ["A"]})
    journal.append({"kind": "intent", "operation": "accounts.status", "targets": ["B"]})
    journal.append({"operation": "accounts.status", "targets": ["A"], "intent_seq": 1})
    result = jr.verify(path)
    assert result.ok and result.pending == 1


async def test_a_journal_that_cannot_be_written_does_not_stop_a_change(
    client: PortalClient, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the journal's folder should be", encoding="utf-8")
    journal = jr.Journal(blocker / "journal.jsonl")
    attach(client, profile="Sandbox", server="http://sandbox.local", journal=journal)
    target = await someone(client)
    with caplog.at_level(logging.ERROR, logger="portal_admin.evidence.journal"):
        await client.accounts.change_status(target, "SUSPEND", reason="left")
        journal.flush()
    account = await client.accounts.get(target)
    assert account.account_status.code == "SUSPENDED"
    assert any("could not be written" in r.getMessage() for r in caplog.records)
