"""What a bulk job does to each target: plan it, send it, and read back whether it happened.

Each action knows, for one target record:
- ``plan``: its current and new value, or why the target is skipped (a :class:`Skip` code);
- ``apply``: the one write that changes it (through the client), returning the value after;
- ``check``: from a fresh read of the target, whether the change is already in place
  (``True``), not yet (``False``), or cannot be told (``None``); the runner uses it before it
  repeats a write whose outcome is unknown;
- ``idempotent`` (declared by each action, never inherited): whether sending the change again,
  once a read-back showed it is not in place, can do no harm. Setting a field or a status to a
  value can be repeated (at worst the repeat is refused as "already so", and the runner reads
  that back); a mail (password reset, invitation) cannot: such a target becomes ``unknown``
  for a person to decide.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from portal_admin.client import PortalClient
from portal_admin.client.errors import NotFoundError
from portal_admin.client.records import Account, Invitation
from portal_admin.protocol.enums import ACCOUNT_TRANSITIONS, INVITATION_FINAL


class Skip(StrEnum):
    """Why a target is left alone. The UI and the command line word each code."""

    SELF = "SELF"  # the signed-in account itself
    NO_CHANGE = "NO_CHANGE"  # the target already has the new value
    NOT_ALLOWED = "NOT_ALLOWED"  # its current state does not allow the action
    NOT_FOUND = "NOT_FOUND"  # it no longer exists
    DUPLICATE = "DUPLICATE"  # listed twice: acted on once
    FINAL = "FINAL"  # an invitation already accepted, declined, expired or cancelled
    PENDING_EXISTS = "PENDING_EXISTS"  # a pending invitation for that email exists


class TargetKind(StrEnum):
    """What a job's targets are."""

    ACCOUNT = "account"
    INVITATION = "invitation"
    EMAIL = "email"


@dataclass(frozen=True, slots=True)
class Target:
    """One target as the plan shows it: its id, a readable label, and its record's fields."""

    id: str
    label: str
    record: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Planned:
    """One planned line: the current and new value, or the reason it is skipped."""

    current: str
    new: str
    #: A :class:`Skip` code (a revert has codes of its own: ``revert.RevertSkip``).
    skip: Skip | str | None = None


