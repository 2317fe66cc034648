"""``MessageBar`` moved to ``ui/widgets/message_bar.py`` (it is shared by every area); this name
is kept only until the Campaigns panel (``ui/panels/reviews/``, changed on another branch)
imports it from there. Import it from ``portal_admin.ui.widgets.message_bar``."""

from __future__ import annotations

from portal_admin.ui.widgets.message_bar import MessageBar

__all__ = ["MessageBar"]
