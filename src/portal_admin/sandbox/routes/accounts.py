"""Account administration: query, get, status, password reset, update."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Query
from fastapi.responses import JSONResponse

from portal_admin.protocol.bodies import (
    AccountQuery,
    AccountRef,
    AccountSort,
    AccountStatusChange,
    AccountUpdate,
)
from portal_admin.protocol.enums import ACCOUNT_STATUS, ACCOUNT_TRANSITIONS, PORTAL_TYPE
from portal_admin.protocol.errors import Code
from portal_admin.protocol.pages import AccountsPage, ContentPage, account_query
from portal_admin.protocol.records import Account, PasswordResetSent
from portal_admin.protocol.records import AccountStatusChange as StatusChanged

from ..accounts_common import account_record, by_biz_id, reindex_name
from ..deps import Caller, require
from ..errors import ApiError, invalid
from ..paging import order_by, paging
from ..text import TOP, search_key
from ..tokens import SIGNED_IN_STATUSES, end_sessions
from ._route import route
from .passwords import mail_reset_token

router = APIRouter()

#: Sortable fields of the Account record and their (indexed) columns, by wire name.
SORTABLE = {
    Account.model_fields[field].alias or field: column
    for field, column in (
        ("account_email", "email_key"),
        ("account_name", "name_fold"),
        ("created_at", "created_at"),
        ("updated_at", "updated_at"),
        ("biz_id", "biz_id"),
        ("account_status", "status"),
        ("account_portal", "portal"),
    )
}
DEFAULT_ORDER = "created_at DESC, id DESC"


QueryCaller = Annotated[Caller, Depends(require("accounts.query"))]
GetCaller = Annotated[Caller, Depends(require("accounts.get"))]
StatusCaller = Annotated[Caller, Depends(require("accounts.status"))]
ResetCaller = Annotated[Caller, Depends(require("accounts.password_reset"))]
UpdateCaller = Annotated[Caller, Depends(require("accounts.update"))]


#: A one-word name search: the accounts having a word that starts with the text. One row of
#: ``account_words`` per matching account has ``prev_word`` below the text (see
#: ``schema.ACCOUNT_WORDS_TABLE``).
WORDS = "FROM account_words WHERE word >= ? AND word < ? AND prev_word < ?"
WORD_MATCH = f"id IN (SELECT account_id {WORDS})"


def build_filter(body: AccountQuery) -> tuple[str, list[Any]]:
    """The WHERE clause of a query (every condition can use an index)."""
    where: list[str] = []
    params: list[Any] = []
    if body.institution_biz_id:
        where.append("institution_biz_id = ?")
        params.append(body.institution_biz_id)
    # Values of either listing, checked by the model: stored by their codes.
    if body.account_portal is not None:
        where.append("portal = ?")
        params.append(PORTAL_TYPE.code_of(body.account_portal))
    if body.account_status is not None:
        where.append("status = ?")
        params.append(ACCOUNT_STATUS.code_of(body.account_status))
    email = (body.email or "").strip().lower()
    if email:
        where.append("email_key >= ? AND email_key < ?")
        params += [email, email + TOP]
    name = search_key(body.name or "")
    if name and " " in name:
        where.append("name_key >= ? AND name_key < ?")
        params += [name, name + TOP]
    elif name:
        where.append(WORD_MATCH)
        params += [name, name + TOP, name]
    return (" WHERE " + " AND ".join(where)) if where else "", params


def query_sql(body: AccountQuery, sorts: list[str]) -> tuple[str, str, list[Any]]:
    """The page SQL, the count SQL and their parameters (without LIMIT/OFFSET values)."""
    where, params = build_filter(body)
    order = order_by(sorts, SORTABLE, default=DEFAULT_ORDER, tiebreak="id")
    page_sql = f"SELECT * FROM accounts{where} {order} LIMIT ? OFFSET ?"  # noqa: S608
    count_sql = f"SELECT count(*) FROM accounts{where}"  # noqa: S608
    if where != " WHERE " + WORD_MATCH:
        return page_sql, count_sql, params
    # The name filter alone: the word table answers the total, and a page in name order
    # (account_words keeps name_fold), without reading the accounts that match; only the
    # page's rows are read.
    count_sql = f"SELECT count(*) {WORDS}"
    for d in ("ASC", "DESC"):
        if order == f"ORDER BY name_fold {d}, id {d}":
            page_sql = (
                f"SELECT accounts.* FROM (SELECT name_fold, account_id {WORDS}"  # noqa: S608
                f" ORDER BY name_fold {d}, account_id {d} LIMIT ? OFFSET ?) AS page"
                " JOIN accounts ON accounts.id = page.account_id"
                f" ORDER BY page.name_fold {d}, page.account_id {d}"
            )
    return page_sql, count_sql, params


@route(router, "accounts.query", AccountsPage[Account] | ContentPage[Account])
async def query(
    caller: QueryCaller,
    body: Annotated[AccountQuery | None, Body()] = None,
    sort: Annotated[
        list[AccountSort] | None, Query(description="Repeatable; body sorts follow.")
    ] = None,
) -> JSONResponse:
    """Filtered, sorted, paged accounts (the sandbox serves one of the two shapes, chosen by
    ``account_query_shape``)."""
    ctx = caller.ctx
    body = body or AccountQuery()
    page = paging(body.page, body.size)
    sorts = list(sort or [])
    if isinstance(body.sort, str):
        sorts.append(body.sort)
    elif body.sort:
        sorts.extend(body.sort)
    page_sql, count_sql, params = query_sql(body, sorts)
    total = int(ctx.db.scalar(count_sql, params) or 0)
    rows = ctx.db.query(page_sql, [*params, page.size, page.offset]) if total else []
    items = [account_record(ctx, r) for r in rows]
    return caller.ok(
        account_query(
            items,
            number=page.number,
            size=page.size,
            total=total,
            shape=ctx.config.account_query_shape,
        )
    )


@route(router, "accounts.get", Account)
async def get_account(userBizId: str, caller: GetCaller) -> JSONResponse:
    """One account (404 RESOURCE.NOT_FOUND when unknown)."""
    row = by_biz_id(caller.db, userBizId)
    if row is None:
        raise ApiError(Code.NOT_FOUND)
    return caller.ok(account_record(caller.ctx, row))


@route(router, "accounts.status", StatusChanged)
async def change_status(
    caller: StatusCaller, body: Annotated[AccountStatusChange, Body()]
) -> JSONResponse:
    """ACTIVATE, SUSPEND or DEACTIVATE an account, along ACCOUNT_TRANSITIONS."""
    action = body.action.strip().upper()
    row = by_biz_id(caller.db, body.user_biz_id)
    if row is None:
        raise ApiError(Code.NOT_FOUND)
    if row["biz_id"] == caller.principal.account_biz_id:
        raise invalid("an administrator cannot change the status of their own account")
    target = ACCOUNT_TRANSITIONS.get(row["status"], {}).get(action)
    if target is None:
        raise invalid(f"{action[:32]} is not allowed from {row['status']}")
    now = caller.ctx.now_ms()
    caller.db.execute(
        "UPDATE accounts SET status = ?, updated_at = ?,"
        " pending_approval = CASE WHEN ? = 'ACTIVE' THEN 0 ELSE pending_approval END"
        " WHERE biz_id = ?",
        (target, now, target, row["biz_id"]),
    )
    if target not in SIGNED_IN_STATUSES:
        end_sessions(caller.ctx.state, row["biz_id"], "ACCOUNT_" + target)
    return caller.ok(
        StatusChanged.wire(
            user_biz_id=row["biz_id"], email=row["email"], display_name=row["name"], status=target
        )
    )


@route(router, "accounts.password_reset", PasswordResetSent)
async def admin_password_reset(
    caller: ResetCaller, body: Annotated[AccountRef, Body()]
) -> JSONResponse:
    """Mail a password reset link to an account."""
    row = by_biz_id(caller.db, body.user_biz_id)
    if row is None:
        raise ApiError(Code.NOT_FOUND)
    with caller.db.transaction() as db:
        mail_reset_token(db, caller.ctx.now(), row["biz_id"], row["email"])
    return caller.ok(
        PasswordResetSent.wire(user_biz_id=row["biz_id"], email=row["email"], sent=True)
    )


@route(router, "accounts.update", Account)
async def update(caller: UpdateCaller, body: Annotated[AccountUpdate, Body()]) -> JSONResponse:
    """Change an account's name, phone, remark or defaults; answers the updated Account."""
    row = by_biz_id(caller.db, body.user_biz_id)
    if row is None:
        raise ApiError(Code.NOT_FOUND)
    columns = {  # attribute: column
        "account_name": "name",
        "account_phone": "phone",
        "account_remark": "remark",
        "default_language": "default_language",
        "default_timezone": "default_timezone",
        "default_country": "default_country",
    }
    changes: dict[str, Any] = {}
    for field, column in columns.items():
        if field not in body.model_fields_set:
            continue
        value = getattr(body, field)
        wire = AccountUpdate.model_fields[field].alias
        if value is None and field != "account_remark":
            raise invalid(f"{wire} cannot be null")
        if isinstance(value, str) and field != "account_remark":
            value = value.strip()
            if field == "account_name" and not value:
                raise invalid("accountName cannot be blank")
        changes[column] = value
    with caller.db.transaction() as db:
        if changes:
            if "name" in changes:
                changes["name_key"] = search_key(changes["name"])
                changes["name_fold"] = changes["name"].casefold()
                reindex_name(db, int(row["id"]), changes["name"], changes["name_fold"])
            changes["updated_at"] = caller.ctx.now_ms()
            assignments = ", ".join(f"{c} = ?" for c in changes)
            db.execute(
                f"UPDATE accounts SET {assignments} WHERE biz_id = ?",  # noqa: S608
                [*changes.values(), row["biz_id"]],
            )
        fresh = by_biz_id(db, row["biz_id"])
    assert fresh is not None
    return caller.ok(account_record(caller.ctx, fresh))
