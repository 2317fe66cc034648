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

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from portal_admin.protocol.enums import CHANNEL_STATUS, CHANNEL_TYPE, CHANNEL_TYPE_STATUS
from portal_admin.protocol.operations import OPERATIONS
from portal_admin.protocol.pages import shape_a

from ..clock import iso
from ..db import Database
from ..deps import Caller, Ctx, require
from ..errors import invalid
from ..localize import enum_item
from ._channel_settings import (
    MAX_CONFIG,
    MAX_DESCRIPTION,
    MAX_NAME,
    TYPE_CODE,
    URL,
    check_config,
    mail_server,
    mask,
    unmask,
)
from ._channel_store import FIRST_CUSTOM_TYPE_VALUE, insert_channel, insert_type, seed
from ._fields import (
    Body,
    as_int,
    enum_code,
    get_bool,
    get_id,
    get_int,
    get_str,
    object_body,
    one_based_paging,
)

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
    return {
        "bizId": row["biz_id"],
        "typeCode": row["type_code"],
        "typeValue": int(row["type_value"]),
        "typeName": row["type_name"],
        "typeDescription": row["type_description"],
        "typeStatus": ctx.item(CHANNEL_TYPE_STATUS, row["status"]),
        "displayOrder": int(row["display_order"]),
        "iconUrl": row["icon_url"],
        "extraConfig": extra,
        "createdAt": iso(row["created_at"]),
        "updatedAt": iso(row["updated_at"]),
        "enabled": row["status"] == "ENABLED",
    }


def _type_row(db: Database, type_id: str) -> Any:
    row = db.one("SELECT * FROM notification_channel_types WHERE biz_id = ?", (type_id,))
    if row is None:
        raise invalid("unknown bizId")
    return row


def _type_by_category(db: Database, raw: Any) -> Any:
    """The channel type a ``channelCategory`` names: its code, or its value."""
    number = as_int(raw)
    if number is not None:
        row = db.one("SELECT * FROM notification_channel_types WHERE type_value = ?", (number,))
    elif isinstance(raw, str) and raw.strip():
        row = db.one(
            "SELECT * FROM notification_channel_types WHERE type_code = ?", (raw.strip().upper(),)
        )
    else:
        raise invalid("channelCategory must be a channel type code or value")
    if row is None:
        raise invalid("channelCategory is not a known channel type")
    return row


def _paging(request: Request, body: Body) -> Any:
    q = request.query_params
    return one_based_paging(body.get("page", q.get("page")), body.get("size", q.get("size")))


def _extra_config(body: Body) -> str | None:
    extra = body.get("extraConfig")
    if extra is None:
        return None
    if not isinstance(extra, dict) or len(json.dumps(extra)) > MAX_CONFIG:
        raise invalid("extraConfig must be an object of at most 8000 characters")
    return json.dumps(extra, ensure_ascii=False)


def _icon_url(body: Body) -> str | None:
    url = get_str(body, "iconUrl", max_len=500)
    if url and not URL.match(url):
        raise invalid("iconUrl must be an http or https URL")
    return url or None


@router.post(OPERATIONS["notifications.channel_types_query"].path)
async def query_types(
    request: Request,
    caller: Annotated[Caller, _dep("channel_types_query")],
) -> JSONResponse:
    """Channel types by display order: ``{bizId, typeCode, typeStatus, enabledOnly, page,
    size}``, every filter optional (an empty body lists them all)."""
    body = await object_body(request, allow_empty=True)
    page = _paging(request, body)
    where, params = ["1 = 1"], []
    if (value := get_str(body, "bizId", max_len=64)) is not None:
        where.append("biz_id = ?")
        params.append(value)
    if (value := get_str(body, "typeCode", max_len=32)) is not None:
        where.append("type_code = ?")
        params.append(value.upper())
    type_status = get_int(body, "typeStatus")  # "integer or null" (section 4.7)
    if (status := enum_code(CHANNEL_TYPE_STATUS, type_status, "typeStatus")) is not None:
        where.append("status = ?")
        params.append(status)
    if get_bool(body, "enabledOnly"):
        where.append("status = 'ENABLED'")
    clause = " AND ".join(where)
    total = int(
        caller.db.scalar(f"SELECT COUNT(*) FROM notification_channel_types WHERE {clause}", params)  # noqa: S608
    )
    rows = caller.db.query(
        f"SELECT * FROM notification_channel_types WHERE {clause}"  # noqa: S608
        " ORDER BY display_order, type_code LIMIT ? OFFSET ?",
        [*params, page.size, page.offset],
    )
    items = [type_record(caller.ctx, r) for r in rows]
    return caller.ok(shape_a(items, number=page.number, size=page.size, total=total))


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


