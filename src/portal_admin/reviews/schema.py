"""The campaign file's schema: its tables, indexes and the upgrades from one version to the next
(what ``campaign.py`` writes and ``opening.py`` compares a received file with)."""

from __future__ import annotations

#: 2: decisions and sign-offs record the reviewer's server identity (account id and email);
#: sign-offs record their format (2 covers the revocation action and the identities).
SCHEMA_VERSION = 2

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE items (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    ref TEXT NOT NULL,
    label TEXT NOT NULL,
    name TEXT,
    status TEXT,
    portal TEXT,
    institution TEXT,
    updated TEXT,
    detail TEXT,
    flags INTEGER NOT NULL DEFAULT 0,
    part TEXT NOT NULL DEFAULT '',
    decision TEXT,
    decision_seq INTEGER
);
CREATE TABLE flags (
    item INTEGER NOT NULL, code TEXT NOT NULL, reason TEXT NOT NULL,
    PRIMARY KEY (item, code)
) WITHOUT ROWID;
CREATE TABLE decisions (
    seq INTEGER PRIMARY KEY,
    item TEXT NOT NULL,
    decision TEXT NOT NULL,
    justification TEXT NOT NULL,
    reviewer TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    decided_at TEXT NOT NULL,
    source TEXT NOT NULL
);
CREATE TABLE signoffs (
    seq INTEGER PRIMARY KEY,
    part TEXT NOT NULL,
    reviewer TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    public_key TEXT NOT NULL,
    signed_at TEXT NOT NULL,
    items INTEGER NOT NULL,
    digest TEXT NOT NULL,
    signature TEXT NOT NULL UNIQUE
);
CREATE TABLE signed_items (
    signoff INTEGER NOT NULL, item TEXT NOT NULL, digest TEXT NOT NULL,
    PRIMARY KEY (signoff, item)
) WITHOUT ROWID;
CREATE TABLE remediation (
    item TEXT PRIMARY KEY, job TEXT NOT NULL, current TEXT NOT NULL, changed TEXT NOT NULL
);
CREATE TABLE closing (
    item TEXT PRIMARY KEY, outcome TEXT NOT NULL, current TEXT NOT NULL, detail TEXT NOT NULL
);
"""
#: From one schema version to the next: version N is SCHEMA, INDEXES and the first N - 1 of
#: these (a new file runs them too, so an upgraded file and a new one have the same schema).
UPGRADES = (
    """
ALTER TABLE decisions ADD COLUMN account_id TEXT NOT NULL DEFAULT '';
ALTER TABLE decisions ADD COLUMN account_email TEXT NOT NULL DEFAULT '';
ALTER TABLE signoffs ADD COLUMN account_id TEXT NOT NULL DEFAULT '';
ALTER TABLE signoffs ADD COLUMN account_email TEXT NOT NULL DEFAULT '';
ALTER TABLE signoffs ADD COLUMN format INTEGER NOT NULL DEFAULT 1;
""",
)
#: Built once the items are in (faster than keeping them up to date row by row).
INDEXES = """
CREATE INDEX items_decision ON items (decision, seq);
CREATE INDEX items_flagged ON items (seq) WHERE flags > 0;
CREATE INDEX flags_code ON flags (code, item);
CREATE INDEX decisions_item ON decisions (item, seq);
"""
