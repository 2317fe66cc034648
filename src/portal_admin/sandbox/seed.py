"""The core demo data: institutions, the four demo accounts, generated accounts, workspaces,
roles, sessions and login history, and the password-init mail of newuser@sandbox.test."""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from portal_admin.protocol.operations import ALL_PERMISSIONS, READ_PERMISSIONS, Perm

from .clock import to_ms
from .db import Database
from .ids import biz_id
from .mailbox import send_mail
from .passwords import hash_password
from .schema import ACCOUNT_WORDS_INSERT, account_word_rows
from .seed_names import CULTURES, DOMAINS
from .state import SeedContext
from .text import email_key, search_key
from .totp import new_secret

DAY_MS = 86_400_000
INIT_SESSION_SECONDS = 7 * 24 * 3600
GENERATED_PASSWORD = "Sandbox-User-2026!"


@dataclass(frozen=True, slots=True)
class DemoAccount:
    """One of the four accounts of the contract's table."""

    key: str
    email: str
    password: str | None
    name: str
    status: str
    mfa: tuple[str, ...]
    pending_approval: bool = False


ADMIN = DemoAccount(
    "admin",
    "admin@sandbox.test",
    "Sandbox-Admin-2026!",
    "Sandbox Administrator",
    "ACTIVE",
    ("EMAIL", "OTP"),
)
AUDITOR = DemoAccount(
    "auditor",
    "auditor@sandbox.test",
    "Sandbox-Audit-2026!",
    "Sandbox Auditor",
    "ACTIVE",
    ("EMAIL", "OTP"),
)
APPROVAL = DemoAccount(
    "approval",
    "approval@sandbox.test",
    "Sandbox-Approval-2026!",
    "Awaiting Approval",
    "REGISTERED",
    ("EMAIL",),
    pending_approval=True,
)
NEWUSER = DemoAccount(
    "newuser", "newuser@sandbox.test", None, "New User", "PENDING_INIT", ("EMAIL",)
)
DEMO_ACCOUNTS = (ADMIN, AUDITOR, APPROVAL, NEWUSER)

#: Statuses of generated accounts (weights); the first few accounts cover each once.
STATUS_WEIGHTS = {
    "ACTIVE": 70,
    "SUSPENDED": 8,
    "PENDING_INIT": 6,
    "REJECTED": 5,
    "DEACTIVATED": 6,
    "REGISTERED": 5,
}
PORTAL_WEIGHTS = {"SYSTEM": 10, "TENANT": 50, "PARTNER": 20, "CONSUMER": 20}

_ACCOUNT_SQL = (
    "INSERT INTO accounts (id, biz_id, institution_biz_id, email, email_key, phone, name,"
    " name_key, name_fold, remark, portal, status, pending_approval, password_hash, totp_secret,"
    " default_language, default_timezone, default_country, created_at, updated_at,"
    " password_changed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_USER_AGENTS = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) PortalAdmin/1.0",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) PortalAdmin/1.0",
    "Mozilla/5.0 (X11; Linux x86_64) PortalAdmin/1.0",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Safari/604.1",
)


@cache
def seed_hash(password: str) -> str:
    """A Scrypt hash of a seeded password, computed once per process (seeding stays fast)."""
    return hash_password(password)


def seed_core(ctx: SeedContext, generated: int) -> None:
    """Fill an empty database with the core demo data (inside the caller's transaction)."""
    _institutions(ctx)
    _demo_accounts(ctx)
    _generated_accounts(ctx, generated)
    _workspaces(ctx)
    _admin_activity(ctx)
    _password_init(ctx)


def _institutions(ctx: SeedContext) -> None:
    rows = [
        ("Sandbox Platform", "PLATFORM", "APPROVED"),
        ("Northwind Traders", "TENANT", "APPROVED"),
        ("Contoso Finance", "TENANT", "APPROVED"),
        ("東方貿易股份有限公司", "TENANT", "REVIEWING"),
        ("Công ty Sao Mai", "TENANT", "PENDING"),
    ]
    for name, kind, status in rows:
        bid = biz_id("INS", ctx.rng)
        created = ctx.now_ms - ctx.rng.randint(400, 900) * DAY_MS
        ctx.db.execute(
            "INSERT INTO institutions VALUES (?, ?, ?, ?, ?, ?)",
            (bid, name, kind, status, created, created),
        )
        ctx.institution_biz_ids.append(bid)


def _insert_account_words(ctx: SeedContext, rows: list[tuple[int, str, str]]) -> None:
    """The name-filter words of new accounts: (id, name, name_fold) each."""
    word_rows = sorted(w for row in rows for w in account_word_rows(*row))
    ctx.db.executemany(ACCOUNT_WORDS_INSERT, word_rows)


