"""The security area (section 4.3): the caller's own IP whitelist, MFA settings, backup codes,
authenticator, sessions, session settings and login history.

Every operation acts on the signed-in caller's own account. Mutations need the permission
``account:security:write`` (``protocol.operations.PERMISSIONS``), so the auditor reads only.
The IP whitelist is stored and reported, not enforced (every sandbox client is local).
"""

from __future__ import annotations

import ipaddress
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Query
from fastapi.responses import JSONResponse

from portal_admin.protocol.bodies import IpWhitelistSet
from portal_admin.protocol.enums import MFA_METHOD
from portal_admin.protocol.pages import PageA, shape_a
from portal_admin.protocol.queries import LoginHistoryQuery
from portal_admin.protocol.records import (
    BackupCodes,
    BackupCodeSummary,
    IpEntry,
    IpWhitelist,
    LoginHistoryItem,
    MfaSetting,
    SessionConfig,
    SessionInfo,
)

from ..clock import iso
from ..db import Database
from ..deps import Authed, AuthedDep, Caller, require
from ..errors import invalid
from ..ids import sha256_hex
from ..paging import one_based_paging, order_by
from ..state import SeedContext
from ._route import route

router = APIRouter()

SCHEMA = """
CREATE TABLE IF NOT EXISTS ip_whitelist (
    account_biz_id TEXT PRIMARY KEY,
    enabled        INTEGER NOT NULL DEFAULT 0,
    updated_at     INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS ip_whitelist_entries (
    account_biz_id TEXT NOT NULL,
    ip             TEXT NOT NULL,            -- canonical address or network (CIDR)
    created_at     INTEGER NOT NULL,
    PRIMARY KEY (account_biz_id, ip)
) WITHOUT ROWID;
"""

BACKUP_CODE_COUNT = 10
#: Backup-code alphabet: no 0/O, 1/I/L.
BACKUP_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: Sessions per account the sandbox reports (the specification observed 3).
MAX_SESSIONS = 3
HISTORY_PAGE_SIZE = 20

# -- IP whitelist -------------------------------------------------------------------------------


def normalize_ip(raw: Any) -> str:
    """An IPv4/IPv6 address or CIDR network in canonical text; 400 for anything else.

    Networks must not have host bits set (``10.0.0.1/8`` is refused); a single address keeps no
    prefix (``192.0.2.1/32`` becomes ``192.0.2.1``).
    """
    if not isinstance(raw, str) or not raw.strip() or len(raw) > 64:
        raise invalid("ips must hold IP addresses or CIDR networks")
    text = raw.strip()
    try:
        if "/" in text:
            network = ipaddress.ip_network(text, strict=True)
            if network.num_addresses == 1:
                return str(network.network_address)
            return str(network)
        return str(ipaddress.ip_address(text))
    except ValueError as exc:
        raise invalid(f"not an IP address or CIDR network: {text[:64]}") from exc


def whitelist(db: Database, account: str) -> dict[str, Any]:
    """The IP whitelist object: ``{enabled, entries: [{ip, createdAt}]}``."""
    enabled = db.scalar("SELECT enabled FROM ip_whitelist WHERE account_biz_id = ?", (account,))
    rows = db.query(
        "SELECT ip, created_at FROM ip_whitelist_entries WHERE account_biz_id = ?"
        " ORDER BY created_at, ip",
        (account,),
    )
    return IpWhitelist.wire(
        enabled=bool(enabled),
        entries=[IpEntry.wire(ip=r["ip"], created_at=iso(r["created_at"])) for r in rows],
    )


def _set_enabled(db: Database, account: str, enabled: bool, now: int) -> None:
    db.execute(
        "INSERT INTO ip_whitelist (account_biz_id, enabled, updated_at) VALUES (?, ?, ?)"
        " ON CONFLICT (account_biz_id) DO UPDATE SET enabled = excluded.enabled,"
        " updated_at = excluded.updated_at",
        (account, int(enabled), now),
    )


