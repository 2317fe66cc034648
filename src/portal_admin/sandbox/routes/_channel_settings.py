"""Notification channel settings: per-category validation and secret masking."""

from __future__ import annotations

import json
import re
from typing import Any

from ..errors import invalid
from ._fields import get_int, get_str, is_email

MASK = "********"
SECRET_KEYS = frozenset(
    {"password", "secret", "apikey", "token", "accesstoken", "privatekey", "clientsecret"}
)
SECURITY_MODES = ("TLS", "STARTTLS", "NONE")
MAX_CONFIG = 8_000
MAX_NAME = 100
MAX_DESCRIPTION = 500
TYPE_CODE = re.compile(r"^[A-Z][A-Z0-9_]{1,31}$")
URL = re.compile(r"^https?://[^\s/$.?#][^\s]*$", re.IGNORECASE)
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


def mail_server(obj: Any, path: str, *, sender: bool) -> dict[str, Any]:
    """Check SMTP/IMAP settings: host, port 1-65535, security TLS/STARTTLS/NONE, credentials."""
    if not isinstance(obj, dict) or not obj:
        raise invalid(f"{path} must be an object with host and port")
    host = get_str(obj, "host", required=True, max_len=253)
    assert host is not None
    if any(ch.isspace() for ch in host) or "/" in host:
        raise invalid(f"{path}.host is not a host name")
    port = get_int(obj, "port", required=True, low=1, high=65535)
    security = (get_str(obj, "security", max_len=16) or "STARTTLS").upper()
    if security not in SECURITY_MODES:
        raise invalid(f"{path}.security must be TLS, STARTTLS or NONE")
    result: dict[str, Any] = {
        **obj,
        "host": host,
        "port": port,
        "security": security,
        "username": get_str(obj, "username", max_len=254),
        "password": get_str(obj, "password", max_len=256, strip=False),
    }
    if sender:
        address = get_str(obj, "fromAddress", required=True, max_len=254)
        assert address is not None
        if not is_email(address):
            raise invalid(f"{path}.fromAddress is not an email address")
        result["fromAddress"] = address
        result["fromName"] = get_str(obj, "fromName", max_len=MAX_NAME)
    return result


def check_config(type_code: str, config: Any) -> dict[str, Any]:
    """Validate a channel's settings for its category; returns the normalized settings."""
    if not isinstance(config, dict):
        raise invalid("config must be an object")
    if len(json.dumps(config)) > MAX_CONFIG:
        raise invalid("config is too large")
    if type_code == "EMAIL":
        result = mail_server(config, "config", sender=True)
        if config.get("imap") is not None:
            result["imap"] = mail_server(config["imap"], "config.imap", sender=False)
        return result
    if type_code == "SMS":
        return {
            **config,
            "provider": get_str(config, "provider", required=True, max_len=64),
            "apiKey": get_str(config, "apiKey", required=True, max_len=256, strip=False),
            "senderId": get_str(config, "senderId", max_len=32),
        }
    if type_code == "WEBHOOK":
        url = get_str(config, "url", required=True, max_len=2000)
        if url is None or not URL.match(url):
            raise invalid("config.url must be an http or https URL")
        headers = config.get("headers")
        if headers is not None and not (
            isinstance(headers, dict)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in headers.items())
        ):
            raise invalid("config.headers must map names to strings")
        return {**config, "url": url, "secret": get_str(config, "secret", max_len=256)}
    return dict(config)
