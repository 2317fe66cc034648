"""Logging to a rotating file in the user's log folder, with secrets redacted."""

from __future__ import annotations

import logging
import logging.handlers
import re
from pathlib import Path

from .paths import log_dir

LOG_FILE_NAME = "portal-admin.log"
REDACTED = "[REDACTED]"

_BEARER = re.compile(r"(?i)\b(bearer)\s+[A-Za-z0-9\-._~+/]+=*")
_JWT = re.compile(r"\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*")
# key = value, key: value, "key": "value", key='value'; the key may be part of a longer name
# (refreshToken, newPassword, client_secret, accessCode, X-PORTAL-ACCESS-CODE).
_SECRET_KEY = r"[\w-]*(?:password|passwd|token|secret|code)"
_PAIR = re.compile(
    rf"""(?ix)
    (?P<key>["']?(?P<name>{_SECRET_KEY})["']?\s*[:=]\s*)
    (?P<value>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^\s,;&}}\]]+)
    """
)
# Values of a bare "code" key that are error codes, not secrets: 2000, 4010, AUTH.INVALID_X.
_ERROR_CODE = re.compile(r"""^["']?(?:\d{4}|[A-Z][A-Z0-9_]*(?:\.[A-Z0-9_]+)+)["']?$""")
_NOT_SECRET_NAMES = frozenset({"errorcode", "statuscode", "code_challenge_method"})


def _pair(match: re.Match[str]) -> str:
    name = match.group("name").lower()
    value = match.group("value")
    if name in _NOT_SECRET_NAMES or (name == "code" and _ERROR_CODE.match(value)):
        return match.group(0)
    quote = value[0] if value[:1] in {'"', "'"} else ""
    return f"{match.group('key')}{quote}{REDACTED}{quote}"


def redact(text: str) -> str:
    """``text`` with bearer tokens, JWT-looking strings and secret values replaced."""
    text = _BEARER.sub(lambda m: f"{m.group(1)} {REDACTED}", text)
    text = _JWT.sub(REDACTED, text)
    return _PAIR.sub(_pair, text)


class RedactingFilter(logging.Filter):
    """Rewrites each record's message, exception and stack text with secrets redacted."""

    def __init__(self) -> None:
        super().__init__()
        self._formatter = logging.Formatter()

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a bad format string: keep what we can
            message = str(record.msg)
        record.msg = redact(message)
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = self._formatter.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


def setup_logging(
    directory: Path | None = None, *, level: int = logging.INFO, max_bytes: int = 2_000_000
) -> logging.Handler:
    """Attach a rotating, redacting file handler to the root logger and return it."""
    directory = directory or log_dir()
    directory.mkdir(parents=True, exist_ok=True)
    handler = logging.handlers.RotatingFileHandler(
        directory / LOG_FILE_NAME, maxBytes=max_bytes, backupCount=5, encoding="utf-8"
    )
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(RedactingFilter())
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(level)
    logging.captureWarnings(True)
    return handler