@router.post(OPERATIONS["notifications.channel_types_create"].path)
async def create_type(
    request: Request, caller: Annotated[Caller, _dep("channel_types_create")]
) -> JSONResponse:
    """Create a channel type: ``{typeCode, typeName, typeValue?, typeDescription?,
    displayOrder?, iconUrl?, extraConfig?, typeStatus?}``."""
    body = await object_body(request)
    code = (get_str(body, "typeCode", required=True, max_len=32) or "").upper()
    if not TYPE_CODE.match(code):
        raise invalid("typeCode must be 2 to 32 letters, digits or underscores")
    name = get_str(body, "typeName", required=True, max_len=MAX_NAME)
    description = get_str(body, "typeDescription", max_len=MAX_DESCRIPTION) or ""
    value = get_int(body, "typeValue", low=10_000_000, high=MAX_TYPE_VALUE)
    order = get_int(body, "displayOrder", low=0, high=9999)
    status = enum_code(CHANNEL_TYPE_STATUS, body.get("typeStatus"), "typeStatus") or "ENABLED"
    icon, extra = _icon_url(body), _extra_config(body)
    db, now = caller.db, caller.ctx.now_ms()
    with db.transaction():
        if db.scalar("SELECT 1 FROM notification_channel_types WHERE type_code = ?", (code,)):
            raise invalid("typeCode is already in use")
        if value is None:
            value = next_type_value(db)
        elif db.scalar("SELECT 1 FROM notification_channel_types WHERE type_value = ?", (value,)):
            raise invalid("typeValue is already in use")
        if order is None:
            order = (
                int(
                    db.scalar(
                        "SELECT COALESCE(MAX(display_order), 0) FROM notification_channel_types"
                    )
                )
                + 1
            )
        new_id = insert_type(db, code, value, name or code, description, status, order, icon, now)
        if extra is not None:
            db.execute(
                "UPDATE notification_channel_types SET extra_config = ? WHERE biz_id = ?",
                (extra, new_id),
            )
    return caller.ok(type_record(caller.ctx, _type_row(db, new_id)))


@router.post(OPERATIONS["notifications.channel_types_update"].path)
async def update_type(
    request: Request, caller: Annotated[Caller, _dep("channel_types_update")]
) -> JSONResponse:
    """Change a channel type: ``{bizId, typeName?, typeDescription?, displayOrder?, iconUrl?,
    extraConfig?}``; typeCode and typeValue cannot change."""
    body = await object_body(request)
    type_id = get_id(body, "bizId")
    db = caller.db
    row = _type_row(db, type_id)
    if "typeCode" in body and str(body["typeCode"]).upper() != row["type_code"]:
        raise invalid("typeCode cannot change")
    if "typeValue" in body and as_int(body["typeValue"]) != row["type_value"]:
        raise invalid("typeValue cannot change")
    changes: dict[str, Any] = {}
    if "typeName" in body:
        changes["type_name"] = get_str(body, "typeName", required=True, max_len=MAX_NAME)
    if "typeDescription" in body:
        changes["type_description"] = (
            get_str(body, "typeDescription", max_len=MAX_DESCRIPTION) or ""
        )
    if "displayOrder" in body:
        changes["display_order"] = get_int(body, "displayOrder", required=True, low=0, high=9999)
    if "iconUrl" in body:
        changes["icon_url"] = _icon_url(body)
    if "extraConfig" in body:
        changes["extra_config"] = _extra_config(body)
    _update(db, "notification_channel_types", type_id, changes, caller.ctx.now_ms())
    return caller.ok(type_record(caller.ctx, _type_row(db, type_id)))