def replace_entries(db: Database, account: str, ips: list[str], now: int) -> None:
    """Make ``ips`` the whitelist; entries kept from before keep their createdAt."""
    with db.transaction():
        old = {
            r["ip"]: r["created_at"]
            for r in db.query(
                "SELECT ip, created_at FROM ip_whitelist_entries WHERE account_biz_id = ?",
                (account,),
            )
        }
        db.execute("DELETE FROM ip_whitelist_entries WHERE account_biz_id = ?", (account,))
        db.executemany(
            "INSERT INTO ip_whitelist_entries (account_biz_id, ip, created_at) VALUES (?, ?, ?)",
            [(account, ip, old.get(ip, now)) for ip in ips],
        )
        enabled = db.scalar("SELECT enabled FROM ip_whitelist WHERE account_biz_id = ?", (account,))
        _set_enabled(db, account, bool(enabled), now)


@route(router, "security.ip_whitelist_get", IpWhitelist)
async def get_whitelist(authed: AuthedDep) -> JSONResponse:
    """The caller's IP whitelist."""
    return authed.ok(whitelist(authed.db, authed.principal.account_biz_id))


@route(router, "security.ip_whitelist_set", IpWhitelist)
async def set_whitelist(
    caller: Annotated[Caller, Depends(require("security.ip_whitelist_set"))],
    body: Annotated[IpWhitelistSet, Body()],
) -> JSONResponse:
    """Replace the whitelist with ``{ips: [...]}`` (at most 100; duplicates merged)."""
    ips = list(dict.fromkeys(normalize_ip(item) for item in body.ips))
    account = caller.principal.account_biz_id
    replace_entries(caller.db, account, ips, caller.ctx.now_ms())
    return caller.ok(whitelist(caller.db, account))


async def _toggle(caller: Caller, enabled: bool) -> JSONResponse:
    account = caller.principal.account_biz_id
    _set_enabled(caller.db, account, enabled, caller.ctx.now_ms())
    return caller.ok(whitelist(caller.db, account))


@route(router, "security.ip_whitelist_enable", IpWhitelist)
async def enable_whitelist(
    caller: Annotated[Caller, Depends(require("security.ip_whitelist_enable"))],
) -> JSONResponse:
    """Turn the whitelist on (any body is ignored)."""
    return await _toggle(caller, True)


@route(router, "security.ip_whitelist_disable", IpWhitelist)
async def disable_whitelist(
    caller: Annotated[Caller, Depends(require("security.ip_whitelist_disable"))],
) -> JSONResponse:
    """Turn the whitelist off (any body is ignored)."""
    return await _toggle(caller, False)


# -- MFA -----------------------------------------------------------------------------------------


def mfa_settings(caller: Authed) -> list[dict[str, Any]]:
    """One MFA setting per method (EMAIL, OTP); methods never set up read as disabled."""
    rows = {
        r["method"]: r
        for r in caller.db.query(
            "SELECT * FROM mfa_settings WHERE account_biz_id = ?",
            (caller.principal.account_biz_id,),
        )
    }
    result = []
    for member in MFA_METHOD.items:
        row = rows.get(member.code)
        result.append(
            MfaSetting.wire(
                mfa_method=caller.ctx.item(MFA_METHOD, member.code),
                is_enabled=bool(row["is_enabled"]) if row else False,
                is_primary=bool(row["is_primary"]) if row else False,
                verified_at=iso(row["verified_at"]) if row else None,
            )
        )
    return result


@route(router, "security.mfa_list", list[MfaSetting])
async def list_mfa(authed: AuthedDep) -> JSONResponse:
    """The caller's MFA settings."""
    return authed.ok(mfa_settings(authed))


def backup_summary(db: Database, account: str) -> tuple[int, int]:
    """How many codes of the current set of backup codes remain unused, and how many it has."""
    row = db.one(
        "SELECT COUNT(*) AS total, COALESCE(SUM(used_at IS NULL), 0) AS remaining"
        " FROM mfa_backup_codes WHERE account_biz_id = ?",
        (account,),
    )
    assert row is not None
    return int(row["remaining"]), int(row["total"])


