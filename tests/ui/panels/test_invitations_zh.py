"""The invitation and profile panels with a Chinese-speaking client and locale (screenshots)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import qasync
from panel_support import ADMIN, SHOTS, sign_in_as
from PySide6.QtCore import QLocale

from portal_admin.client import PortalClient
from portal_admin.sandbox import SandboxConfig, create_app
from portal_admin.ui.i18n.translators import LanguageManager
from portal_admin.ui.panels.constants_cache import ConstantsCache
from portal_admin.ui.panels.invitations.own import MyInvitationsPanel
from portal_admin.ui.panels.invitations.panel import InvitationsPanel
from portal_admin.ui.panels.reference.profile_panel import ProfilePanel
from portal_admin.ui.tour.screenshots import save_screenshot


@pytest.fixture
def zh_admin(loop: qasync.QEventLoop) -> Iterator[PortalClient]:
    """A separate sandbox, the admin signed in in Chinese, the UI locale zh_CN."""
    app = create_app(SandboxConfig(db=":memory:", seed_accounts=10, test_clock=True))
    client = loop.run_until_complete(sign_in_as(app, *ADMIN, "zh"))
    languages = LanguageManager()
    languages.set_language("zh")
    try:
        yield client
    finally:
        languages.set_language("en")
        QLocale.setDefault(QLocale("en_US"))
        loop.run_until_complete(client.aclose())


def test_chinese_labels_and_dates(
    qtbot: Any, loop: qasync.QEventLoop, zh_admin: PortalClient, panel_context: Any
) -> None:
    context = panel_context(zh_admin, constants=ConstantsCache(zh_admin, "zh"))
    panel = InvitationsPanel(context)
    qtbot.addWidget(panel)
    panel.resize(1100, 480)
    panel.show()
    loop.run_until_complete(panel.reload())
    statuses = {panel.model.index(r, 2).data() for r in range(panel.model.rowCount())}
    assert {"待处理", "已接受", "已过期", "已取消", "已谢绝"} == statuses
    assert panel.status_filter.itemText(1) == "待处理"
    save_screenshot(panel, SHOTS / "invitations-zh.png")

    dialog = panel.open_create_dialog()
    dialog.email.setText("admin@sandbox.test")
    loop.run_until_complete(panel.submit_create(dialog))
    error = dialog.error.text()
    assert "VALIDATION.INVALID_PARAMETER" in error
    assert any("\u4e00" <= ch <= "\u9fff" for ch in error)  # the server's message, localized
    save_screenshot(dialog, SHOTS / "invitation-create-zh.png")
    dialog.reject()

    own = MyInvitationsPanel(context)
    qtbot.addWidget(own)
    own.resize(1100, 360)
    own.show()
    loop.run_until_complete(own.reload())
    assert own.statuses.item(0).text() == "待处理"
    save_screenshot(own, SHOTS / "my-invitations-zh.png")

    profile = ProfilePanel(context)
    qtbot.addWidget(profile)
    profile.resize(1280, 640)
    profile.show()
    loop.run_until_complete(profile.reload())
    assert profile.field("accountPortal") == "系统门户"
    save_screenshot(profile, SHOTS / "profile-zh.png")
    loop.run_until_complete(panel.wait_idle())
    loop.run_until_complete(own.wait_idle())
    loop.run_until_complete(profile.wait_idle())
