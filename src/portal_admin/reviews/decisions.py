"""Decisions: Keep, Revoke, Don't know; who decided and when. A reviewer is the holder of a
key (this installation's), and, when signed in, the account the server says they are (id and
email, from ``GET /profile``): both are recorded with each decision; the name is what they
typed. Their own account is refused to them by that identity when it is known, by the name
otherwise.

:func:`decide` records one decision for one or many items in a single transaction: all of
them or none (the first refused item is named). Every change is a new row of the history;
the same decision repeated by the same reviewer with the same justification is not recorded
again (so a command re-run after a kill records nothing twice). A decisions CSV
(:func:`read_csv`) is the same: every line checked, then one transaction.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from portal_admin.evidence import keys
from portal_admin.files.csv_rules import FORMULA_TRIGGERS
from portal_admin.files.terminal import printable

from .campaign import Campaign, CampaignError, now_iso
from .flags import is_own

#: The largest decisions CSV read (bytes).
MAX_CSV_BYTES = 64 * 1024 * 1024
#: The longest justification kept.
MAX_JUSTIFICATION = 2000


class Decision(StrEnum):
    """A reviewer's decision on one item."""

    KEEP = "KEEP"
    REVOKE = "REVOKE"
    DONT_KNOW = "DONT_KNOW"

    @property
    def words(self) -> str:
        return {"KEEP": "Keep", "REVOKE": "Revoke", "DONT_KNOW": "Don't know"}[self.value]


def parse_decision(text: str) -> Decision | None:
    """A decision from what a person typed (Keep, Revoke, Don't know; any case), or None."""
    plain = "".join(ch for ch in text.strip().casefold() if ch.isalnum())
    return {"keep": Decision.KEEP, "revoke": Decision.REVOKE, "dontknow": Decision.DONT_KNOW}.get(
        plain.replace("donot", "dont")
    )


@dataclass(frozen=True, slots=True)
class Reviewer:
    """Who decides: a name (an email, usually), their installation key's fingerprint, and,
    when signed in, the server's account id and email for them (``GET /profile``; empty when
    not known)."""

    name: str
    fingerprint: str
    account_id: str = ""
    account_email: str = ""

    def owns(self, kind: str, ref: str, label: str) -> bool:
        """True when an item is this reviewer's own account: by the server identity when it
        is known, by the name otherwise (and always by the name: an email typed as one)."""
        if kind != "account":
            return False
        if self.account_id and ref == self.account_id:
            return True
        if self.account_email and label.strip().casefold() == self.account_email.casefold():
            return True
        return is_own(label, kind, self.name)


def reviewer_name(name: str) -> str:
    """``name`` as a reviewer's name (one line of text, at most 200 characters, no control
    characters); ``CampaignError`` BAD_INPUT otherwise."""
    text = name.strip()
    if not text or any(unicodedata.category(ch).startswith("C") for ch in text) or len(text) > 200:
        raise CampaignError(
            "BAD_INPUT",
            "a reviewer's name is one line of text (an email, say)",
            reason="BAD_REVIEWER",
        )
    return text


def reviewer_of(
    name: str,
    store: keys.SecretStore | None = None,
    *,
    account_id: str | None = None,
    account_email: str | None = None,
) -> Reviewer:
    """The reviewer ``name`` with this installation's key (``store``: where it is kept; the
    keyring or the key file by default) and, when signed in, the server's identity for them
    (the profile's account id and email). ``KeyUnavailable`` when the key can be neither read
    nor made."""
    return Reviewer(
        reviewer_name(name),
        keys.fingerprint(keys.signing_key(store).public_key()),
        _identity(account_id),
        _identity(account_email),
    )


def _identity(text: str | None) -> str:
    value = (text or "").strip()
    if len(value) > 200 or any(unicodedata.category(ch).startswith("C") for ch in value):
        raise CampaignError(
            "BAD_INPUT",
            "the server's account id or email is not one line",
            reason="BAD_IDENTITY",
        )
    return value


@dataclass(frozen=True, slots=True)
class Entry:
    """One decision asked for: item id, decision, justification; ``line``: where in a CSV."""

    item: str
    decision: Decision
    justification: str
    line: int | None = None


