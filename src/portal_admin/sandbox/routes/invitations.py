"""The invitations area (section 4.6): the workspace's invitations and the caller's own.

Invitation record (both lists): bizId, workspaceBizId, workspaceName, inviterBizId,
inviterName, inviteeEmail, inviteeAccountBizId, inviteeAccountName (null while the invitee has
no account), invitationStatus (enum item), message, expiresAt, acceptedAt, createdAt,
canAccept, plus cancelledAt and cancelReason (ours). A PENDING invitation whose expiresAt has
passed reads as EXPIRED (it is stored so on the next read).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Query
from fastapi.responses import JSONResponse

from portal_admin.protocol.bodies import (
    DEFAULT_EXPIRATION_DAYS,
    InvitationCancel,
    InvitationCreate,
)
from portal_admin.protocol.enums import INVITATION_FINAL, INVITATION_STATUS
from portal_admin.protocol.queries import InvitationStatuses
from portal_admin.protocol.records import Invitation

from ..clock import iso
from ..db import Database
from ..deps import AuthedDep, Caller, Ctx, require
from ..errors import invalid
from ..ids import biz_id
from ..mailbox import send_mail
from ..state import SeedContext
from ..text import email_key
from ._route import route

router = APIRouter()

SCHEMA = """
CREATE TABLE IF NOT EXISTS invitations (
    biz_id                 TEXT PRIMARY KEY,
    workspace_biz_id       TEXT NOT NULL,
    inviter_biz_id         TEXT NOT NULL,
    invitee_email          TEXT NOT NULL,
    invitee_email_key      TEXT NOT NULL,
    status                 TEXT NOT NULL,      -- INVITATION_STATUS code
    message                TEXT,
    expires_at             INTEGER NOT NULL,
    accepted_at            INTEGER,
    cancelled_at           INTEGER,
    cancel_reason          TEXT,
    created_at             INTEGER NOT NULL,
    updated_at             INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS ix_invitations_workspace ON invitations (workspace_biz_id, created_at);
CREATE INDEX IF NOT EXISTS ix_invitations_invitee ON invitations (invitee_email_key, created_at);
"""

DAY_MS = 86_400_000

_SELECT = (
    "SELECT i.*, w.name AS workspace_name, inv.name AS inviter_name,"
    " a.biz_id AS invitee_account_biz_id, a.name AS invitee_account_name"
    " FROM invitations i"
    " LEFT JOIN workspaces w ON w.biz_id = i.workspace_biz_id"
    " LEFT JOIN accounts inv ON inv.biz_id = i.inviter_biz_id"
    " LEFT JOIN accounts a ON a.email_key = i.invitee_email_key"
)


def expire_due(db: Database, now_ms: int) -> None:
    """Store EXPIRED on pending invitations whose time is up."""
    db.execute(
        "UPDATE invitations SET status = 'EXPIRED', updated_at = expires_at"
        " WHERE status = 'PENDING' AND expires_at <= ?",
        (now_ms,),
    )


def invitation_record(ctx: Ctx, row: Any) -> dict[str, Any]:
    """The wire form of an invitation row (joined as in ``_SELECT``)."""
    status = row["status"]
    return Invitation.wire(
        biz_id=row["biz_id"],
        workspace_biz_id=row["workspace_biz_id"],
        workspace_name=row["workspace_name"] or "",
        inviter_biz_id=row["inviter_biz_id"],
        inviter_name=row["inviter_name"] or "",
        invitee_email=row["invitee_email"],
        invitee_account_biz_id=row["invitee_account_biz_id"],
        invitee_account_name=row["invitee_account_name"],
        invitation_status=ctx.item(INVITATION_STATUS, status),
        message=row["message"],
        expires_at=iso(row["expires_at"]),
        accepted_at=iso(row["accepted_at"]),
        cancelled_at=iso(row["cancelled_at"]),
        cancel_reason=row["cancel_reason"],
        created_at=iso(row["created_at"]),
        can_accept=status not in INVITATION_FINAL and row["expires_at"] > ctx.now_ms(),
    )


def _one(db: Database, invitation_id: str) -> Any:
    return db.one(_SELECT + " WHERE i.biz_id = ?", (invitation_id,))


@route(router, "invitations.list", list[Invitation])
async def list_invitations(
    caller: Annotated[Caller, Depends(require("invitations.list"))],
) -> JSONResponse:
    """Every invitation of the caller's workspace, newest first."""
    expire_due(caller.db, caller.ctx.now_ms())
    rows = caller.db.query(
        _SELECT + " WHERE i.workspace_biz_id = ? ORDER BY i.created_at DESC, i.biz_id",
        (caller.workspace_biz_id,),
    )
    return caller.ok([invitation_record(caller.ctx, r) for r in rows])


@route(router, "invitations.create", Invitation)
async def create_invitation(
    caller: Annotated[Caller, Depends(require("invitations.create"))],
    body: Annotated[InvitationCreate, Body()],
) -> JSONResponse:
    """Invite an email address: ``{inviteeEmail, message?, expirationDays?}`` (1 to 30)."""
    email = body.invitee_email
    message = body.message or None
    days = body.expiration_days or DEFAULT_EXPIRATION_DAYS
    db, now = caller.db, caller.ctx.now_ms()
    key = email_key(email)
    with db.transaction():
        expire_due(db, now)
        member = db.scalar(
            "SELECT 1 FROM workspace_members m JOIN accounts a ON a.biz_id = m.account_biz_id"
            " WHERE m.workspace_biz_id = ? AND a.email_key = ?",
            (caller.workspace_biz_id, key),
        )
        if member:
            raise invalid("this person is already a member of the workspace")
        pending = db.scalar(
            "SELECT 1 FROM invitations WHERE workspace_biz_id = ? AND invitee_email_key = ?"
            " AND status = 'PENDING'",
            (caller.workspace_biz_id, key),
        )
        if pending:
            raise invalid("a pending invitation for this email already exists")
        new_id = insert_invitation(
            db,
            workspace=caller.workspace_biz_id,
            inviter=caller.principal.account_biz_id,
            email=email,
            status="PENDING",
            message=message,
            created=now,
            expires=now + days * DAY_MS,
        )
        row = _one(db, new_id)
        send_mail(
            db,
            caller.ctx.now(),
            email,
            f"Invitation to join {row['workspace_name']}",
            f"{caller.principal.name} invited you to the workspace {row['workspace_name']}."
            f" The invitation expires in {days} days.",
        )
    return caller.ok(invitation_record(caller.ctx, row))


@route(router, "invitations.cancel", Invitation)
async def cancel_invitation(
    caller: Annotated[Caller, Depends(require("invitations.cancel"))],
    body: Annotated[InvitationCancel, Body()],
) -> JSONResponse:
    """Cancel a pending invitation: ``{invitationBizId, reason?}``.

    An unknown id, one of another workspace, or an invitation that is no longer pending gives
    400 VALIDATION.INVALID_PARAMETER.
    """
    invitation_id = body.invitation_biz_id
    reason = body.reason or None
    db, now = caller.db, caller.ctx.now_ms()
    with db.transaction():
        expire_due(db, now)
        row = db.one(
            "SELECT status FROM invitations WHERE biz_id = ? AND workspace_biz_id = ?",
            (invitation_id, caller.workspace_biz_id),
        )
        if row is None:
            raise invalid("unknown invitationBizId")
        if row["status"] != "PENDING":
            raise invalid(f"the invitation is {row['status'].lower()}, not pending")
        db.execute(
            "UPDATE invitations SET status = 'CANCELLED', cancelled_at = ?, cancel_reason = ?,"
            " updated_at = ? WHERE biz_id = ?",
            (now, reason, now, invitation_id),
        )
        result = _one(db, invitation_id)
    return caller.ok(invitation_record(caller.ctx, result))


@route(router, "invitations.own", list[Invitation])
async def own_invitations(
    authed: AuthedDep, statuses: Annotated[InvitationStatuses, Query()] = None
) -> JSONResponse:
    """The caller's own invitations (all workspaces), newest first, optionally filtered by
    ``statuses`` (values, repeated and/or comma-separated)."""
    codes = {c for v in statuses if (c := INVITATION_STATUS.code_of(v))} if statuses else None
    db = authed.db
    expire_due(db, authed.ctx.now_ms())
    key = email_key(authed.principal.email)
    sql = _SELECT + " WHERE i.invitee_email_key = ?"
    params: list[Any] = [key]
    if codes is not None:
        sql += f" AND i.status IN ({','.join('?' * len(codes))})"
        params.extend(sorted(codes))
    rows = db.query(sql + " ORDER BY i.created_at DESC, i.biz_id", params)
    return authed.ok([invitation_record(authed.ctx, r) for r in rows])


def insert_invitation(
    db: Database,
    *,
    workspace: str,
    inviter: str,
    email: str,
    status: str,
    message: str | None,
    created: int,
    expires: int,
    accepted: int | None = None,
    cancelled: int | None = None,
    reason: str | None = None,
    new_id: str | None = None,
) -> str:
    """Store one invitation; returns its biz id."""
    new_id = new_id or biz_id("INV")
    db.execute(
        "INSERT INTO invitations (biz_id, workspace_biz_id, inviter_biz_id, invitee_email,"
        " invitee_email_key, status, message, expires_at, accepted_at, cancelled_at,"
        " cancel_reason, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
        (
            new_id,
            workspace,
            inviter,
            email,
            email_key(email),
            status,
            message,
            expires,
            accepted,
            cancelled,
            reason,
            created,
            max(created, accepted or 0, cancelled or 0),
        ),
    )
    return new_id


def seed(ctx: SeedContext) -> None:
    """Invitations in every status: for the workspace list and for the admin's own list."""
    now, rng = ctx.now_ms, ctx.rng
    admin, auditor = ctx.admin_biz_id, ctx.auditor_biz_id
    primary, other = ctx.workspace_biz_id, ctx.other_workspace_biz_id
    emails = [
        "li.wei@example.com",
        "nguyen.an@example.com",
        "tanaka.yui@example.com",
        "maria.garcia@example.com",
        "chen.jia@example.com",
        "olivia.smith@example.com",
    ]
    # The primary workspace: one pending per two of the others, each status present.
    plan = [
        ("PENDING", 2, 5, None),
        ("PENDING", 1, 13, None),
        ("ACCEPTED", 20, -13, 19),
        ("DECLINED", 15, -8, None),
        ("EXPIRED", 40, -33, None),
        ("CANCELLED", 10, -3, None),
    ]
    for (status, age_days, expires_in_days, accepted_days), email in zip(plan, emails, strict=True):
        created = now - age_days * DAY_MS
        insert_invitation(
            ctx.db,
            workspace=primary,
            inviter=admin,
            email=email,
            status=status,
            message=f"Welcome to the team, {email.split('.')[0].title()}!",
            created=created,
            expires=now + expires_in_days * DAY_MS,
            accepted=now - accepted_days * DAY_MS if accepted_days else None,
            cancelled=now - 9 * DAY_MS if status == "CANCELLED" else None,
            reason="Sent to the wrong address" if status == "CANCELLED" else None,
            new_id=biz_id("INV", rng),
        )
    # The admin's own invitations, one in each status, from the auditor's and other workspaces.
    admin_email = str(ctx.db.scalar("SELECT email FROM accounts WHERE biz_id = ?", (admin,)))
    for n, status in enumerate(("PENDING", "ACCEPTED", "DECLINED", "EXPIRED", "CANCELLED")):
        created = now - (n * 7 + 1) * DAY_MS
        insert_invitation(
            ctx.db,
            workspace=other if n % 2 else primary,
            inviter=auditor,
            email=admin_email,
            status=status,
            message=None if n % 2 else "Please join us here as well.",
            created=created,
            expires=now + 6 * DAY_MS if status == "PENDING" else created + 7 * DAY_MS,
            accepted=created + DAY_MS if status == "ACCEPTED" else None,
            cancelled=created + 2 * DAY_MS if status == "CANCELLED" else None,
            reason="No longer needed" if status == "CANCELLED" else None,
            new_id=biz_id("INV", rng),
        )
