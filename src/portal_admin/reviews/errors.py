"""What the campaign engine refuses, as codes: :class:`CampaignError` carries a ``code`` (one
of :data:`CODES`) and, for BAD_INPUT, a finer ``reason`` (one of :data:`REASONS`) with its
``params``; its message is the English sentence the command line prints. The desktop turns
the codes into words of the reader's language (``ui/panels/reviews/refusals.py``) and never
reads the English."""

from __future__ import annotations

#: Every code of a :class:`CampaignError`. Of a file: NOT_FOUND, NOT_A_CAMPAIGN, FOREIGN_SQL
#: (a trigger, a view, a ``sqlite_stat*`` table or any table or index this program does not
#: write), SCHEMA (a table or index of ours missing or defined otherwise), DAMAGED (the
#: integrity check fails, metadata or a row that is not JSON or not of its type), TOO_SLOW
#: (past its time budget), NEWER_SCHEMA; of a change: FROZEN, CLOSED, BAD_INPUT (see
#: :data:`REASONS`), SELF, UNKNOWN_ITEM, OTHER_CAMPAIGN, CONFLICT, NOT_SIGNED, CHANGED,
#: UNTRUSTED (a sign-off by a key this installation does not trust), OLD_SIGNOFF (a sign-off
#: of an earlier format, which does not cover the revocation action or the scope's server),
#: OTHER_SERVER (remediation on another server than the signed scope's), UNDECIDED,
#: UNREMEDIATED.
CODES = (
    "NOT_FOUND", "NOT_A_CAMPAIGN", "FOREIGN_SQL", "SCHEMA", "DAMAGED", "TOO_SLOW",
    "NEWER_SCHEMA", "FROZEN", "CLOSED", "BAD_INPUT", "SELF", "UNKNOWN_ITEM", "OTHER_CAMPAIGN",
    "CONFLICT", "NOT_SIGNED", "CHANGED", "UNTRUSTED", "OLD_SIGNOFF", "OTHER_SERVER",
    "UNDECIDED", "UNREMEDIATED",
)  # fmt: skip

#: Why an input was refused (BAD_INPUT), with the ``params`` each reason carries:
#: NO_NAME (), BAD_DUE (the date typed), BAD_REVOCATION (), BAD_STALE_DAYS (),
#: SCOPE_UNREADABLE (the snapshot's file name), EXISTS (the file's name), BASELINE_UNREADABLE
#: (the earlier file's name), NOT_A_DECISION (what was given), JUSTIFICATION_REQUIRED (the
#: decision: KEEP on a flagged item, REVOKE or DONT_KNOW), JUSTIFICATION_TOO_LONG (the most
#: characters), BAD_REVIEWER (), BAD_IDENTITY (), NO_ITEMS (), CLOSING_UNREADABLE (the
#: snapshot's file name). A BAD_INPUT of the command line's own inputs (a decisions CSV, a
#: split) has no reason: its message names the line.
REASONS = (
    "NO_NAME", "BAD_DUE", "BAD_REVOCATION", "BAD_STALE_DAYS", "SCOPE_UNREADABLE", "EXISTS",
    "BASELINE_UNREADABLE", "NOT_A_DECISION", "JUSTIFICATION_REQUIRED", "JUSTIFICATION_TOO_LONG",
    "BAD_REVIEWER", "BAD_IDENTITY", "NO_ITEMS", "CLOSING_UNREADABLE",
)  # fmt: skip


class CampaignError(Exception):
    """A file that cannot be used as a campaign, or a change the campaign refuses.

    ``code``: one of :data:`CODES`; ``reason``: for BAD_INPUT, one of :data:`REASONS`;
    ``params``: the reason's parameters, or the code's (OTHER_SERVER: the server the scope was
    signed on, empty when none is named, and the one signed in to); ``item``/``line`` name
    where. The message is the English sentence (the command line's)."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        item: str | None = None,
        line: int | None = None,
        reason: str = "",
        params: tuple[str, ...] = (),
    ) -> None:
        super().__init__(message)
        assert code in CODES, code
        assert not reason or reason in REASONS, reason
        self.code = code
        self.item = item
        self.line = line
        self.reason = reason
        self.params = params
