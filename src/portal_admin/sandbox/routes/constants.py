"""The constants area (section 4.5): 16 public GET lists of enum items.

No token is needed (the portal access code still is, like every ``/web/v1/system/`` call).
Enum lists serve the listing ``protocol.enums`` marks as served; the reference lists
(countries, time zones, US states) come from ``sandbox.i18n``. Labels and descriptions follow
Accept-Language.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from portal_admin.protocol.enums import CONSTANT_LISTINGS, DATA_LISTS, EnumListing
from portal_admin.protocol.records import CountryItem, EnumItem, TimezoneItem, UsStateItem

from ..deps import CtxDep
from ..i18n import reference_items
from ._route import route

router = APIRouter()


def _enum_route(listing: EnumListing) -> Any:
    async def constants_list(ctx: CtxDep) -> JSONResponse:
        return ctx.ok([ctx.item(listing, item.code, item.value) for item in listing.items])

    return constants_list


def _data_route(name: str) -> Any:
    async def constants_list(ctx: CtxDep) -> JSONResponse:
        return ctx.ok(reference_items(name, ctx.lang))

    return constants_list


#: The item record of the reference lists (the enum lists' is EnumItem).
DATA_ITEMS: dict[str, type[EnumItem]] = {
    "countries": CountryItem,
    "timezones": TimezoneItem,
    "us-states": UsStateItem,
}


def _register() -> None:
    for path, listing in CONSTANT_LISTINGS.items():
        op_id = "constants." + path.replace("-", "_")
        route(router, op_id, list[EnumItem])(_enum_route(listing))
    for name in DATA_LISTS:
        op_id = "constants." + name.replace("-", "_")
        item = DATA_ITEMS[name]
        route(router, op_id, list[item])(_data_route(name))  # type: ignore[valid-type]


_register()
