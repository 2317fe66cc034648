"""Results of the sign-in steps the UI drives: start, send a code, complete."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .records import EnumItem


@dataclass(frozen=True, slots=True)
class LoginChallenge:
    """The answer of ``start``: which second factors are offered and until when."""

    email: str
    methods: tuple[EnumItem, ...]
    #: When the login session ends (UTC); a wrong code keeps it usable until then.
    expires_at: datetime
    expires_in: int
    pending_approval: bool
    account_status: EnumItem | None

    def __repr__(self) -> str:  # the login session id stays out of logs
        return (
            f"LoginChallenge(email={self.email!r}, methods={[m.code for m in self.methods]}, "
            f"expires_at={self.expires_at.isoformat()}, pending_approval={self.pending_approval})"
        )


@dataclass(frozen=True, slots=True)
class CodeSent:
    """The answer of ``send_code``."""

    sent: bool
    cooldown_seconds: int
    code_expires_in: int
    #: When a new code may be requested (UTC).
    resend_at: datetime
    #: When the sent code stops being valid (UTC).
    code_expires_at: datetime


@dataclass(frozen=True, slots=True)
class SignedIn:
    """The client is signed in."""

    email: str
    expires_at: datetime
    account_status: EnumItem | None = None