@route(router, "security.backup_codes_summary", BackupCodeSummary)
async def backup_codes(authed: AuthedDep) -> JSONResponse:
    """How many backup codes of the current set remain unused."""
    remaining, total = backup_summary(authed.db, authed.principal.account_biz_id)
    return authed.ok(BackupCodeSummary.wire(remaining_count=remaining, total_generated=total))


def new_backup_code() -> str:
    """A fresh backup code, ``XXXX-XXXX``."""
    chars = "".join(secrets.choice(BACKUP_ALPHABET) for _ in range(8))
    return f"{chars[:4]}-{chars[4:]}"


def store_backup_codes(db: Database, account: str, codes: list[str], now: int) -> None:
    """Replace the account's backup codes by ``codes`` (stored as hashes only)."""
    with db.transaction():
        db.execute("DELETE FROM mfa_backup_codes WHERE account_biz_id = ?", (account,))
        db.executemany(
            "INSERT INTO mfa_backup_codes (account_biz_id, code_hash, created_at) VALUES (?, ?, ?)",
            [(account, sha256_hex(c.replace("-", "").upper()), now) for c in codes],
        )


@route(router, "security.backup_codes_generate", BackupCodes)
async def generate_backup_codes(
    caller: Annotated[Caller, Depends(require("security.backup_codes_generate"))],
) -> JSONResponse:
    """A new set of 10 backup codes, shown this once; earlier codes stop working."""
    account = caller.principal.account_biz_id
    codes = [new_backup_code() for _ in range(BACKUP_CODE_COUNT)]
    now = caller.ctx.now_ms()
    store_backup_codes(caller.db, account, codes, now)
    remaining, total = backup_summary(caller.db, account)
    return caller.ok(
        BackupCodes.wire(
            codes=codes, remaining_count=remaining, total_generated=total, generated_at=iso(now)
        )
    )


@route(router, "security.otp_revoke", list[MfaSetting])
async def revoke_otp(
    caller: Annotated[Caller, Depends(require("security.otp_revoke"))],
) -> JSONResponse:
    """Switch the authenticator (OTP) off; EMAIL becomes primary. Idempotent.

    Answers the MFA settings as they are afterwards. Any body is ignored.
    """
    account = caller.principal.account_biz_id
    now = caller.ctx.now_ms()
    with caller.db.transaction() as db:
        db.execute(
            "UPDATE mfa_settings SET is_enabled = 0, is_primary = 0, verified_at = NULL"
            " WHERE account_biz_id = ? AND method = 'OTP'",
            (account,),
        )
        db.execute(
            "INSERT INTO mfa_settings (account_biz_id, method, is_enabled, is_primary,"
            " verified_at) VALUES (?, 'EMAIL', 1, 0, ?) ON CONFLICT DO UPDATE SET is_enabled = 1",
            (account, now),
        )
        primary = db.scalar(
            "SELECT COUNT(*) FROM mfa_settings WHERE account_biz_id = ? AND is_primary = 1",
            (account,),
        )
        if not primary:
            db.execute(
                "UPDATE mfa_settings SET is_primary = 1 WHERE account_biz_id = ?"
                " AND method = 'EMAIL'",
                (account,),
            )
    return caller.ok(mfa_settings(caller))


# -- sessions and history ----------------------------------------------------------------------


@route(router, "security.sessions", list[SessionInfo])
async def list_sessions(authed: AuthedDep) -> JSONResponse:
    """The caller's active sessions: the current one first, then by last activity."""
    rows = authed.db.query(
        "SELECT * FROM auth_sessions WHERE account_biz_id = ? AND ended_at IS NULL"
        " ORDER BY sid = ? DESC, last_activity_time DESC, sid",
        (authed.principal.account_biz_id, authed.principal.sid),
    )
    return authed.ok(
        [
            SessionInfo.wire(
                session_id=r["sid"],
                client_ip=r["client_ip"],
                user_agent=r["user_agent"],
                login_time=iso(r["login_time"]),
                last_activity_time=iso(r["last_activity_time"]),
                is_current=r["sid"] == authed.principal.sid,
            )
            for r in rows
        ]
    )


