"""The notifications area (section 4.7): channel types, channels, and mail-server checks.

Every mutation answers 400 VALIDATION.INVALID_PARAMETER for an empty body. Targets are named
by ``bizId`` in the body; an unknown one is 400 VALIDATION.INVALID_PARAMETER, as the
specification states for invitation ids in bodies. Secrets in channel settings (keys such as
``password``, ``apiKey``, ``secret``, ``token``) are never answered in clear: they read
``********``, and an update that sends ``********`` back keeps the stored secret. Record
shapes and settings are described in docs/sandbox-areas.md.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Query
from fastapi.responses import JSONResponse

from portal_admin.protocol.bodies import (
    MAX_PAGE,
    ById,
    ChannelCreate,
    ChannelQuery,
    ChannelTypeCreate,
    ChannelTypeQuery,
    ChannelTypeUpdate,
    ChannelUpdate,
    ImapCheck,
    MailServer,
    SmtpCheck,
    SmtpServer,
)
from portal_admin.protocol.enums import CHANNEL_STATUS, CHANNEL_TYPE, CHANNEL_TYPE_STATUS
from portal_admin.protocol.pages import PageA, shape_a
from portal_admin.protocol.records import Channel, ChannelType, EnumItem, MailServerCheck

from ..bodies import parse
from ..clock import iso
from ..db import Database
from ..deps import Caller, Ctx, require
from ..errors import invalid
from ..localize import enum_item
from ..paging import Paging, one_based_paging
from ._channel_settings import check_config, mask, unmask
from ._channel_store import FIRST_CUSTOM_TYPE_VALUE, insert_channel, insert_type, seed
from ._route import route

router = APIRouter()

SCHEMA = """
CREATE TABLE IF NOT EXISTS notification_channel_types (
    biz_id           TEXT PRIMARY KEY,
    type_code        TEXT NOT NULL UNIQUE,
    type_value       INTEGER NOT NULL UNIQUE,
    type_name        TEXT NOT NULL,
    type_description TEXT NOT NULL DEFAULT '',
    status           TEXT NOT NULL,             -- CHANNEL_TYPE_STATUS code
    display_order    INTEGER NOT NULL,
    icon_url         TEXT,
    extra_config     TEXT,                      -- JSON object or NULL
    created_at       INTEGER NOT NULL,
    updated_at       INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS notification_channels (
    biz_id             TEXT PRIMARY KEY,
    institution_biz_id TEXT NOT NULL,
    channel_name       TEXT NOT NULL,
    type_code          TEXT NOT NULL,           -- notification_channel_types.type_code
    status             TEXT NOT NULL,           -- CHANNEL_STATUS code
    config             TEXT NOT NULL,           -- JSON object, secrets in clear (sandbox only)
    is_default         INTEGER NOT NULL DEFAULT 0,
    description        TEXT,
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS ix_channels_institution
    ON notification_channels (institution_biz_id, type_code);
"""


def _dep(op: str) -> Any:
    return Depends(require(f"notifications.{op}"))


# -- channel types ---------------------------------------------------------------------------


def type_record(ctx: Ctx, row: Any) -> dict[str, Any]:
    """The wire form of a channel-type row."""
    extra = json.loads(row["extra_config"]) if row["extra_config"] else None
    return ChannelType.wire(
        biz_id=row["biz_id"],
        type_code=row["type_code"],
        type_value=int(row["type_value"]),
        type_name=row["type_name"],
        type_description=row["type_description"],
        type_status=ctx.item(CHANNEL_TYPE_STATUS, row["status"]),
        display_order=int(row["display_order"]),
        icon_url=row["icon_url"],
        extra_config=extra,
        created_at=iso(row["created_at"]),
        updated_at=iso(row["updated_at"]),
        enabled=row["status"] == "ENABLED",
    )


def _type_row(db: Database, type_id: str) -> Any:
    row = db.one("SELECT * FROM notification_channel_types WHERE biz_id = ?", (type_id,))
    if row is None:
        raise invalid("unknown bizId")
    return row


def _type_by_category(db: Database, category: int | str) -> Any:
    """The channel type a ``channelCategory`` names: its value, or its code (any case)."""
    if isinstance(category, int):
        row = db.one("SELECT * FROM notification_channel_types WHERE type_value = ?", (category,))
    else:
        row = db.one(
            "SELECT * FROM notification_channel_types WHERE type_code = ?",
            (category.strip().upper(),),
        )
    if row is None:
        raise invalid("channelCategory is not a known channel type")
    return row


def _paging(body: ChannelTypeQuery | ChannelQuery, page: Page, size: Size) -> Paging:
    """The body's page and size, else the query string's."""
    return one_based_paging(
        body.page if body.page is not None else page, body.size if body.size is not None else size
    )


def _json(value: dict[str, Any] | None) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False)


#: Page and size in the query string (the body's win).
Page = Annotated[int | None, Query(ge=0, le=MAX_PAGE, description="1-based (0 reads as 1).")]
Size = Annotated[int | None, Query(ge=1, description="Default 20; above 100 reads as 100.")]


@route(router, "notifications.channel_types_query", PageA[ChannelType])
async def query_types(
    caller: Annotated[Caller, _dep("channel_types_query")],
    body: Annotated[ChannelTypeQuery | None, Body()] = None,
    page: Page = None,
    size: Size = None,
) -> JSONResponse:
    """Channel types by display order: ``{bizId, typeCode, typeStatus, enabledOnly, page,
    size}``, every filter optional (an empty body lists them all)."""
    body = body or ChannelTypeQuery()
    paged = _paging(body, page, size)
    where, params = ["1 = 1"], []
    if body.biz_id is not None:
        where.append("biz_id = ?")
        params.append(body.biz_id)
    if body.type_code is not None:
        where.append("type_code = ?")
        params.append(body.type_code.upper())
    if body.type_status is not None:
        where.append("status = ?")
        params.append(CHANNEL_TYPE_STATUS.code_of(body.type_status) or "")
    if body.enabled_only:
        where.append("status = 'ENABLED'")
    clause = " AND ".join(where)
    total = int(
        caller.db.scalar(f"SELECT COUNT(*) FROM notification_channel_types WHERE {clause}", params)  # noqa: S608
    )
    rows = caller.db.query(
        f"SELECT * FROM notification_channel_types WHERE {clause}"  # noqa: S608
        " ORDER BY display_order, type_code LIMIT ? OFFSET ?",
        [*params, paged.size, paged.offset],
    )
    items = [type_record(caller.ctx, r) for r in rows]
    return caller.ok(shape_a(items, number=paged.number, size=paged.size, total=total))


#: Type values have eight digits.
MAX_TYPE_VALUE = 99_999_999


def next_type_value(db: Database) -> int:
    """The default typeValue of a new channel type: one above the highest in use (at least
    ``FIRST_CUSTOM_TYPE_VALUE``); once that would need nine digits, the lowest free value from
    ``FIRST_CUSTOM_TYPE_VALUE`` on."""
    highest = int(db.scalar("SELECT COALESCE(MAX(type_value), 0) FROM notification_channel_types"))
    if highest < MAX_TYPE_VALUE:
        return max(FIRST_CUSTOM_TYPE_VALUE, highest + 1)
    free = db.scalar(
        "SELECT MIN(v) FROM (SELECT ? AS v UNION ALL SELECT type_value + 1"
        " FROM notification_channel_types WHERE type_value >= ?) AS candidates"
        " WHERE v <= ? AND NOT EXISTS"
        " (SELECT 1 FROM notification_channel_types WHERE type_value = candidates.v)",
        (FIRST_CUSTOM_TYPE_VALUE, FIRST_CUSTOM_TYPE_VALUE, MAX_TYPE_VALUE),
    )
    if free is None:
        raise invalid("no typeValue is free: give one")
    return int(free)


@route(router, "notifications.channel_types_create", ChannelType)
async def create_type(
    caller: Annotated[Caller, _dep("channel_types_create")],
    body: Annotated[ChannelTypeCreate, Body()],
) -> JSONResponse:
    """Create a channel type: ``{typeCode, typeName, typeValue?, typeDescription?,
    displayOrder?, iconUrl?, extraConfig?, typeStatus?}``."""
    code, value, order = body.type_code.upper(), body.type_value, body.display_order
    db, now = caller.db, caller.ctx.now_ms()
    with db.transaction():
        if db.scalar("SELECT 1 FROM notification_channel_types WHERE type_code = ?", (code,)):
            raise invalid("typeCode is already in use")
        if value is None:
            value = next_type_value(db)
        elif db.scalar("SELECT 1 FROM notification_channel_types WHERE type_value = ?", (value,)):
            raise invalid("typeValue is already in use")
        if order is None:
            highest = db.scalar(
                "SELECT COALESCE(MAX(display_order), 0) FROM notification_channel_types"
            )
            order = int(highest) + 1
        status = body.type_status or "ENABLED"
        description = body.type_description or ""
        icon = body.icon_url or None
        new_id = insert_type(db, code, value, body.type_name, description, status, order, icon, now)
        if body.extra_config is not None:
            db.execute(
                "UPDATE notification_channel_types SET extra_config = ? WHERE biz_id = ?",
                (_json(body.extra_config), new_id),
            )
    return caller.ok(type_record(caller.ctx, _type_row(db, new_id)))


@route(router, "notifications.channel_types_update", ChannelType)
async def update_type(
    caller: Annotated[Caller, _dep("channel_types_update")],
    body: Annotated[ChannelTypeUpdate, Body()],
) -> JSONResponse:
    """Change a channel type: ``{bizId, typeName?, typeDescription?, displayOrder?, iconUrl?,
    extraConfig?}``; typeCode and typeValue cannot change."""
    db, sent = caller.db, body.model_fields_set
    row = _type_row(db, body.biz_id)
    if "type_code" in sent and (body.type_code or "").upper() != row["type_code"]:
        raise invalid("typeCode cannot change")
    if "type_value" in sent and body.type_value != row["type_value"]:
        raise invalid("typeValue cannot change")
    for name in ("type_name", "display_order"):
        if name in sent and getattr(body, name) is None:
            raise invalid(f"{ChannelTypeUpdate.model_fields[name].alias} cannot be null")
    changes = {
        column: value
        for column, value, given in (
            ("type_name", body.type_name, "type_name" in sent),
            ("type_description", body.type_description or "", "type_description" in sent),
            ("display_order", body.display_order, "display_order" in sent),
            ("icon_url", body.icon_url or None, "icon_url" in sent),
            ("extra_config", _json(body.extra_config), "extra_config" in sent),
        )
        if given
    }
    _update(db, "notification_channel_types", body.biz_id, changes, caller.ctx.now_ms())
    return caller.ok(type_record(caller.ctx, _type_row(db, body.biz_id)))


def _update(db: Database, table: str, row_id: str, changes: dict[str, Any], now: int) -> None:
    """UPDATE trusted column names of one row, and its updated_at."""
    columns = ", ".join(f"{name} = ?" for name in (*changes, "updated_at"))
    db.execute(
        f"UPDATE {table} SET {columns} WHERE biz_id = ?",  # noqa: S608 - trusted names
        (*changes.values(), now, row_id),
    )


def _set_type_status(caller: Caller, body: ById, status: str) -> JSONResponse:
    _type_row(caller.db, body.biz_id)
    now = caller.ctx.now_ms()
    _update(caller.db, "notification_channel_types", body.biz_id, {"status": status}, now)
    return caller.ok(type_record(caller.ctx, _type_row(caller.db, body.biz_id)))


@route(router, "notifications.channel_types_enable", ChannelType)
async def enable_type(
    caller: Annotated[Caller, _dep("channel_types_enable")], body: Annotated[ById, Body()]
) -> JSONResponse:
    """Enable a channel type: ``{bizId}`` (idempotent)."""
    return _set_type_status(caller, body, "ENABLED")


@route(router, "notifications.channel_types_disable", ChannelType)
async def disable_type(
    caller: Annotated[Caller, _dep("channel_types_disable")], body: Annotated[ById, Body()]
) -> JSONResponse:
    """Disable a channel type: ``{bizId}`` (idempotent); its channels stay as they are."""
    return _set_type_status(caller, body, "DISABLED")


@route(router, "notifications.channel_types_delete")
async def delete_type(
    caller: Annotated[Caller, _dep("channel_types_delete")], body: Annotated[ById, Body()]
) -> JSONResponse:
    """Delete a channel type no channel uses: ``{bizId}``; answers data null."""
    db = caller.db
    with db.transaction():
        row = _type_row(db, body.biz_id)
        if db.scalar(
            "SELECT 1 FROM notification_channels WHERE type_code = ?", (row["type_code"],)
        ):
            raise invalid("channels of this type exist: delete them first")
        db.execute("DELETE FROM notification_channel_types WHERE biz_id = ?", (body.biz_id,))
    return caller.ok(None)


# -- channels --------------------------------------------------------------------------------


def category_item(ctx: Ctx, type_row: Any) -> dict[str, Any]:
    """A channel's category as an enum item: a built-in type's localized label, else the
    type's own name."""
    code, value = type_row["type_code"], int(type_row["type_value"])
    if CHANNEL_TYPE.by_code(code) is not None:
        return enum_item(CHANNEL_TYPE, code, ctx.lang, value)
    return EnumItem.wire(
        code=code,
        value=value,
        label=type_row["type_name"],
        description=type_row["type_description"],
    )


def channel_record(ctx: Ctx, row: Any) -> dict[str, Any]:
    """The wire form of a channel row joined with its type (``t_*`` columns)."""
    type_row = {
        "type_code": row["type_code"],
        "type_value": row["t_value"],
        "type_name": row["t_name"],
        "type_description": row["t_description"],
    }
    return Channel.wire(
        biz_id=row["biz_id"],
        institution_biz_id=row["institution_biz_id"],
        channel_name=row["channel_name"],
        channel_category=category_item(ctx, type_row),
        channel_status=ctx.item(CHANNEL_STATUS, row["status"]),
        active=row["status"] == "ACTIVE",
        is_default=bool(row["is_default"]),
        description=row["description"],
        config=mask(json.loads(row["config"])),
        created_at=iso(row["created_at"]),
        updated_at=iso(row["updated_at"]),
    )


_CHANNELS = (
    "SELECT c.*, t.type_value AS t_value, t.type_name AS t_name,"
    " t.type_description AS t_description FROM notification_channels c"
    " JOIN notification_channel_types t ON t.type_code = c.type_code"
)


def _channel_row(db: Database, channel_id: str) -> Any:
    row = db.one(_CHANNELS + " WHERE c.biz_id = ?", (channel_id,))
    if row is None:
        raise invalid("unknown bizId")
    return row


def _institution(caller: Caller, given: str | None) -> str:
    if given:
        if not caller.db.scalar("SELECT 1 FROM institutions WHERE biz_id = ?", (given,)):
            raise invalid("institutionBizId is not a known institution")
        return given
    return str(
        caller.db.scalar(
            "SELECT institution_biz_id FROM accounts WHERE biz_id = ?",
            (caller.principal.account_biz_id,),
        )
    )


def _clear_other_defaults(db: Database, institution: str, type_code: str, keep: str) -> None:
    db.execute(
        "UPDATE notification_channels SET is_default = 0 WHERE institution_biz_id = ?"
        " AND type_code = ? AND biz_id <> ?",
        (institution, type_code, keep),
    )


@route(router, "notifications.channels_query", PageA[Channel])
async def query_channels(
    caller: Annotated[Caller, _dep("channels_query")],
    body: Annotated[ChannelQuery | None, Body()] = None,
    page: Page = None,
    size: Size = None,
) -> JSONResponse:
    """Channels, newest first: ``{bizId, institutionBizId, channelCategory, channelStatus,
    activeOnly, page, size}``, every filter optional."""
    body = body or ChannelQuery()
    paged = _paging(body, page, size)
    where, params = ["1 = 1"], []
    if body.biz_id is not None:
        where.append("c.biz_id = ?")
        params.append(body.biz_id)
    if body.institution_biz_id is not None:
        where.append("c.institution_biz_id = ?")
        params.append(body.institution_biz_id)
    if body.channel_category is not None:
        where.append("c.type_code = ?")
        params.append(_type_by_category(caller.db, body.channel_category)["type_code"])
    if body.channel_status is not None:
        where.append("c.status = ?")
        params.append(body.channel_status)
    if body.active_only:
        where.append("c.status = 'ACTIVE'")
    clause = " AND ".join(where)
    total = int(
        caller.db.scalar(f"SELECT COUNT(*) FROM notification_channels c WHERE {clause}", params)  # noqa: S608
    )
    rows = caller.db.query(
        f"{_CHANNELS} WHERE {clause} ORDER BY c.created_at DESC, c.biz_id LIMIT ? OFFSET ?",
        [*params, paged.size, paged.offset],
    )
    items = [channel_record(caller.ctx, r) for r in rows]
    return caller.ok(shape_a(items, number=paged.number, size=paged.size, total=total))


@route(router, "notifications.channels_create", Channel)
async def create_channel(
    caller: Annotated[Caller, _dep("channels_create")],
    body: Annotated[ChannelCreate, Body()],
) -> JSONResponse:
    """Create a channel: ``{channelName, channelCategory, config, institutionBizId?,
    isDefault?, channelStatus?, description?}``; its type must be enabled."""
    type_row = _type_by_category(caller.db, body.channel_category)
    if type_row["status"] != "ENABLED":
        raise invalid("the channel type is disabled")
    config = check_config(type_row["type_code"], unmask(body.config, None))
    institution = _institution(caller, body.institution_biz_id)
    is_default = bool(body.is_default)
    db, now = caller.db, caller.ctx.now_ms()
    with db.transaction():
        new_id = insert_channel(
            db,
            institution,
            body.channel_name,
            type_row["type_code"],
            body.channel_status or "ACTIVE",
            config,
            is_default,
            body.description,
            now,
        )
        if is_default:
            _clear_other_defaults(db, institution, type_row["type_code"], new_id)
    return caller.ok(channel_record(caller.ctx, _channel_row(db, new_id)))


@route(router, "notifications.channels_update", Channel)
async def update_channel(
    caller: Annotated[Caller, _dep("channels_update")],
    body: Annotated[ChannelUpdate, Body()],
) -> JSONResponse:
    """Change a channel: ``{bizId, channelName?, config?, isDefault?, description?}``.

    ``config`` replaces the settings whole; masked secrets keep their stored values. The
    category and the institution cannot change.
    """
    db, sent = caller.db, body.model_fields_set
    row = _channel_row(db, body.biz_id)
    if body.channel_category is not None:
        wanted = _type_by_category(db, body.channel_category)
        if wanted["type_code"] != row["type_code"]:
            raise invalid("channelCategory cannot change")
    changes: dict[str, Any] = {}
    if "channel_name" in sent:
        if body.channel_name is None:
            raise invalid("channelName cannot be null")
        changes["channel_name"] = body.channel_name
    if "description" in sent:
        changes["description"] = body.description
    if "config" in sent:
        merged = unmask(body.config, json.loads(row["config"]))
        changes["config"] = json.dumps(check_config(row["type_code"], merged), ensure_ascii=False)
    if "is_default" in sent:
        changes["is_default"] = int(bool(body.is_default))
    with db.transaction():
        _update(db, "notification_channels", body.biz_id, changes, caller.ctx.now_ms())
        if changes.get("is_default"):
            _clear_other_defaults(db, row["institution_biz_id"], row["type_code"], body.biz_id)
    return caller.ok(channel_record(caller.ctx, _channel_row(db, body.biz_id)))


def _set_channel_status(caller: Caller, body: ById, status: str) -> JSONResponse:
    _channel_row(caller.db, body.biz_id)
    now = caller.ctx.now_ms()
    _update(caller.db, "notification_channels", body.biz_id, {"status": status}, now)
    return caller.ok(channel_record(caller.ctx, _channel_row(caller.db, body.biz_id)))


@route(router, "notifications.channels_activate", Channel)
async def activate_channel(
    caller: Annotated[Caller, _dep("channels_activate")], body: Annotated[ById, Body()]
) -> JSONResponse:
    """Activate a channel: ``{bizId}`` (idempotent)."""
    return _set_channel_status(caller, body, "ACTIVE")


@route(router, "notifications.channels_deactivate", Channel)
async def deactivate_channel(
    caller: Annotated[Caller, _dep("channels_deactivate")], body: Annotated[ById, Body()]
) -> JSONResponse:
    """Deactivate a channel: ``{bizId}`` (idempotent)."""
    return _set_channel_status(caller, body, "INACTIVE")


@route(router, "notifications.channels_delete")
async def delete_channel(
    caller: Annotated[Caller, _dep("channels_delete")], body: Annotated[ById, Body()]
) -> JSONResponse:
    """Delete a channel: ``{bizId}``; answers data null."""
    _channel_row(caller.db, body.biz_id)
    caller.db.execute("DELETE FROM notification_channels WHERE biz_id = ?", (body.biz_id,))
    return caller.ok(None)


# -- mail-server checks ------------------------------------------------------------------------


def _validate(caller: Caller, body: ImapCheck, protocol: str) -> JSONResponse:
    """Check mail-server settings without contacting any server.

    Body: the settings (``host, port, security, username?, password?``, and ``fromAddress``
    for SMTP), or ``channelBizId`` of an EMAIL channel whose stored settings fill in what the
    body leaves out or masks. Shape errors give 400; a well-formed request answers
    ``{valid, protocol, host, port, security, message, checkedAt}``, where ``valid`` is false
    exactly when the host name ends with ``.invalid`` (RFC 2606: never resolvable).
    """
    stored: dict[str, Any] = {}
    if body.channel_biz_id:
        row = _channel_row(caller.db, body.channel_biz_id)
        if row["type_code"] != "EMAIL":
            raise invalid("channelBizId is not an email channel")
        config = json.loads(row["config"])
        stored = config if protocol == "SMTP" else (config.get("imap") or {})
    given = body.model_dump(by_alias=True, exclude_unset=True, exclude={"channel_biz_id"})
    if not given and not stored:
        raise invalid("the body is empty")
    merged = unmask({**stored, **given}, stored)
    checked = parse(SmtpServer if protocol == "SMTP" else MailServer, merged)
    host = checked.host
    valid = not host.lower().rstrip(".").endswith(".invalid")
    message = (
        f"{protocol} server {host}:{checked.port} accepted the connection and the sign-in"
        if valid
        else f"Could not connect to {protocol} server {host}:{checked.port}"
    )
    return caller.ok(
        MailServerCheck.wire(
            valid=valid,
            protocol=protocol,
            host=host,
            port=checked.port,
            security=checked.security,
            message=message,
            checked_at=iso(caller.ctx.now_ms()),
        )
    )


@route(router, "notifications.validate_smtp", MailServerCheck)
async def validate_smtp(
    caller: Annotated[Caller, _dep("validate_smtp")], body: Annotated[SmtpCheck, Body()]
) -> JSONResponse:
    """Check SMTP settings (see ``_validate``)."""
    return _validate(caller, body, "SMTP")


@route(router, "notifications.validate_imap", MailServerCheck)
async def validate_imap(
    caller: Annotated[Caller, _dep("validate_imap")], body: Annotated[ImapCheck, Body()]
) -> JSONResponse:
    """Check IMAP settings (see ``_validate``)."""
    return _validate(caller, body, "IMAP")


__all__ = ["SCHEMA", "router", "seed"]