def _update(db: Database, table: str, row_id: str, changes: dict[str, Any], now: int) -> None:
    """UPDATE trusted column names of one row, and its updated_at."""
    columns = ", ".join(f"{name} = ?" for name in (*changes, "updated_at"))
    db.execute(
        f"UPDATE {table} SET {columns} WHERE biz_id = ?",  # noqa: S608 - trusted names
        (*changes.values(), now, row_id),
    )


async def _set_type_status(request: Request, caller: Caller, status: str) -> JSONResponse:
    body = await object_body(request)
    type_id = get_id(body, "bizId")
    _type_row(caller.db, type_id)
    _update(
        caller.db, "notification_channel_types", type_id, {"status": status}, caller.ctx.now_ms()
    )
    return caller.ok(type_record(caller.ctx, _type_row(caller.db, type_id)))


@router.post(OPERATIONS["notifications.channel_types_enable"].path)
async def enable_type(
    request: Request, caller: Annotated[Caller, _dep("channel_types_enable")]
) -> JSONResponse:
    """Enable a channel type: ``{bizId}`` (idempotent)."""
    return await _set_type_status(request, caller, "ENABLED")


@router.post(OPERATIONS["notifications.channel_types_disable"].path)
async def disable_type(
    request: Request, caller: Annotated[Caller, _dep("channel_types_disable")]
) -> JSONResponse:
    """Disable a channel type: ``{bizId}`` (idempotent); its channels stay as they are."""
    return await _set_type_status(request, caller, "DISABLED")


@router.post(OPERATIONS["notifications.channel_types_delete"].path)
async def delete_type(
    request: Request, caller: Annotated[Caller, _dep("channel_types_delete")]
) -> JSONResponse:
    """Delete a channel type no channel uses: ``{bizId}``; answers data null."""
    body = await object_body(request)
    type_id = get_id(body, "bizId")
    db = caller.db
    with db.transaction():
        row = _type_row(db, type_id)
        if db.scalar(
            "SELECT 1 FROM notification_channels WHERE type_code = ?", (row["type_code"],)
        ):
            raise invalid("channels of this type exist: delete them first")
        db.execute("DELETE FROM notification_channel_types WHERE biz_id = ?", (type_id,))
    return caller.ok(None)


# -- channels --------------------------------------------------------------------------------


def category_item(ctx: Ctx, type_row: Any) -> dict[str, Any]:
    """A channel's category as an enum item: a built-in type's localized label, else the
    type's own name."""
    code, value = type_row["type_code"], int(type_row["type_value"])
    if CHANNEL_TYPE.by_code(code) is not None:
        return enum_item(CHANNEL_TYPE, code, ctx.lang, value)
    return {
        "code": code,
        "value": value,
        "label": type_row["type_name"],
        "description": type_row["type_description"],
    }


def channel_record(ctx: Ctx, row: Any) -> dict[str, Any]:
    """The wire form of a channel row joined with its type (``t_*`` columns)."""
    type_row = {
        "type_code": row["type_code"],
        "type_value": row["t_value"],
        "type_name": row["t_name"],
        "type_description": row["t_description"],
    }
    return {
        "bizId": row["biz_id"],
        "institutionBizId": row["institution_biz_id"],
        "channelName": row["channel_name"],
        "channelCategory": category_item(ctx, type_row),
        "channelStatus": ctx.item(CHANNEL_STATUS, row["status"]),
        "active": row["status"] == "ACTIVE",
        "isDefault": bool(row["is_default"]),
        "description": row["description"],
        "config": mask(json.loads(row["config"])),
        "createdAt": iso(row["created_at"]),
        "updatedAt": iso(row["updated_at"]),
    }


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


def _institution(caller: Caller, body: Body) -> str:
    given = get_str(body, "institutionBizId", max_len=64)
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


