"""The constants cache: one fetch per (language, list), shared fetches, language switches."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import qasync
from panel_support import client_for

from portal_admin.client import PortalClient
from portal_admin.ui.panels.constants_cache import LIST_NAMES, ConstantsCache


async def public_client(app: Any, language: str) -> PortalClient:
    """A client that is not signed in (constants are public) speaking ``language``."""
    return await client_for(app, language).__aenter__()


def count_calls(client: PortalClient) -> list[str]:
    """Record the operation id of every request the client sends."""
    from portal_admin.client.events import RequestStarted

    seen: list[str] = []
    client.events.subscribe(lambda e: seen.append(e.operation_id), RequestStarted)
    return seen


def test_one_fetch_per_list_and_language(loop: qasync.QEventLoop, admin: PortalClient) -> None:
    sent = count_calls(admin)
    cache = ConstantsCache(admin, "en")

    async def run() -> None:
        first = await cache.items("user-invitation-statuses")
        again = await cache.items("user-invitation-statuses")
        assert first is again
        assert {i.code for i in first} >= {"PENDING", "ACCEPTED", "EXPIRED", "CANCELLED"}
        await cache.items("countries")

    loop.run_until_complete(run())
    assert sent.count("constants.user_invitation_statuses") == 1
    assert sent.count("constants.countries") == 1
    assert cache.fetch_count == 2


def test_concurrent_requests_share_one_fetch(loop: qasync.QEventLoop, admin: PortalClient) -> None:
    sent = count_calls(admin)
    cache = ConstantsCache(lambda: admin, "en")

    async def run() -> list[Any]:
        return await asyncio.gather(*(cache.items("timezones") for _ in range(5)))

    results = loop.run_until_complete(run())
    assert all(r is results[0] for r in results)
    assert sent.count("constants.timezones") == 1


def test_waiter_cancelled_does_not_cancel_the_shared_fetch(
    loop: qasync.QEventLoop, admin: PortalClient
) -> None:
    cache = ConstantsCache(admin, "en")

    async def run() -> None:
        quitter = asyncio.ensure_future(cache.items("countries"))
        stayer = asyncio.ensure_future(cache.items("countries"))
        await asyncio.sleep(0)
        quitter.cancel()
        assert len(await stayer) > 100

    loop.run_until_complete(run())
    assert cache.fetch_count == 1


def test_label_lookup_by_code_value_and_item(loop: qasync.QEventLoop, admin: PortalClient) -> None:
    cache = ConstantsCache(admin, "en")
    assert cache.label("user-account-statuses", "ACTIVE") == "ACTIVE"  # nothing cached yet
    items = loop.run_until_complete(cache.items("user-account-statuses"))
    active = next(i for i in items if i.code == "ACTIVE")
    assert active.label
    assert cache.label("user-account-statuses", "ACTIVE") == active.label
    assert cache.label("user-account-statuses", active.value) == active.label
    assert cache.label("user-account-statuses", active) == active.label
    assert cache.label("user-account-statuses", "NO_SUCH") == "NO_SUCH"
    assert cache.label("user-account-statuses", None) == ""


def test_language_change_refetches_with_new_labels(
    loop: qasync.QEventLoop, sandbox_app: Any, admin: PortalClient
) -> None:
    clients = {"en": admin}
    clients["ja"] = loop.run_until_complete(public_client(sandbox_app, "ja"))
    cache = ConstantsCache(lambda: clients[cache.language], "en")
    cleared: list[str] = []
    cache.cleared.connect(cleared.append)
    try:
        english = loop.run_until_complete(cache.items("user-invitation-statuses"))
        english_label = cache.label("user-invitation-statuses", "PENDING")
        cache.set_language("en")  # same language: nothing forgotten
        assert cache.cached("user-invitation-statuses") is english
        assert cleared == []
        cache.set_language("ja")
        assert cleared == ["ja"]
        assert cache.cached("user-invitation-statuses") is None
        assert cache.label("user-invitation-statuses", "PENDING") == "PENDING"
        loop.run_until_complete(cache.items("user-invitation-statuses"))
        japanese_label = cache.label("user-invitation-statuses", "PENDING")
    finally:
        loop.run_until_complete(clients["ja"].aclose())
    assert cache.fetch_count == 2
    assert japanese_label != english_label
    assert any("\u3040" <= ch <= "\u9fff" for ch in japanese_label)


def test_fetch_started_before_a_language_switch_is_not_kept(
    loop: qasync.QEventLoop, admin: PortalClient
) -> None:
    cache = ConstantsCache(admin, "en")

    async def run() -> None:
        fetch = asyncio.ensure_future(cache.items("countries"))
        await asyncio.sleep(0)
        cache.set_language("vi")
        assert len(await fetch) > 100
        assert cache.cached("countries") is None

    loop.run_until_complete(run())


def test_failed_fetch_is_retried_next_time(loop: qasync.QEventLoop, admin: PortalClient) -> None:
    class Broken:
        class constants:  # mimics client.constants
            @staticmethod
            async def countries() -> list[Any]:
                raise RuntimeError("down")

    source: list[Any] = [Broken()]
    cache = ConstantsCache(lambda: source[0], "en")
    with pytest.raises(RuntimeError):
        loop.run_until_complete(cache.items("countries"))
    source[0] = admin
    assert len(loop.run_until_complete(cache.items("countries"))) > 100


def test_unknown_list_is_refused(loop: qasync.QEventLoop, admin: PortalClient) -> None:
    cache = ConstantsCache(admin)
    with pytest.raises(KeyError):
        loop.run_until_complete(cache.items("planets"))
    assert len(LIST_NAMES) == 16