def _where(entry: Entry) -> str:
    item = printable(entry.item, 100)
    return f"line {entry.line} ({item})" if entry.line is not None else item


def needs_justification(decision: Decision, flagged: bool) -> bool:
    """Revoke and Don't know always; Keep on a flagged item."""
    return decision is not Decision.KEEP or flagged


def decide(
    campaign: Campaign,
    items: str | Sequence[str],
    decision: Decision | str,
    justification: str,
    reviewer: Reviewer,
    *,
    source: str = "",
) -> int:
    """Record ``decision`` for one or many item ids, in one transaction; returns how many
    decisions were recorded (a repeat of an item's latest decision is not). ``CampaignError``
    names the first item refused, and nothing is recorded."""
    ids = [items] if isinstance(items, str) else list(items)
    chosen = decision if isinstance(decision, Decision) else parse_decision(str(decision))
    if chosen is None:
        raise CampaignError(
            "BAD_INPUT", f"not a decision: {decision!r} (Keep, Revoke, Don't know)",
            reason="NOT_A_DECISION", params=(str(decision)[:40],),
        )  # fmt: skip
    return record(campaign, [Entry(i, chosen, justification) for i in ids], reviewer, source=source)


def record(
    campaign: Campaign, entries: Sequence[Entry], reviewer: Reviewer, *, source: str = ""
) -> int:
    """Record ``entries`` in one transaction (every one checked first); see :func:`decide`."""
    if campaign.meta.get("closed"):
        raise CampaignError("CLOSED", f"campaign {campaign.name!r} is closed: decisions are final")
    conn = campaign.conn
    when = now_iso()
    with campaign.transaction():
        conn.execute("CREATE TEMP TABLE IF NOT EXISTS wanted (pos INTEGER PRIMARY KEY, id TEXT)")
        conn.execute("DELETE FROM temp.wanted")
        conn.executemany(
            "INSERT INTO temp.wanted (pos, id) VALUES (?, ?)",
            ((n, e.item) for n, e in enumerate(entries)),
        )
        signed = campaign.is_signed()
        rows = conn.execute(
            "SELECT w.pos, i.seq, i.kind, i.label, i.flags, d.decision, d.justification,"  # noqa: S608
            " d.reviewer, d.fingerprint,"
            + (" EXISTS (SELECT 1 FROM signed_items AS s WHERE s.item = w.id)" if signed else " 0")
            + ", i.ref, d.account_id, d.account_email"
            " FROM temp.wanted AS w LEFT JOIN items AS i ON i.id = w.id"
            " LEFT JOIN decisions AS d ON d.seq ="
            " (SELECT max(seq) FROM decisions AS h WHERE h.item = w.id) ORDER BY w.pos"
        ).fetchall()
        new: list[tuple[str, ...]] = []
        for row in rows:
            entry = entries[row[0]]
            if row[1] is None:
                raise CampaignError(
                    "UNKNOWN_ITEM", f"{_where(entry)}: no such item in this campaign",
                    item=entry.item, line=entry.line,
                )  # fmt: skip
            if row[9]:
                raise CampaignError(
                    "FROZEN", f"{_where(entry)}: signed off, its decision is frozen",
                    item=entry.item, line=entry.line,
                )  # fmt: skip
            if reviewer.owns(row[2], row[10], row[3]):
                raise CampaignError(
                    "SELF",
                    f"{_where(entry)}: the reviewer's own account; another reviewer decides it",
                    item=entry.item, line=entry.line,
                )  # fmt: skip
            text = " ".join(entry.justification.split())
            if needs_justification(entry.decision, row[4] > 0) and not text:
                why = "a flagged item" if entry.decision is Decision.KEEP else entry.decision.words
                raise CampaignError(
                    "BAD_INPUT", f"{_where(entry)}: a justification is required ({why})",
                    item=entry.item, line=entry.line,
                    reason="JUSTIFICATION_REQUIRED", params=(entry.decision.value,),
                )  # fmt: skip
            if len(text) > MAX_JUSTIFICATION:
                raise CampaignError(
                    "BAD_INPUT",
                    f"{_where(entry)}: a justification has at most {MAX_JUSTIFICATION} characters",
                    item=entry.item, line=entry.line,
                    reason="JUSTIFICATION_TOO_LONG", params=(str(MAX_JUSTIFICATION),),
                )  # fmt: skip
            if (row[5], row[6], row[7], row[8], row[11], row[12]) == (
                entry.decision.value, text, reviewer.name, reviewer.fingerprint,
                reviewer.account_id, reviewer.account_email,
            ):  # fmt: skip
                continue  # already this reviewer's latest decision: nothing new to record
            new.append(
                (entry.item, entry.decision.value, text, reviewer.name, reviewer.fingerprint,
                 when, source, reviewer.account_id, reviewer.account_email)
            )  # fmt: skip
        conn.execute("DELETE FROM temp.wanted")
        if not new:
            return 0
        first = conn.execute("SELECT coalesce(max(seq), 0) + 1 FROM decisions").fetchone()[0]
        conn.executemany(
            "INSERT INTO decisions (seq, item, decision, justification, reviewer, fingerprint,"
            " decided_at, source, account_id, account_email)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            ((first + n, *row) for n, row in enumerate(new)),
        )
        conn.executemany(
            "UPDATE items SET decision = ?, decision_seq = ? WHERE id = ?",
            ((row[1], first + n, row[0]) for n, row in enumerate(new)),
        )
    return len(new)