@router.post(OPERATIONS["notifications.channels_query"].path)
async def query_channels(
    request: Request, caller: Annotated[Caller, _dep("channels_query")]
) -> JSONResponse:
    """Channels, newest first: ``{bizId, institutionBizId, channelCategory, channelStatus,
    activeOnly, page, size}``, every filter optional."""
    body = await object_body(request, allow_empty=True)
    page = _paging(request, body)
    where, params = ["1 = 1"], []
    if (value := get_str(body, "bizId", max_len=64)) is not None:
        where.append("c.biz_id = ?")
        params.append(value)
    if (value := get_str(body, "institutionBizId", max_len=64)) is not None:
        where.append("c.institution_biz_id = ?")
        params.append(value)
    if body.get("channelCategory") not in (None, ""):
        where.append("c.type_code = ?")
        params.append(_type_by_category(caller.db, body["channelCategory"])["type_code"])
    status = enum_code(CHANNEL_STATUS, body.get("channelStatus"), "channelStatus")
    if status is not None:
        where.append("c.status = ?")
        params.append(status)
    if get_bool(body, "activeOnly"):
        where.append("c.status = 'ACTIVE'")
    clause = " AND ".join(where)
    total = int(
        caller.db.scalar(f"SELECT COUNT(*) FROM notification_channels c WHERE {clause}", params)  # noqa: S608
    )
    rows = caller.db.query(
        f"{_CHANNELS} WHERE {clause} ORDER BY c.created_at DESC, c.biz_id LIMIT ? OFFSET ?",
        [*params, page.size, page.offset],
    )
    items = [channel_record(caller.ctx, r) for r in rows]
    return caller.ok(shape_a(items, number=page.number, size=page.size, total=total))


@router.post(OPERATIONS["notifications.channels_create"].path)
async def create_channel(
    request: Request, caller: Annotated[Caller, _dep("channels_create")]
) -> JSONResponse:
    """Create a channel: ``{channelName, channelCategory, config, institutionBizId?,
    isDefault?, channelStatus?, description?}``; its type must be enabled."""
    body = await object_body(request)
    name = get_str(body, "channelName", required=True, max_len=MAX_NAME)
    type_row = _type_by_category(caller.db, body.get("channelCategory"))
    if type_row["status"] != "ENABLED":
        raise invalid("the channel type is disabled")
    config = check_config(type_row["type_code"], unmask(body.get("config", {}), None))
    status = enum_code(CHANNEL_STATUS, body.get("channelStatus"), "channelStatus") or "ACTIVE"
    description = get_str(body, "description", max_len=MAX_DESCRIPTION)
    is_default = get_bool(body, "isDefault")
    institution = _institution(caller, body)
    db, now = caller.db, caller.ctx.now_ms()
    with db.transaction():
        new_id = insert_channel(
            db,
            institution,
            name or "",
            type_row["type_code"],
            status,
            config,
            is_default,
            description,
            now,
        )
        if is_default:
            _clear_other_defaults(db, institution, type_row["type_code"], new_id)
    return caller.ok(channel_record(caller.ctx, _channel_row(db, new_id)))


@router.post(OPERATIONS["notifications.channels_update"].path)
async def update_channel(
    request: Request, caller: Annotated[Caller, _dep("channels_update")]
) -> JSONResponse:
    """Change a channel: ``{bizId, channelName?, config?, isDefault?, description?}``.

    ``config`` replaces the settings whole; masked secrets keep their stored values. The
    category and the institution cannot change.
    """
    body = await object_body(request)
    channel_id = get_id(body, "bizId")
    db = caller.db
    row = _channel_row(db, channel_id)
    if body.get("channelCategory") not in (None, ""):
        wanted = _type_by_category(db, body["channelCategory"])
        if wanted["type_code"] != row["type_code"]:
            raise invalid("channelCategory cannot change")
    changes: dict[str, Any] = {}
    if "channelName" in body:
        changes["channel_name"] = get_str(body, "channelName", required=True, max_len=MAX_NAME)
    if "description" in body:
        changes["description"] = get_str(body, "description", max_len=MAX_DESCRIPTION)
    if "config" in body:
        merged = unmask(body["config"], json.loads(row["config"]))
        changes["config"] = json.dumps(check_config(row["type_code"], merged), ensure_ascii=False)
    if "isDefault" in body:
        changes["is_default"] = int(get_bool(body, "isDefault"))
    with db.transaction():
        _update(db, "notification_channels", channel_id, changes, caller.ctx.now_ms())
        if changes.get("is_default"):
            _clear_other_defaults(db, row["institution_biz_id"], row["type_code"], channel_id)
    return caller.ok(channel_record(caller.ctx, _channel_row(db, channel_id)))