def _demo_accounts(ctx: SeedContext) -> None:
    platform = ctx.institution_biz_ids[0]
    created = ctx.now_ms - 500 * DAY_MS
    for index, demo in enumerate(DEMO_ACCOUNTS, start=1):
        bid = biz_id("ACC", ctx.rng)
        secret = new_secret(ctx.rng) if "OTP" in demo.mfa else None
        pw_hash = seed_hash(demo.password) if demo.password else None
        ctx.db.execute(
            _ACCOUNT_SQL,
            (
                index,
                bid,
                platform,
                demo.email,
                email_key(demo.email),
                f"+1-555-01{index:02d}",
                demo.name,
                search_key(demo.name),
                demo.name.casefold(),
                None,
                "SYSTEM",
                demo.status,
                int(demo.pending_approval),
                pw_hash,
                secret,
                "en",
                "UTC",
                "US",
                created + index * 1000,
                created + index * 1000,
                created if pw_hash else None,
            ),
        )
        for position, method in enumerate(demo.mfa):
            verified = created if demo.status == "ACTIVE" else None
            ctx.db.execute(
                "INSERT INTO mfa_settings VALUES (?, ?, 1, ?, ?)",
                (bid, method, int(position == 0), verified),
            )
        setattr(ctx, f"{demo.key}_biz_id", bid)
    _insert_account_words(
        ctx, [(i, d.name, d.name.casefold()) for i, d in enumerate(DEMO_ACCOUNTS, start=1)]
    )


def _weighted(rng: random.Random, weights: dict[str, int], index: int) -> str:
    keys = list(weights)
    if index < len(keys):
        return keys[index]
    point = rng.random() * sum(weights.values())
    for key, weight in weights.items():
        point -= weight
        if point < 0:
            return key
    return keys[-1]


def _generated_rows(ctx: SeedContext, count: int, pw_hash: str) -> Iterator[tuple[object, ...]]:
    rng = ctx.rng
    platform, tenants = ctx.institution_biz_ids[0], ctx.institution_biz_ids[1:]
    start_id = len(DEMO_ACCOUNTS) + 1
    for n in range(count):
        culture = CULTURES[n % len(CULTURES)] if n < len(CULTURES) else rng.choice(CULTURES)
        given, family = rng.choice(culture.given), rng.choice(culture.family)
        parts = (family, given) if culture.family_first else (given, family)
        name = culture.joiner.join(p[0] for p in parts)
        local = f"{given[1]}.{family[1]}{n + 1}"
        email = f"{local}@{DOMAINS[n % len(DOMAINS)]}"
        status = _weighted(rng, STATUS_WEIGHTS, n)
        portal = _weighted(rng, PORTAL_WEIGHTS, n)
        created = ctx.now_ms - rng.randint(1, 730 * 24) * 3_600_000
        updated = created + rng.randint(0, ctx.now_ms - created)
        has_password = status != "PENDING_INIT"
        yield (
            start_id + n,
            biz_id("ACC", rng),
            platform if portal == "SYSTEM" else rng.choice(tenants),
            email,
            email_key(email),
            f"{culture.phone_prefix}{rng.randint(0, 9999):04d}",
            name,
            search_key(name),
            name.casefold(),
            "Generated by the sandbox" if n % 7 == 0 else None,
            portal,
            status,
            0,
            pw_hash if has_password else None,
            None,
            culture.language,
            culture.timezone,
            culture.country,
            created,
            updated,
            created if has_password else None,
        )


def _generated_accounts(ctx: SeedContext, count: int) -> None:
    if count <= 0:
        return
    pw_hash = seed_hash(GENERATED_PASSWORD)  # one hash shared by all
    rows = list(_generated_rows(ctx, count, pw_hash))
    ctx.db.executemany(_ACCOUNT_SQL, rows)
    ctx.db.executemany(
        "INSERT INTO mfa_settings VALUES (?, 'EMAIL', 1, 1, ?)",
        sorted((str(r[1]), r[18] if r[11] == "ACTIVE" else None) for r in rows),
    )
    _insert_account_words(ctx, [(int(str(r[0])), str(r[6]), str(r[8])) for r in rows])
    ctx.account_biz_ids.extend(str(r[1]) for r in rows)


def _role(
    ctx: SeedContext,
    workspace: str,
    name: str,
    kind: str,
    description: str,
    permissions: tuple[str, ...],
) -> str:
    bid = biz_id("ROL", ctx.rng)
    created = ctx.now_ms - 300 * DAY_MS
    ctx.db.execute(
        "INSERT INTO roles VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (bid, workspace, name, kind, description, json.dumps(list(permissions)), created, created),
    )
    return bid


def _member(
    ctx: SeedContext,
    workspace: str,
    account: str,
    role: str,
    primary: bool,
    source: str = "ADMIN_CREATED",
) -> None:
    ctx.db.execute(
        "INSERT INTO workspace_members VALUES (?, ?, ?, 'ACTIVE', ?, ?, ?)",
        (workspace, account, role, int(primary), source, ctx.now_ms - 200 * DAY_MS),
    )


