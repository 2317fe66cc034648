"""Access-review campaigns (no Qt): a campaign file made from a snapshot, flags, decisions,
splitting and merging, sign-off, remediation as a bulk job, the closing check and the pack.
Over ``evidence/`` and ``jobs/``; never imports ``ui/`` or ``sandbox/``. See docs/reviews.md.
"""

from .campaign import Campaign, CampaignError, Decided, Flag, Item, Query
from .create import ScopeFilter, Settings, create_campaign
from .decisions import Decision, Entry, Reviewer, decide, read_csv, record, reviewer_of
from .signoff import SignedDecision, Signoff, Verification, sign, verify

__all__ = [
    "Campaign",
    "CampaignError",
    "Decided",
    "Decision",
    "Entry",
    "Flag",
    "Item",
    "Query",
    "Reviewer",
    "ScopeFilter",
    "Settings",
    "SignedDecision",
    "Signoff",
    "Verification",
    "create_campaign",
    "decide",
    "read_csv",
    "record",
    "reviewer_of",
    "sign",
    "verify",
]