async def _set_channel_status(request: Request, caller: Caller, status: str) -> JSONResponse:
    body = await object_body(request)
    channel_id = get_id(body, "bizId")
    _channel_row(caller.db, channel_id)
    _update(caller.db, "notification_channels", channel_id, {"status": status}, caller.ctx.now_ms())
    return caller.ok(channel_record(caller.ctx, _channel_row(caller.db, channel_id)))


@router.post(OPERATIONS["notifications.channels_activate"].path)
async def activate_channel(
    request: Request, caller: Annotated[Caller, _dep("channels_activate")]
) -> JSONResponse:
    """Activate a channel: ``{bizId}`` (idempotent)."""
    return await _set_channel_status(request, caller, "ACTIVE")


@router.post(OPERATIONS["notifications.channels_deactivate"].path)
async def deactivate_channel(
    request: Request, caller: Annotated[Caller, _dep("channels_deactivate")]
) -> JSONResponse:
    """Deactivate a channel: ``{bizId}`` (idempotent)."""
    return await _set_channel_status(request, caller, "INACTIVE")


@router.post(OPERATIONS["notifications.channels_delete"].path)
async def delete_channel(
    request: Request, caller: Annotated[Caller, _dep("channels_delete")]
) -> JSONResponse:
    """Delete a channel: ``{bizId}``; answers data null."""
    body = await object_body(request)
    channel_id = get_id(body, "bizId")
    _channel_row(caller.db, channel_id)
    caller.db.execute("DELETE FROM notification_channels WHERE biz_id = ?", (channel_id,))
    return caller.ok(None)


# -- mail-server checks ------------------------------------------------------------------------


async def _validate(request: Request, caller: Caller, protocol: str) -> JSONResponse:
    """Check mail-server settings without contacting any server.

    Body: the settings (``host, port, security, username?, password?``, and ``fromAddress``
    for SMTP), or ``channelBizId`` of an EMAIL channel whose stored settings fill in what the
    body leaves out or masks. Shape errors give 400; a well-formed request answers
    ``{valid, protocol, host, port, security, message, checkedAt}``, where ``valid`` is false
    exactly when the host name ends with ``.invalid`` (RFC 2606: never resolvable).
    """
    body = await object_body(request)
    stored: dict[str, Any] = {}
    channel_id = get_str(body, "channelBizId", max_len=64)
    if channel_id:
        row = _channel_row(caller.db, channel_id)
        if row["type_code"] != "EMAIL":
            raise invalid("channelBizId is not an email channel")
        config = json.loads(row["config"])
        stored = config if protocol == "SMTP" else (config.get("imap") or {})
    settings = {k: v for k, v in body.items() if k != "channelBizId"}
    merged = unmask({**stored, **settings}, stored)
    checked = mail_server(merged, protocol.lower(), sender=protocol == "SMTP")
    host = str(checked["host"])
    valid = not host.lower().rstrip(".").endswith(".invalid")
    message = (
        f"{protocol} server {host}:{checked['port']} accepted the connection and the sign-in"
        if valid
        else f"Could not connect to {protocol} server {host}:{checked['port']}"
    )
    return caller.ok(
        {
            "valid": valid,
            "protocol": protocol,
            "host": host,
            "port": checked["port"],
            "security": checked["security"],
            "message": message,
            "checkedAt": iso(caller.ctx.now_ms()),
        }
    )


@router.post(OPERATIONS["notifications.validate_smtp"].path)
async def validate_smtp(
    request: Request, caller: Annotated[Caller, _dep("validate_smtp")]
) -> JSONResponse:
    """Check SMTP settings (see ``_validate``)."""
    return await _validate(request, caller, "SMTP")


@router.post(OPERATIONS["notifications.validate_imap"].path)
async def validate_imap(
    request: Request, caller: Annotated[Caller, _dep("validate_imap")]
) -> JSONResponse:
    """Check IMAP settings (see ``_validate``)."""
    return await _validate(request, caller, "IMAP")


__all__ = ["SCHEMA", "router", "seed"]
