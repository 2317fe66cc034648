"""Notification channel settings: per-category validation and secret masking."""

from __future__ import annotations

from typing import Any

from portal_admin.protocol.bodies import CHANNEL_SETTINGS, ChannelSettings

from ..bodies import parse
from ..errors import invalid

MASK = "********"
SECRET_KEYS = frozenset(
    {"password", "secret", "apikey", "token", "accesstoken", "privatekey", "clientsecret"}
)
# -- secrets ---------------------------------------------------------------------------------


def _is_secret(key: str) -> bool:
    return key.replace("_", "").replace("-", "").lower() in SECRET_KEYS


def mask(value: Any) -> Any:
    """A copy of a settings object with every non-empty secret replaced by the mask."""
    if isinstance(value, dict):
        return {
            k: (MASK if _is_secret(k) and v not in (None, "") else mask(v))
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [mask(v) for v in value]
    return value


def unmask(new: Any, old: Any, path: str = "config") -> Any:
    """``new`` with every masked secret replaced by the stored one at the same place."""
    if isinstance(new, dict):
        stored = old if isinstance(old, dict) else {}
        result = {}
        for key, value in new.items():
            if _is_secret(key) and value == MASK:
                if key not in stored or stored[key] in (None, ""):
                    raise invalid(f"{path}.{key} is masked but no secret is stored")
                result[key] = stored[key]
            else:
                result[key] = unmask(value, stored.get(key), f"{path}.{key}")
        return result
    if isinstance(new, list):
        stored_list = old if isinstance(old, list) else []
        return [
            unmask(v, stored_list[i] if i < len(stored_list) else None, f"{path}[{i}]")
            for i, v in enumerate(new)
        ]
    return new


# -- settings validation ---------------------------------------------------------------------


def settings(model: type[ChannelSettings], obj: Any) -> dict[str, Any]:
    """``obj`` checked with a settings model of the protocol; its normalized form (unknown
    keys kept)."""
    checked = parse(model, obj).model_dump(by_alias=True)
    if isinstance(obj, dict) and "imap" not in obj:
        checked.pop("imap", None)  # an optional section stays absent
    return checked


def check_config(type_code: str, config: Any) -> dict[str, Any]:
    """Validate a channel's settings for its category; returns the normalized settings."""
    if not isinstance(config, dict):
        raise invalid("config must be an object")
    model = CHANNEL_SETTINGS.get(type_code)
    return settings(model, config) if model is not None else dict(config)
