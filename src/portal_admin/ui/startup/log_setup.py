"""Logging to a rotating file in the user's log folder, with secrets redacted.

The program starts with :func:`buffer_logging` (records are kept in memory) and opens the
file once its first window is on screen (:meth:`EarlyLog.hand_over` to :func:`setup_logging`):
``logging.handlers`` and the redaction patterns are not needed before (docs/performance.md,
"Start-up").
"""

from __future__ import annotations

import functools
import logging
import re
from pathlib import Path

from portal_admin.files.paths import log_dir

LOG_FILE_NAME = "portal-admin.log"
REDACTED = "[REDACTED]"

# key = value, key: value, "key": "value", key='value'; the key may be part of a longer name
# (refreshToken, newPassword, client_secret, accessCode, X-PORTAL-ACCESS-CODE).
_SECRET_KEY = r"[\w-]*(?:password|passwd|token|secret|code)"
_NOT_SECRET_NAMES = frozenset({"errorcode", "statuscode", "code_challenge_method"})


@functools.cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The redaction patterns (compiled on first use): bearer, JWT, key-value, error code."""
    bearer = re.compile(r"(?i)\b(bearer)\s+[A-Za-z0-9\-._~+/]+=*")
    jwt = re.compile(r"\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*")
    pair = re.compile(
        rf"""(?ix)
        (?P<key>["']?(?P<name>{_SECRET_KEY})["']?\s*[:=]\s*)
        (?P<value>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^\s,;&}}\]]+)
        """
    )
    # Values of a bare "code" key that are error codes, not secrets: 2000, 4010, AUTH.INVALID_X.
    error_code = re.compile(r"""^["']?(?:\d{4}|[A-Z][A-Z0-9_]*(?:\.[A-Z0-9_]+)+)["']?$""")
    return bearer, jwt, pair, error_code


def _pair(match: re.Match[str]) -> str:
    name = match.group("name").lower()
    value = match.group("value")
    if name in _NOT_SECRET_NAMES or (name == "code" and _patterns()[3].match(value)):
        return match.group(0)
    quote = value[0] if value[:1] in {'"', "'"} else ""
    return f"{match.group('key')}{quote}{REDACTED}{quote}"


def redact(text: str) -> str:
    """``text`` with bearer tokens, JWT-looking strings and secret values replaced."""
    bearer, jwt, pair, _ = _patterns()
    text = bearer.sub(lambda m: f"{m.group(1)} {REDACTED}", text)
    text = jwt.sub(REDACTED, text)
    return pair.sub(_pair, text)


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
    import logging.handlers  # not needed before the log file is opened

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


class EarlyLog(logging.Handler):
    """Keeps the records of the program's first moments until the log file is opened.

    Each record is kept with its message already formatted (later changes to the logged
    objects do not show) and its traceback as text; :meth:`hand_over` passes them, in order,
    to the real handler, which redacts them like every other record.
    """

    #: Records kept at most (a start-up logs a handful); later ones are counted, not kept.
    CAPACITY = 5000

    def __init__(self) -> None:
        super().__init__(logging.NOTSET)
        self.records: list[logging.LogRecord] = []
        self.dropped = 0
        self.target: logging.Handler | None = None
        self._formatter = logging.Formatter()

    def emit(self, record: logging.LogRecord) -> None:
        if self.target is not None:  # handed over while this record was on its way
            self.target.handle(record)
            return
        if len(self.records) >= self.CAPACITY:
            self.dropped += 1
            return
        try:
            record.msg = record.getMessage()
        except Exception:  # a bad format string: keep what we can (as RedactingFilter does)
            record.msg = str(record.msg)
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = self._formatter.formatException(record.exc_info)
        record.exc_info = None
        self.records.append(record)

    def hand_over(self, target: logging.Handler | None = None) -> logging.Handler:
        """Attach ``target`` (default: :func:`setup_logging`'s file handler) to the root logger
        in place of this buffer and give it the records kept so far, in order. Runs once;
        later calls return the same handler."""
        self.acquire()
        try:
            if self.target is not None:
                return self.target
            root = logging.getLogger()
            problem: OSError | None = None
            try:
                handler = target if target is not None else setup_logging(level=root.level)
            except OSError as exc:  # no log file (say, the folder is not writable): stderr
                problem = exc
                handler = logging.StreamHandler()
                handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
                handler.addFilter(RedactingFilter())
            if handler not in root.handlers:
                root.addHandler(handler)
            root.removeHandler(self)
            self.target = handler
            records, self.records = self.records, []
            for record in records:
                if record.levelno >= handler.level:
                    handler.handle(record)
        finally:
            self.release()
        if problem is not None:
            logging.getLogger(__name__).warning("could not open the log file: %s", problem)
        if self.dropped:
            logging.getLogger(__name__).warning(
                "%d start-up log records were dropped", self.dropped
            )
        return handler


def buffer_logging(*, level: int = logging.INFO) -> EarlyLog:
    """Keep log records in memory from now on (the root logger at ``level``), until
    :meth:`EarlyLog.hand_over` opens the log file."""
    early = EarlyLog()
    root = logging.getLogger()
    root.addHandler(early)
    root.setLevel(level)
    logging.captureWarnings(True)
    return early
