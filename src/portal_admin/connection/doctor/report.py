"""The connection doctor's report: steps, their outcome, and the text and JSON forms.

Everything here is meant to be pasted into a support ticket: no token, password, access
code, session id or key material (only the public key's fingerprint and size).
"""

from __future__ import annotations

import json
import platform
import ssl
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from portal_admin import __version__

#: The JSON form's version (raise it when a field changes meaning).
REPORT_VERSION = 1


class Status(StrEnum):
    """How one step went."""

    OK = "ok"
    WARNING = "warning"
    FAILED = "failed"
    SKIPPED = "skipped"


#: Worst first, for the report's overall status.
_SEVERITY = {Status.FAILED: 3, Status.WARNING: 2, Status.OK: 1, Status.SKIPPED: 0}

#: Step names (stable codes) and their English titles, in the order the doctor runs them.
STEP_TITLES: dict[str, str] = {
    "dns": "DNS",
    "tcp": "TCP connection",
    "proxy": "HTTP proxy",
    "tls": "TLS",
    "envelope": "API envelope",
    "clock": "Server clock",
    "public_key": "Secure Channel public key",
    "session": "Secure Channel session",
    "headers": "Pre-login headers",
    "languages": "Label languages",
    "sandbox": "Sandbox fault injection",
    "signing_key": "Evidence signing key",
}


@dataclass(slots=True)
class Step:
    """One check: its name, outcome, duration, a sentence, advice and details (JSON-ready)."""

    name: str
    status: Status
    seconds: float
    summary: str
    #: The diagnosis, stable across versions (``tcp.refused``, ``tls.untrusted``, ...).
    code: str
    advice: str = ""
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def title(self) -> str:
        """The step's English title."""
        return STEP_TITLES.get(self.name, self.name)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of the step."""
        return {
            "name": self.name,
            "title": self.title,
            "status": self.status.value,
            "code": self.code,
            "seconds": round(self.seconds, 3),
            "summary": self.summary,
            "advice": self.advice,
            "details": self.details,
        }


@dataclass(slots=True)
class Report:
    """Every step the doctor ran (or skipped), in order."""

    url: str
    started_at: str
    steps: list[Step] = field(default_factory=list)
    environment: dict[str, str] = field(default_factory=dict)
    #: Told of every step as it is added (a progress display).
    listener: Callable[[Step], None] | None = field(default=None, repr=False, compare=False)

    def add(self, step: Step) -> None:
        """Append ``step`` and tell the listener."""
        self.steps.append(step)
        if self.listener is not None:
            self.listener(step)

    @property
    def status(self) -> Status:
        """The worst status of all steps (skipped only when nothing ran)."""
        if not self.steps:
            return Status.SKIPPED
        return max((s.status for s in self.steps), key=_SEVERITY.__getitem__)

    def step(self, name: str) -> Step | None:
        """The step called ``name``, if it ran."""
        return next((s for s in self.steps if s.name == name), None)

    @property
    def codes(self) -> list[str]:
        """Every diagnosis code, in step order."""
        return [s.code for s in self.steps]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of the report."""
        return {
            "report": "portal-admin connection doctor",
            "version": REPORT_VERSION,
            "url": self.url,
            "startedAt": self.started_at,
            "status": self.status.value,
            "environment": self.environment,
            "steps": [s.to_dict() for s in self.steps],
        }

    def to_json(self) -> str:
        """The report as indented JSON text."""
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n"

    def to_text(self) -> str:
        """The report as plain text, one block per step."""
        lines = [
            f"Connection doctor: {self.url}",
            f"Started {self.started_at}; overall: {self.status.value.upper()}",
            "; ".join(f"{k} {v}" for k, v in self.environment.items()),
            "",
        ]
        for index, step in enumerate(self.steps, 1):
            mark = f"[{step.status.value.upper()}]"
            lines.append(f"{index:2}. {mark:9} {step.title} ({step.seconds:.2f} s) [{step.code}]")
            lines.append(f"    {step.summary}")
            if step.advice:
                lines.append(f"    Advice: {step.advice}")
            for key, value in step.details.items():
                lines.append(f"    - {key}: {_text_value(value)}")
        return "\n".join(lines) + "\n"


def _text_value(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}={_text_value(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return "; ".join(_text_value(v) for v in value)
    return str(value)


def redact_url(url: str) -> str:
    """``url`` without a user name, password, query or fragment (safe to show)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<unreadable URL>"
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    netloc = f"{host}:{port}" if port else host
    if parts.username or parts.password:
        netloc = f"***@{netloc}"
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def environment() -> dict[str, str]:
    """What ran the check (no user or machine names)."""
    return {
        "portal-admin": __version__,
        "python": platform.python_version(),
        "openssl": ssl.OPENSSL_VERSION,
        "system": platform.system(),
    }
