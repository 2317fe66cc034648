"""Option values checked where they are parsed: each function here is an argparse ``type``
that returns the value in the form the handlers use, or raises ``ArgumentTypeError`` with a
message naming what is accepted, so that a bad value ends in exit status 2 naming the option
(argparse adds ``argument --status:``), never in a traceback further in.

Only the standard library and the protocol's tables are imported: ``--help`` stays quick.
"""

from __future__ import annotations

import argparse
import datetime as dt
import re
from collections.abc import Callable

from portal_admin.files.terminal import printable
from portal_admin.protocol import enums

#: How much of a refused value a message repeats.
SHOWN = 60
_HEX64 = re.compile(r"[0-9a-f]{64}")
_FIELD = re.compile(r"[A-Za-z][A-Za-z0-9_.]{0,63}")


def _refuse(text: str, accepted: str) -> argparse.ArgumentTypeError:
    return argparse.ArgumentTypeError(f"{printable(text, SHOWN)!r} is not {accepted}")


def enum_code(listing: enums.EnumListing, what: str) -> Callable[[str], str]:
    """A code of ``listing`` (any case), or its number; returns the upper-case code."""

    def code(text: str) -> str:
        value = text.strip().upper()
        if value.isascii() and value.isdigit() and listing.code_of(int(value)):
            return str(listing.code_of(int(value)))
        if listing.by_code(value) is not None:
            return value
        raise _refuse(text, f"{what}: one of {', '.join(listing.codes)}")

    code.__name__ = what
    return code


account_status = enum_code(enums.ACCOUNT_STATUS, "an account status")
portal = enum_code(enums.PORTAL_TYPE, "a portal")


def whole(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    """A whole number from ``minimum`` (to ``maximum``)."""
    span = f"from {minimum}" if maximum is None else f"from {minimum} to {maximum}"

    def number(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            raise _refuse(text, f"a whole number {span}") from None
        if value < minimum or (maximum is not None and value > maximum):
            raise _refuse(text, f"a whole number {span}")
        return value

    number.__name__ = "number"
    return number


def seconds(text: str) -> float:
    """A positive number of seconds (at most a day)."""
    try:
        value = float(text.strip())
    except ValueError:
        raise _refuse(text, "a number of seconds") from None
    if not 0 < value <= 86_400:  # also refuses nan and inf
        raise _refuse(text, "a number of seconds above 0 and at most 86400")
    return value


def day(text: str) -> str:
    """A date, YYYY-MM-DD."""
    try:
        return dt.date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        raise _refuse(text, "a date as YYYY-MM-DD") from None


def moment(text: str) -> str:
    """A date or a time, ISO 8601 (``2026-11-28`` or ``2026-11-28T09:30:00Z``)."""
    try:
        dt.datetime.fromisoformat(text.strip())
    except ValueError:
        raise _refuse(text, "an ISO 8601 date or time (2026-11-28T09:30:00Z)") from None
    return text.strip()


def fingerprint(text: str) -> str:
    """A key's fingerprint: 64 hexadecimal digits (spaces and colons between them allowed)."""
    value = re.sub(r"[\s:]", "", text).lower()
    if not _HEX64.fullmatch(value):
        # worded as evidence/trust.py words it, for both command lines to say the same
        shown = printable(text, SHOWN)
        raise argparse.ArgumentTypeError(
            f"not a key fingerprint: {shown!r} (64 hexadecimal digits)"
        )
    return value


def sort(text: str) -> str:
    """``FIELD,asc`` or ``FIELD,desc`` (which fields sort is the server's to say: one it
    cannot sort by is its VALIDATION.INVALID_PARAMETER)."""
    field, _, direction = (part.strip() for part in text.strip().partition(","))
    direction = direction.lower() or "asc"
    if not _FIELD.fullmatch(field) or direction not in ("asc", "desc"):
        raise _refuse(text, "FIELD,asc or FIELD,desc (accountEmail,asc)")
    return f"{field},{direction}"


def listed(one: Callable[[str], str]) -> Callable[[str], str]:
    """Values of ``one`` separated by commas; returns them checked, joined by commas."""

    def values(text: str) -> str:
        return ",".join(one(part) for part in text.split(",") if part.strip())

    values.__name__ = one.__name__
    return values
