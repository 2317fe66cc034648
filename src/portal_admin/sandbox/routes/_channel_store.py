"""Storage and demo data of notification channel types and channels."""

from __future__ import annotations

import json
from typing import Any

from portal_admin.protocol.bodies import EmailSettings, MailServer, SmsSettings, WebhookSettings
from portal_admin.protocol.enums import CHANNEL_TYPE

from ..db import Database
from ..ids import biz_id
from ..state import SeedContext

#: Custom channel types are numbered from here on when no typeValue is given.
FIRST_CUSTOM_TYPE_VALUE = 80010121

# -- storage and seed ------------------------------------------------------------------------


def insert_type(
    db: Database,
    code: str,
    value: int,
    name: str,
    description: str,
    status: str,
    order: int,
    icon: str | None,
    now: int,
    new_id: str | None = None,
) -> str:
    """Store a channel type; returns its biz id."""
    new_id = new_id or biz_id("NCT")
    db.execute(
        "INSERT INTO notification_channel_types (biz_id, type_code, type_value, type_name,"
        " type_description, status, display_order, icon_url, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (new_id, code, value, name, description, status, order, icon, now, now),
    )
    return new_id


def insert_channel(
    db: Database,
    institution: str,
    name: str,
    type_code: str,
    status: str,
    config: dict[str, Any],
    is_default: bool,
    description: str | None,
    now: int,
    new_id: str | None = None,
) -> str:
    """Store a channel; returns its biz id."""
    new_id = new_id or biz_id("NCH")
    db.execute(
        "INSERT INTO notification_channels (biz_id, institution_biz_id, channel_name, type_code,"
        " status, config, is_default, description, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            new_id,
            institution,
            name,
            type_code,
            status,
            json.dumps(config, ensure_ascii=False),
            int(is_default),
            description,
            now,
            now,
        ),
    )
    return new_id


_SEED_TYPES = (
    ("EMAIL", "Email", "Messages sent through an SMTP server", "ENABLED"),
    ("SMS", "SMS", "Text messages through an SMS provider", "ENABLED"),
    ("WEBHOOK", "Webhook", "JSON posted to an HTTP endpoint", "ENABLED"),
    ("IN_APP", "In-app", "Notices shown inside the applications", "DISABLED"),
)


def seed(ctx: SeedContext) -> None:
    """The four built-in channel types (IN_APP disabled) and channels of every category."""
    day = 86_400_000
    for order, (code, name, description, status) in enumerate(_SEED_TYPES, start=1):
        insert_type(
            ctx.db,
            code,
            CHANNEL_TYPE.value_of(code),
            name,
            description,
            status,
            order,
            f"https://static.sandbox.test/icons/{code.lower()}.svg",
            ctx.now_ms - 200 * day,
            biz_id("NCT", ctx.rng),
        )
    platform, tenant = ctx.institution_biz_ids[0], ctx.institution_biz_ids[1]
    letters = "abcdefghjkmnpqrstuvwxyz"
    imap = MailServer.build(
        host="imap.sandbox.test",
        port=993,
        security="TLS",
        username="notifications@sandbox.test",
        password="imap-" + "".join(ctx.rng.choice(letters) for _ in range(12)),
    )
    smtp = EmailSettings.build(
        host="smtp.sandbox.test",
        port=587,
        security="STARTTLS",
        username="notifications@sandbox.test",
        password="smtp-" + "".join(ctx.rng.choice(letters) for _ in range(12)),
        from_address="no-reply@sandbox.test",
        from_name="System Portal",
        imap=imap,
    )
    channels: list[tuple[str, str, str, str, dict[str, Any], bool]] = [
        (platform, "Platform mail", "EMAIL", "ACTIVE", smtp, True),
        (
            platform,
            "Backup mail relay",
            "EMAIL",
            "INACTIVE",
            {**smtp, "host": "relay.sandbox.invalid", "port": 465, "security": "TLS"},
            False,
        ),
        (
            platform,
            "Operations SMS",
            "SMS",
            "ACTIVE",
            SmsSettings.build(
                provider="sandbox-sms",
                api_key="sk-" + str(ctx.rng.getrandbits(48)),
                sender_id="PORTAL",
            ),
            True,
        ),
        (
            tenant,
            "Northwind alerts",
            "WEBHOOK",
            "ACTIVE",
            WebhookSettings.build(
                url="https://hooks.sandbox.test/northwind",
                secret="whsec-" + str(ctx.rng.getrandbits(48)),
            ),
            True,
        ),
        (tenant, "Northwind in-app", "IN_APP", "INACTIVE", {}, False),
    ]
    for n, (institution, name, code, status, config, is_default) in enumerate(channels):
        insert_channel(
            ctx.db,
            institution,
            name,
            code,
            status,
            config,
            is_default,
            None,
            ctx.now_ms - (100 - n) * day,
            biz_id("NCH", ctx.rng),
        )
