"""Screenshots of the notification panels and dialogs, in English and Traditional Chinese
(set PORTAL_ADMIN_SHOTS to keep them; other languages go into a sub-folder)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import qasync

from portal_admin.ui.operations import OperationRunner
from portal_admin.ui.panels.notifications.channels_panel import ChannelsPanel
from portal_admin.ui.panels.notifications.types_panel import ChannelTypesPanel
from portal_admin.ui.panels.registry import PanelContext
from portal_admin.ui.profiles.store import sandbox_profile
from portal_admin.ui.tour.screenshots import save_screenshot, settle

from ..panel_support import ADMIN, sign_in_as
from .support import visible_texts

SECRET = "Shot-Secret-4455"


def _select(panel: Any, attribute: str, value: str) -> None:
    for number, row in enumerate(panel.model.rows):
        if getattr(row, attribute) == value:
            panel.list.table.setCurrentIndex(panel.model.index(number, 0))
            return
    raise AssertionError(value)


@pytest.mark.parametrize("language", ["en", "zh-Hant"])
def test_tour_screenshots(
    loop: qasync.QEventLoop,
    sandbox_app: Any,
    runner: OperationRunner,
    qtbot: Any,
    shots: Path,
    language: str,
) -> None:
    folder = shots if language == "en" else shots / language
    client = loop.run_until_complete(sign_in_as(sandbox_app, *ADMIN, language))
    ctx = PanelContext(runner=runner, profile=sandbox_profile(), client=client)
    saved: list[Path] = []

    async def tour() -> None:
        types = ChannelTypesPanel(ctx)
        qtbot.addWidget(types)
        types.resize(1280, 560)
        types.show()
        await types.controller.start()
        _select(types, "type_code", "SMS")
        await settle(0.1)
        saved.append(save_screenshot(types, folder / "channel-types.png"))
        dialog = types.controller.open_edit()
        assert dialog is not None
        dialog.extra_edit.setPlainText('{\n  "retries": 3,\n  "quietHours": "22:00-07:00"\n}')
        await settle(0.1)
        saved.append(save_screenshot(dialog, folder / "channel-type-edit.png"))
        dialog.reject()

        channels = ChannelsPanel(ctx)
        qtbot.addWidget(channels)
        channels.resize(1400, 600)
        channels.show()
        await channels.controller.start()
        _select(channels, "channel_name", "Platform mail")
        await settle(0.1)
        saved.append(save_screenshot(channels, folder / "channels.png"))
        edit = channels.controller.open_edit()
        assert edit is not None
        await settle(0.1)
        saved.append(save_screenshot(edit, folder / "channel-edit-smtp.png"))
        edit.reject()

        new = channels.controller.open_create()
        new.name_edit.setText("Relay mail" if language == "en" else "中繼郵件")
        email = new.email
        assert email is not None
        email.smtp.host_edit.setText("relay.example.invalid")
        email.smtp.username_edit.setText("relay@example.com")
        email.smtp.password_edit.setText(SECRET)
        email.smtp.from_edit.setText("alerts@example.com")
        assert not await channels.controller.submit(new)
        await settle(0.1)
        saved.append(save_screenshot(new, folder / "channel-validate-failed.png"))
        assert SECRET not in "\n".join(visible_texts(new))
        new.reject()

    try:
        loop.run_until_complete(tour())
    finally:
        loop.run_until_complete(client.aclose())
    assert [p.name for p in saved] == [
        "channel-types.png",
        "channel-type-edit.png",
        "channels.png",
        "channel-edit-smtp.png",
        "channel-validate-failed.png",
    ]
    assert all(p.stat().st_size > 5000 for p in saved)