def _unguard(cell: str) -> str:
    """A cell as written by the program's CSV rules, without its formula guard."""
    text = cell.strip()
    if len(text) > 1 and text[0] == "'" and text[1] in FORMULA_TRIGGERS:
        return text[1:]
    return text


def read_csv(data: bytes) -> list[Entry]:
    """The decisions of a CSV with the columns id, decision and justification (any order,
    others ignored; ``,``, ``;`` or tab; UTF-8 with or without a BOM). A line whose decision
    is empty decides nothing. ``CampaignError`` BAD_INPUT names the line of an unknown
    decision, a line without an id, or an id listed twice."""
    if len(data) > MAX_CSV_BYTES:
        raise CampaignError("BAD_INPUT", f"the decisions file is larger than {MAX_CSV_BYTES} bytes")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise CampaignError("BAD_INPUT", f"line {line}: not UTF-8", line=line) from None
    first = text.split("\n", 1)[0]
    delimiter = max((",", ";", "\t"), key=first.count)
    rows = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    entries: list[Entry] = []
    seen: dict[str, int] = {}
    try:
        header = [c.strip().casefold() for c in next(rows, [])]
        columns: dict[str, int] = {
            name: header.index(name)
            for name in ("id", "decision", "justification")
            if name in header
        }
        if "id" not in columns or "decision" not in columns:
            raise CampaignError(
                "BAD_INPUT", "line 1: the header names no id and decision columns", line=1
            )
        for row in rows:
            line = rows.line_num
            cells = [_unguard(c) for c in row]
            if not any(cells):
                continue

            def cell(name: str, cells: list[str] = cells) -> str:
                at = columns.get(name)
                return cells[at] if at is not None and at < len(cells) else ""

            item, said = cell("id"), cell("decision")
            if not said:
                continue
            if not item:
                raise CampaignError("BAD_INPUT", f"line {line}: no id", line=line)
            chosen = parse_decision(said)
            if chosen is None:
                raise CampaignError(
                    "BAD_INPUT",
                    f"line {line} ({printable(item, 100)}): not a decision: {said[:40]!r}"
                    " (Keep, Revoke, Don't know)",
                    item=item, line=line,
                )  # fmt: skip
            if item in seen:
                raise CampaignError(
                    "BAD_INPUT",
                    f"line {line} ({printable(item, 100)}): listed before, on line {seen[item]}",
                    item=item, line=line,
                )  # fmt: skip
            seen[item] = line
            entries.append(Entry(item, chosen, cell("justification"), line))
    except csv.Error as exc:
        raise CampaignError(
            "BAD_INPUT", f"line {rows.line_num}: {exc}", line=rows.line_num
        ) from None
    return entries