class Action:
    """A bulk action; subclasses are frozen dataclasses of their parameters."""

    kind: ClassVar[str]
    target_kind: ClassVar[TargetKind] = TargetKind.ACCOUNT
    #: The operation id each target costs (for the read-only guard and the journal).
    operation_id: ClassVar[str]
    #: True when a write of unknown outcome can be checked by reading the target.
    checkable: ClassVar[bool] = True
    #: True when the change may be sent again after a read-back found it not in place (it sets
    #: a value); False when a second request does something of its own (a mail). Each action
    #: states it (``tests/jobs`` check that none inherits it).
    idempotent: ClassVar[bool]

    def params(self) -> dict[str, Any]:
        """The action's parameters as JSON-ready values (kept in the job file)."""
        return dataclasses.asdict(self)  # type: ignore[call-overload, no-any-return]

    def describe(self) -> str:
        """A one-line English description (the command line; the UI words its own)."""
        values = ", ".join(f"{k}={v!r}" for k, v in self.params().items() if v not in (None, ""))
        return f"{self.kind}({values})"

    def plan(self, target: Target, self_id: str | None) -> Planned:
        """Current and new value of one target, or why it is skipped."""
        raise NotImplementedError

    def before_run(self, job: Any) -> None:
        """Called by the runner once it holds ``job``'s lock, before anything is sent (a
        revert takes the locks of what it reverts here); JobLockedError to refuse."""

    def journal_values(self, item: Any, job_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """What the journal records before and after one target's change (``item``: its line
        of the job file): the value before and after, and the job's id."""
        return {"value": item.current}, {"value": item.new, "job": job_id}

    async def apply(self, client: PortalClient, target: Target) -> str:
        """Send the change; return the value after it."""
        raise NotImplementedError

    async def read(self, client: PortalClient, target: Target) -> Target | None:
        """The target as the server has it now (None: it no longer exists)."""
        raise NotImplementedError

    def check(self, now: Target | None) -> bool | None:
        """Whether the change is in place in ``now`` (None: cannot be told)."""
        raise NotImplementedError

    def unchanged(self, now: Target, current: str) -> bool:
        """Whether ``now`` still shows the value the plan found (``current``): only then is
        an idempotent change sent again (a value found in between was set by someone else,
        maybe after this change)."""
        raise NotImplementedError


def account_target(account: Account) -> Target:
    """A plan target from an account record."""
    record = {
        "email": account.account_email or "",
        "name": account.account_name or "",
        "status": account.account_status.code if account.account_status else "",
        "portal": account.account_portal.code if account.account_portal else "",
        "institution": account.institution_biz_id or "",
        "language": account.default_language or "",
        "timezone": account.default_timezone or "",
        "country": account.default_country or "",
        "remark": account.account_remark or "",
    }
    return Target(account.biz_id, account.account_email or account.biz_id, record)


def invitation_target(invitation: Invitation) -> Target:
    """A plan target from an invitation record."""
    status = invitation.invitation_status
    record = {
        "email": invitation.invitee_email or "",
        "status": status.code if status else "",
        "created": invitation.created_at.isoformat() if invitation.created_at else "",
        "expires": invitation.expires_at.isoformat() if invitation.expires_at else "",
    }
    return Target(invitation.biz_id, invitation.invitee_email or invitation.biz_id, record)


async def read_account(client: PortalClient, target: Target) -> Target | None:
    """The account now, or None when it is gone."""
    try:
        return account_target(await client.accounts.get(target.id))
    except NotFoundError:
        return None


#: The status each account action leads to.
ACTION_RESULT = {"ACTIVATE": "ACTIVE", "SUSPEND": "SUSPENDED", "DEACTIVATE": "DEACTIVATED"}


@dataclass(frozen=True, slots=True)
class ChangeStatus(Action):
    """Activate, suspend or deactivate accounts, where their current state allows it."""

    action: str
    reason: str | None = None
    kind: ClassVar[str] = "status"
    operation_id: ClassVar[str] = "accounts.status"
    #: Sets the status to a value; a repeat after it happened is refused, not applied twice.
    idempotent: ClassVar[bool] = True

    def __post_init__(self) -> None:
        if self.action not in ACTION_RESULT:
            raise ValueError(f"unknown status action {self.action!r}")

    def plan(self, target: Target, self_id: str | None) -> Planned:
        current = str(target.record.get("status", ""))
        new = ACTION_RESULT[self.action]
        if target.id == self_id:
            return Planned(current, new, Skip.SELF)
        if current == new:
            return Planned(current, new, Skip.NO_CHANGE)
        if self.action not in ACCOUNT_TRANSITIONS.get(current, {}):
            return Planned(current, new, Skip.NOT_ALLOWED)
        return Planned(current, new)

    async def apply(self, client: PortalClient, target: Target) -> str:
        answer = await client.accounts.change_status(
            target.id,
            self.action,  # type: ignore[arg-type]  # checked in __post_init__
            reason=self.reason or None,
        )
        return answer.status or ACTION_RESULT[self.action]

    async def read(self, client: PortalClient, target: Target) -> Target | None:
        return await read_account(client, target)

    def check(self, now: Target | None) -> bool | None:
        if now is None:
            return None
        return now.record.get("status") == ACTION_RESULT[self.action]

    def unchanged(self, now: Target, current: str) -> bool:
        return str(now.record.get("status", "")) == current


@dataclass(frozen=True, slots=True)
class ResetPassword(Action):
    """Mail a password-reset link to accounts (nothing to read back: never repeated blindly)."""

    kind: ClassVar[str] = "reset-password"
    operation_id: ClassVar[str] = "accounts.password_reset"
    checkable: ClassVar[bool] = False
    #: Each request mails another link.
    idempotent: ClassVar[bool] = False

    def plan(self, target: Target, self_id: str | None) -> Planned:
        status = str(target.record.get("status", ""))
        if target.id == self_id:
            return Planned(status, "reset link sent", Skip.SELF)
        return Planned(status, "reset link sent")

    async def apply(self, client: PortalClient, target: Target) -> str:
        await client.accounts.reset_password(target.id)
        return "reset link sent"

    async def read(self, client: PortalClient, target: Target) -> Target | None:
        return await read_account(client, target)

    def check(self, now: Target | None) -> bool | None:
        return None  # a mailed link leaves no trace an administrator can read

    def unchanged(self, now: Target, current: str) -> bool:
        return False  # nothing to compare: never sent again


#: Editable account fields: the record key and the client's keyword argument.
FIELDS: dict[str, str] = {
    "language": "default_language",
    "timezone": "default_timezone",
    "country": "default_country",
    "remark": "account_remark",
}


@dataclass(frozen=True, slots=True)
class UpdateField(Action):
    """Set one field (language, timezone, country, remark) of accounts to one value."""

    field: str
    value: str
    kind: ClassVar[str] = "update"
    operation_id: ClassVar[str] = "accounts.update"
    #: Sets a field to a value: twice leaves the same account.
    idempotent: ClassVar[bool] = True

    def __post_init__(self) -> None:
        if self.field not in FIELDS:
            raise ValueError(f"unknown field {self.field!r}")

    def plan(self, target: Target, self_id: str | None) -> Planned:
        current = str(target.record.get(self.field, ""))
        if target.id == self_id:
            return Planned(current, self.value, Skip.SELF)
        if current == self.value:
            return Planned(current, self.value, Skip.NO_CHANGE)
        return Planned(current, self.value)

    async def apply(self, client: PortalClient, target: Target) -> str:
        account = await client.accounts.update(target.id, **{FIELDS[self.field]: self.value})
        return str(account_target(account).record.get(self.field, ""))

    async def read(self, client: PortalClient, target: Target) -> Target | None:
        return await read_account(client, target)

    def check(self, now: Target | None) -> bool | None:
        if now is None:
            return None
        return now.record.get(self.field) == self.value

    def unchanged(self, now: Target, current: str) -> bool:
        return str(now.record.get(self.field, "")) == current


@dataclass(frozen=True, slots=True)
class CancelInvitation(Action):
    """Cancel pending invitations with a reason."""

    reason: str = ""
    kind: ClassVar[str] = "cancel-invitation"
    target_kind: ClassVar[TargetKind] = TargetKind.INVITATION
    operation_id: ClassVar[str] = "invitations.cancel"
    #: Sets the status to cancelled; a repeat after it happened is refused.
    idempotent: ClassVar[bool] = True

    def plan(self, target: Target, self_id: str | None) -> Planned:
        current = str(target.record.get("status", ""))
        if current == "CANCELLED":
            return Planned(current, "CANCELLED", Skip.NO_CHANGE)
        if current in INVITATION_FINAL:
            return Planned(current, "CANCELLED", Skip.FINAL)
        return Planned(current, "CANCELLED")

    async def apply(self, client: PortalClient, target: Target) -> str:
        answer = await client.invitations.cancel(target.id, reason=self.reason)
        status = answer.invitation_status
        return status.code if status else "CANCELLED"

    async def read(self, client: PortalClient, target: Target) -> Target | None:
        for invitation in await client.invitations.list():
            if invitation.biz_id == target.id:
                return invitation_target(invitation)
        return None

    def check(self, now: Target | None) -> bool | None:
        if now is None:
            return None
        return now.record.get("status") == "CANCELLED"

    def unchanged(self, now: Target, current: str) -> bool:
        return str(now.record.get("status", "")) == current


@dataclass(frozen=True, slots=True)
class Invite(Action):
    """Invite people by email, with an optional message and expiry.

    Targets are emails (``Target.id`` is the email); a target's record may carry its own
    ``message`` and ``expirationDays`` (from the imported file), which win over the job's.
    """

    message: str | None = None
    expiration_days: int = 7
    kind: ClassVar[str] = "invite"
    target_kind: ClassVar[TargetKind] = TargetKind.EMAIL
    operation_id: ClassVar[str] = "invitations.create"
    #: Each request creates an invitation and mails it.
    idempotent: ClassVar[bool] = False

    def plan(self, target: Target, self_id: str | None) -> Planned:
        current = str(target.record.get("status", ""))
        if current == "PENDING":
            return Planned(current, "PENDING", Skip.PENDING_EXISTS)
        return Planned(current, "PENDING")

    async def apply(self, client: PortalClient, target: Target) -> str:
        message = target.record.get("message") or self.message
        days = int(target.record.get("expirationDays") or self.expiration_days)
        answer = await client.invitations.create(
            target.id, message=message or None, expiration_days=days
        )
        status = answer.invitation_status
        return status.code if status else "PENDING"

    async def read(self, client: PortalClient, target: Target) -> Target | None:
        return email_target(target.id, await client.invitations.list(), target.record)

    def check(self, now: Target | None) -> bool | None:
        if now is None:
            return None
        return now.record.get("status") == "PENDING"

    def unchanged(self, now: Target, current: str) -> bool:
        return str(now.record.get("status", "")) == current


def email_target(
    email: str, invitations: list[Invitation], extra: Mapping[str, Any] | None = None
) -> Target:
    """An invitation target for ``email``: its pending invitation, if any, is its state."""
    key = email.strip().lower()
    pending = [
        i
        for i in invitations
        if (i.invitee_email or "").lower() == key
        and i.invitation_status is not None
        and i.invitation_status.is_("PENDING")
    ]
    record: dict[str, Any] = dict(extra or {})
    record["status"] = "PENDING" if pending else ""
    return Target(email, email, record)


ACTIONS: dict[str, type[Action]] = {
    cls.kind: cls for cls in (ChangeStatus, ResetPassword, UpdateField, CancelInvitation, Invite)
}


def action_from(kind: str, params: Mapping[str, Any]) -> Action:
    """Rebuild an action from its kind and parameters (as kept in a job file)."""
    try:
        cls = ACTIONS[kind]
    except KeyError:
        raise ValueError(f"unknown action {kind!r}") from None
    return cls(**params)
