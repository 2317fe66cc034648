"""The portals area (section 4.8): create an institution portal.

Errors use the numeric codes the specification gives for this operation: ``4000`` for a
missing or invalid field (portalType, domain, remark, institutionBizId, malformed body),
``4040`` for an unknown institution; ``4010`` and ``ACCESS.*`` come from the shared
authentication. The specification offers no list operation; portals are seeded for the demo.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends
from fastapi.responses import JSONResponse

from portal_admin.protocol.bodies import PortalCreate
from portal_admin.protocol.enums import PORTAL_STATUS, PORTAL_TYPE
from portal_admin.protocol.errors import Code
from portal_admin.protocol.records import Portal

from ..clock import iso
from ..deps import Caller, require
from ..errors import ApiError
from ..state import SeedContext
from ._route import route

router = APIRouter()

SCHEMA = """
CREATE TABLE IF NOT EXISTS portals (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    institution_biz_id TEXT NOT NULL,
    portal_type        INTEGER NOT NULL,    -- the value as sent (either PORTAL_TYPE listing)
    domain             TEXT NOT NULL,
    portal_status      INTEGER NOT NULL,    -- PORTAL_STATUS value
    remark             TEXT,
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS ix_portals_institution ON portals (institution_biz_id, id);
"""


def portal_record(row: Any) -> dict[str, Any]:
    """The wire form of a ``portals`` row."""
    return Portal.wire(
        id=int(row["id"]),
        institution_biz_id=row["institution_biz_id"],
        portal_type=int(row["portal_type"]),
        domain=row["domain"],
        portal_status=int(row["portal_status"]),
        remark=row["remark"],
        created_at=iso(row["created_at"]),
        updated_at=iso(row["updated_at"]),
    )


def _institution(caller: Caller, given: str | None) -> str:
    if given:
        found = caller.db.scalar("SELECT biz_id FROM institutions WHERE biz_id = ?", (given,))
        if found is None:
            raise ApiError(Code.NOT_FOUND_NUMERIC, "institution not found")
        return given
    own = caller.db.scalar(
        "SELECT institution_biz_id FROM accounts WHERE biz_id = ?",
        (caller.principal.account_biz_id,),
    )
    if (
        own is None
        or caller.db.scalar("SELECT biz_id FROM institutions WHERE biz_id = ?", (own,)) is None
    ):
        raise ApiError(Code.NOT_FOUND_NUMERIC, "institution not found")
    return str(own)


def insert_portal(
    db: Any, institution: str, portal_type: int, domain: str, remark: str | None, now_ms: int
) -> int:
    """Store a new ACTIVE portal; returns its id."""
    cur = db.execute(
        "INSERT INTO portals (institution_biz_id, portal_type, domain, portal_status, remark,"
        " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            institution,
            portal_type,
            domain,
            PORTAL_STATUS.value_of("ACTIVE"),
            remark,
            now_ms,
            now_ms,
        ),
    )
    return int(cur.lastrowid or 0)


@route(router, "portals.create", Portal)
async def create_portal(
    caller: Annotated[Caller, Depends(require("portals.create"))],
    body: Annotated[PortalCreate, Body()],
) -> JSONResponse:
    """Create a portal: ``{portalType, domain, remark?, institutionBizId?}``."""
    institution = _institution(caller, body.institution_biz_id)
    portal_type, domain, remark = body.portal_type, body.domain, body.remark
    now = caller.ctx.now_ms()
    portal_id = insert_portal(caller.db, institution, portal_type, domain, remark, now)
    row = caller.db.one("SELECT * FROM portals WHERE id = ?", (portal_id,))
    return caller.ok(portal_record(row))


def seed(ctx: SeedContext) -> None:
    """A few portals per institution, of every type."""
    platform, *tenants = ctx.institution_biz_ids
    rows: list[tuple[str, int, str, str | None]] = [
        (platform, 10010101, "admin.sandbox.test", "The system portal"),
        (platform, PORTAL_TYPE.value_of("PARTNER"), "partners.sandbox.test", None),
    ]
    for n, tenant in enumerate(tenants, start=1):
        rows.append((tenant, 10010102, f"tenant{n}.sandbox.test", f"Tenant portal {n}"))
        rows.append((tenant, PORTAL_TYPE.value_of("CONSUMER"), f"shop{n}.sandbox.test", None))
    for index, (institution, kind, domain, remark) in enumerate(rows):
        created = ctx.now_ms - (len(rows) - index) * 86_400_000
        insert_portal(ctx.db, institution, kind, domain, remark, created)