def _workspaces(ctx: SeedContext) -> None:
    platform = ctx.institution_biz_ids[0]
    created = ctx.now_ms - 320 * DAY_MS
    primary = biz_id("WSP", ctx.rng)
    other = biz_id("WSP", ctx.rng)
    for bid, name in ((primary, "Sandbox Operations"), (other, "Tenant Review")):
        ctx.db.execute(
            "INSERT INTO workspaces VALUES (?, ?, ?, ?, 'ACTIVE', ?, ?)",
            (bid, name, platform, ctx.admin_biz_id, created, created),
        )
    ctx.workspace_biz_id, ctx.other_workspace_biz_id = primary, other
    roles = ctx.role_biz_ids
    roles["OWNER"] = _role(
        ctx, primary, "Owner", "OWNER", "Full control of the workspace", ALL_PERMISSIONS
    )
    roles["AUDITOR"] = _role(
        ctx,
        primary,
        "Auditor",
        "CUSTOM",
        "Reads everything, changes nothing",
        tuple(str(p) for p in READ_PERMISSIONS),
    )
    roles["SUPPORT"] = _role(
        ctx,
        primary,
        "Support",
        "CUSTOM",
        "Helps users with their accounts and invitations",
        (Perm.USER_READ, Perm.USER_WRITE, Perm.INVITATION_READ, Perm.INVITATION_WRITE),
    )
    roles["UNUSED"] = _role(
        ctx, primary, "Reporting", "CUSTOM", "A role nobody holds yet", (Perm.USER_READ,)
    )
    other_owner = _role(
        ctx, other, "Owner", "OWNER", "Full control of the workspace", ALL_PERMISSIONS
    )
    _member(ctx, primary, ctx.admin_biz_id, roles["OWNER"], True)
    _member(ctx, other, ctx.admin_biz_id, other_owner, False)
    _member(ctx, primary, ctx.auditor_biz_id, roles["AUDITOR"], True, "INVITATION")
    active = ctx.db.query(
        "SELECT biz_id FROM accounts WHERE status = 'ACTIVE' AND id > ? ORDER BY id LIMIT 5",
        (len(DEMO_ACCOUNTS),),
    )
    for row in active:
        _member(ctx, primary, row[0], roles["SUPPORT"], True, "INVITATION")


def _admin_activity(ctx: SeedContext) -> None:
    rng = ctx.rng
    ips = ("203.0.113.10", "198.51.100.23", "192.0.2.44", "203.0.113.77")
    for n in range(5):
        login = ctx.now_ms - (n + 1) * 7_200_000 - rng.randint(0, 3_600_000)
        ended = None if n < 3 else login + 3_600_000
        ctx.db.execute(
            "INSERT INTO auth_sessions (sid, account_biz_id, client_ip, user_agent, client_hash,"
            " login_time, last_activity_time, ended_at, end_reason) VALUES (?,?,?,?,?,?,?,?,?)",
            (
                "SES" + secrets.token_hex(12).upper(),
                ctx.admin_biz_id,
                ips[n % len(ips)],
                _USER_AGENTS[n % len(_USER_AGENTS)],
                "seed",
                login,
                login + 600_000,
                ended,
                "LOGOUT" if ended else None,
            ),
        )
    rows = []
    for n in range(40):
        failed = n % 4 == 3
        rows.append(
            (
                biz_id("LGH", rng),
                ctx.admin_biz_id,
                ctx.now_ms - n * 18 * 3_600_000 - 60_000,
                ips[n % len(ips)],
                _USER_AGENTS[n % len(_USER_AGENTS)],
                2 if failed else 1,
                ("INVALID_CREDENTIALS" if n % 8 == 3 else "MFA_CODE_INVALID") if failed else None,
            )
        )
    ctx.db.executemany(
        "INSERT INTO login_history (biz_id, account_biz_id, login_time, client_ip, user_agent,"
        " login_result, failure_reason) VALUES (?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    ctx.db.execute(
        "UPDATE accounts SET last_login_at = ?, last_login_ip = ? WHERE biz_id = ?",
        (ctx.now_ms - 60_000, ips[0], ctx.admin_biz_id),
    )


def create_init_session(db: Database, now: float, account_biz_id: str, email: str) -> str:
    """Open a password-init session and mail it; returns the session id."""
    session_id = "PIS" + secrets.token_urlsafe(24)
    db.execute(
        "INSERT INTO password_init_sessions VALUES (?, ?, ?, ?, NULL)",
        (session_id, account_biz_id, to_ms(now), to_ms(now + INIT_SESSION_SECONDS)),
    )
    send_mail(
        db,
        now,
        email,
        "Set up your System Portal password",
        "Welcome to the System Portal. Open the set-up page and enter this session id to "
        f"choose your password: {session_id}\nThe session is valid for 7 days.",
        session_id=session_id,
    )
    return session_id


def _password_init(ctx: SeedContext) -> None:
    create_init_session(ctx.db, ctx.now, ctx.newuser_biz_id, NEWUSER.email)
