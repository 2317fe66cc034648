"""The panel fixtures themselves: both demo accounts sign in; the auditor stays read-only."""

from __future__ import annotations

import pytest
import qasync

from portal_admin.client import PermissionDeniedError, PortalClient


def test_admin_lists_accounts(loop: qasync.QEventLoop, admin: PortalClient) -> None:
    page = loop.run_until_complete(admin.accounts.query(size=5))
    assert page.total_items >= 120 and len(page.items) == 5


def test_auditor_is_refused_a_change(loop: qasync.QEventLoop, auditor: PortalClient) -> None:
    page = loop.run_until_complete(auditor.accounts.query(size=1))
    target = page.items[0]
    with pytest.raises(PermissionDeniedError):
        loop.run_until_complete(auditor.accounts.update(target.biz_id, account_remark="x"))
