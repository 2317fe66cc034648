"""Account lookups and renderings shared by several areas."""

from __future__ import annotations

import sqlite3
from typing import Any

from portal_admin.protocol.enums import ACCOUNT_STATUS, MFA_METHOD, PORTAL_TYPE
from portal_admin.protocol.records import Account

from .clock import iso
from .db import Database
from .deps import Ctx
from .schema import ACCOUNT_WORDS_INSERT, account_word_rows
from .text import email_key


def by_email(db: Database, email: str) -> sqlite3.Row | None:
    """The account with this email (case-insensitive), or None."""
    return db.one("SELECT * FROM accounts WHERE email_key = ?", (email_key(email),))


def by_biz_id(db: Database, biz_id: str) -> sqlite3.Row | None:
    """The account with this biz id, or None."""
    return db.one("SELECT * FROM accounts WHERE biz_id = ?", (biz_id,))


def status_item(ctx: Ctx, code: str) -> dict[str, Any]:
    """The account status as an enum item (REGISTERED keeps its value of the other listing)."""
    return ctx.item(ACCOUNT_STATUS, code)


def account_record(ctx: Ctx, row: sqlite3.Row) -> dict[str, Any]:
    """The Account record of section 2.4."""
    return Account.wire(
        biz_id=row["biz_id"],
        institution_biz_id=row["institution_biz_id"],
        account_email=row["email"],
        account_phone=row["phone"],
        account_name=row["name"],
        account_remark=row["remark"],
        account_portal=ctx.item(PORTAL_TYPE, row["portal"]),
        account_status=status_item(ctx, row["status"]),
        created_at=iso(row["created_at"]),
        updated_at=iso(row["updated_at"]),
        default_language=row["default_language"],
        default_timezone=row["default_timezone"],
        default_country=row["default_country"],
    )


def enabled_mfa_methods(db: Database, account_biz_id: str) -> list[str]:
    """The account's enabled MFA method codes, primary first (EMAIL when none is enabled)."""
    rows = db.query(
        "SELECT method FROM mfa_settings WHERE account_biz_id = ? AND is_enabled = 1"
        " ORDER BY is_primary DESC, method",
        (account_biz_id,),
    )
    methods = [str(r[0]) for r in rows if MFA_METHOD.by_code(str(r[0])) is not None]
    return methods or ["EMAIL"]


def reindex_name(db: Database, account_id: int, name: str, name_fold: str) -> None:
    """Refresh the words of an account's name (the name filter) after a change of name."""
    db.execute("DELETE FROM account_words WHERE account_id = ?", (account_id,))
    db.executemany(ACCOUNT_WORDS_INSERT, account_word_rows(account_id, name, name_fold))
