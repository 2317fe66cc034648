"""The sandbox-only endpoints the demo needs (mailbox, authenticator code, clock).

They go through the client's own HTTP connection (``client.http``); they exist only on the
sandbox, so nothing here is ever shown outside sandbox mode.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any


class SandboxToolError(Exception):
    """A sandbox-only endpoint failed (network, HTTP status or an error envelope)."""

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.http_status: int | None = None
        self.request_id: str | None = None


@dataclass(frozen=True, slots=True)
class MailItem:
    """One email the sandbox sent."""

    id: str
    to: str
    subject: str
    body: str
    code: str | None
    token: str | None
    session_id: str | None
    sent_at: datetime | None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MailItem:
        """Read one mailbox entry."""
        sent = data.get("sentAt")
        try:
            sent_at = datetime.fromisoformat(str(sent).replace("Z", "+00:00")) if sent else None
        except ValueError:
            sent_at = None

        def text(key: str) -> str | None:
            value = data.get(key)
            return None if value in (None, "") else str(value)

        return cls(
            id=str(data.get("id", "")),
            to=str(data.get("to", "")),
            subject=str(data.get("subject", "")),
            body=str(data.get("body", "")),
            code=text("code"),
            token=text("token"),
            session_id=text("sessionId"),
            sent_at=sent_at,
        )


class SandboxTools:
    """Calls the sandbox-only endpoints through ``http`` (the client's ``httpx.AsyncClient``)."""

    def __init__(self, http: Any) -> None:
        self._http = http

    async def _data(self, method: str, path: str, **kwargs: Any) -> Any:
        try:
            response = await self._http.request(method, path, **kwargs)
            body = response.json()
        except Exception as exc:  # network failure or not JSON: one error type for the demo
            raise SandboxToolError(f"{path}: {type(exc).__name__}: {exc}") from exc
        if not isinstance(body, dict):
            raise SandboxToolError(f"{path}: not an envelope")
        if response.status_code >= 400 or body.get("success") is False:
            code = body.get("code")
            raise SandboxToolError(
                str(body.get("message") or f"HTTP {response.status_code}"),
                code=str(code) if code is not None else None,
            )
        return body.get("data")

    async def mailbox(self, to: str) -> list[MailItem]:
        """The emails sent to ``to``, newest first."""
        data = await self._data("GET", "/sandbox/mailbox", params={"to": to.strip()})
        return [MailItem.from_json(item) for item in data or [] if isinstance(item, dict)]

    async def totp(self, email: str) -> str:
        """The authenticator code valid now for ``email``."""
        data = await self._data("GET", "/sandbox/totp", params={"email": email.strip()})
        return str(data["code"])

    async def advance_clock(self, seconds: float) -> str:
        """Move the sandbox's clock forward (test clock only); returns its new time."""
        data = await self._data("POST", "/sandbox/clock/advance", json={"seconds": seconds})
        return str(data.get("now", "")) if isinstance(data, dict) else ""
