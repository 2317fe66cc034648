"""The client's operations, grouped by area."""

from ._base import Area, operation, operation_id
from .accounts import AccountsArea
from .auth import AuthArea
from .constants import ConstantsArea
from .invitations import InvitationsArea
from .notifications import NotificationsArea
from .portals import PortalsArea
from .roles import RolesArea
from .secure_channel import SecureChannelArea
from .security import SecurityArea

__all__ = [
    "AccountsArea",
    "Area",
    "AuthArea",
    "ConstantsArea",
    "InvitationsArea",
    "NotificationsArea",
    "PortalsArea",
    "RolesArea",
    "SecureChannelArea",
    "SecurityArea",
    "operation",
    "operation_id",
]