@route(router, "security.sessions_config", SessionConfig)
async def sessions_config(authed: AuthedDep) -> JSONResponse:
    """The caller's session settings."""
    row = authed.db.one(
        "SELECT password_changed_at, last_login_at, last_login_ip FROM accounts WHERE biz_id = ?",
        (authed.principal.account_biz_id,),
    )
    assert row is not None
    return authed.ok(
        SessionConfig.wire(
            account_biz_id=authed.principal.account_biz_id,
            sso_enabled=False,
            max_sessions=MAX_SESSIONS,
            password_changed_at=iso(row["password_changed_at"]),
            last_login_at=iso(row["last_login_at"]),
            last_login_ip=row["last_login_ip"],
        )
    )


#: Sortable fields of the history, by their wire names (the record's), and their columns.
_HISTORY_SORTS = {
    LoginHistoryItem.model_fields[column].alias or column: column
    for column in ("login_time", "client_ip", "login_result")
}


@route(router, "security.login_history", PageA[LoginHistoryItem])
async def login_history(
    authed: AuthedDep, query: Annotated[LoginHistoryQuery, Query()]
) -> JSONResponse:
    """The caller's sign-ins, newest first, as a shape-A page.

    Query: ``page`` (1-based like currentPage; 0 reads as 1), ``size`` (default 20, capped at
    100), ``result`` (value or code), ``from``, ``to`` (inclusive bounds on loginTime: ISO 8601
    or epoch milliseconds), ``sort``.
    """
    page = one_based_paging(query.page, query.size, HISTORY_PAGE_SIZE)
    where = ["account_biz_id = ?"]
    params: list[Any] = [authed.principal.account_biz_id]
    if query.result is not None:
        where.append("login_result = ?")
        params.append(query.result)
    start, end = query.date_from, query.date_to
    if start is not None:
        where.append("login_time >= ?")
        params.append(start)
    if end is not None:
        where.append("login_time <= ?")
        params.append(end)
    clause = " AND ".join(where)
    order = order_by(
        query.sort or [], _HISTORY_SORTS, default="login_time DESC, id DESC", tiebreak="id"
    )
    total = int(authed.db.scalar(f"SELECT COUNT(*) FROM login_history WHERE {clause}", params))  # noqa: S608
    rows = authed.db.query(
        f"SELECT * FROM login_history WHERE {clause} {order} LIMIT ? OFFSET ?",  # noqa: S608
        [*params, page.size, page.offset],
    )
    items = [
        LoginHistoryItem.wire(
            biz_id=r["biz_id"],
            login_time=iso(r["login_time"]),
            client_ip=r["client_ip"],
            user_agent=r["user_agent"],
            login_result=int(r["login_result"]),
            failure_reason=r["failure_reason"],
        )
        for r in rows
    ]
    return authed.ok(shape_a(items, number=page.number, size=page.size, total=total))


def seed(ctx: SeedContext) -> None:
    """The admin's IP whitelist (disabled, three entries) and a set of backup codes.

    The seeded backup codes are random and never shown: generate a new set to see codes.
    """
    now = ctx.now_ms
    entries = ("203.0.113.0/24", "198.51.100.23", "2001:db8::/32")
    ctx.db.executemany(
        "INSERT INTO ip_whitelist_entries (account_biz_id, ip, created_at) VALUES (?, ?, ?)",
        [(ctx.admin_biz_id, ip, now - (30 - n) * 86_400_000) for n, ip in enumerate(entries)],
    )
    _set_enabled(ctx.db, ctx.admin_biz_id, False, now)
    codes = ["".join(ctx.rng.choice(BACKUP_ALPHABET) for _ in range(8)) for _ in range(10)]
    store_backup_codes(ctx.db, ctx.admin_biz_id, codes, now - 30 * 86_400_000)
    ctx.db.execute(
        "UPDATE mfa_backup_codes SET used_at = ? WHERE account_biz_id = ? AND code_hash IN"
        " (SELECT code_hash FROM mfa_backup_codes WHERE account_biz_id = ? LIMIT 2)",
        (now - 86_400_000, ctx.admin_biz_id, ctx.admin_biz_id),
    )
