"""The core tables: accounts, institutions, workspaces, roles, sign-in state, mailbox.

Times are epoch milliseconds (INTEGER). Enumerated columns hold the enum *code* (``ACTIVE``),
rendered with its value and localized label on the way out. Area modules add their own tables
through their ``SCHEMA`` string; these are the ones every area may read.
"""

from __future__ import annotations

from .db import Database
from .text import words

ACCOUNT_WORDS_TABLE = """
-- Every word of an account's name (search keys), for the word-prefix name filter; rows come
-- from account_word_rows() only. A prefix search reads this table alone (no account row):
-- name_fold (a copy of accounts.name_fold) gives the page in name order, and prev_word (the
-- account's word before this one in sorted order, '' for its first) keeps one row per account:
-- the words of an account matching a prefix are consecutive, so exactly one of them has a
-- prev_word below the prefix.
CREATE TABLE IF NOT EXISTS account_words (
    word       TEXT NOT NULL,
    account_id INTEGER NOT NULL,
    name_fold  TEXT NOT NULL,
    prev_word  TEXT NOT NULL,
    PRIMARY KEY (word, account_id)
) WITHOUT ROWID;
"""
ACCOUNT_WORDS_COLUMNS = ("word", "account_id", "name_fold", "prev_word")
ACCOUNT_WORDS_INSERT = (
    "INSERT INTO account_words (word, account_id, name_fold, prev_word) VALUES (?, ?, ?, ?)"
)
#: One row of ``account_words``, in the order of its columns.
WordRow = tuple[str, int, str, str]

CORE_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS institutions (
    biz_id             TEXT PRIMARY KEY,
    name               TEXT NOT NULL,
    institution_type   TEXT NOT NULL,   -- INSTITUTION_TYPE code
    institution_status TEXT NOT NULL,   -- INSTITUTION_STATUS code
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS accounts (
    id                  INTEGER PRIMARY KEY,
    biz_id              TEXT NOT NULL UNIQUE,
    institution_biz_id  TEXT NOT NULL,
    email               TEXT NOT NULL,          -- as registered
    email_key           TEXT NOT NULL UNIQUE,   -- lower-cased: lookups, prefix filter, sort
    phone               TEXT NOT NULL DEFAULT '',
    name                TEXT NOT NULL,
    name_key            TEXT NOT NULL,          -- text.search_key(name): name filter
    name_fold           TEXT NOT NULL,          -- name.casefold(): sort by name
    remark              TEXT,
    portal              TEXT NOT NULL,          -- PORTAL_TYPE code
    status              TEXT NOT NULL,          -- ACCOUNT_STATUS code (either listing)
    pending_approval    INTEGER NOT NULL DEFAULT 0,
    password_hash       TEXT,                   -- NULL: password not set yet
    totp_secret         TEXT,                   -- base32; NULL: no authenticator
    default_language    TEXT NOT NULL,
    default_timezone    TEXT NOT NULL,
    default_country     TEXT NOT NULL,
    created_at          INTEGER NOT NULL,
    updated_at          INTEGER NOT NULL,
    password_changed_at INTEGER,
    last_login_at       INTEGER,
    last_login_ip       TEXT
);
CREATE INDEX IF NOT EXISTS ix_accounts_name ON accounts (name_key);
CREATE INDEX IF NOT EXISTS ix_accounts_name_fold ON accounts (name_fold);
CREATE INDEX IF NOT EXISTS ix_accounts_created ON accounts (created_at);
CREATE INDEX IF NOT EXISTS ix_accounts_updated ON accounts (updated_at);
CREATE INDEX IF NOT EXISTS ix_accounts_status_email ON accounts (status, email_key);
CREATE INDEX IF NOT EXISTS ix_accounts_status_name ON accounts (status, name_fold);
CREATE INDEX IF NOT EXISTS ix_accounts_status_created ON accounts (status, created_at);
CREATE INDEX IF NOT EXISTS ix_accounts_status_updated ON accounts (status, updated_at);
CREATE INDEX IF NOT EXISTS ix_accounts_institution ON accounts (institution_biz_id, created_at);
CREATE INDEX IF NOT EXISTS ix_accounts_portal ON accounts (portal, created_at);
-- Prefix searches in the default order (newest first) read a covering index, not the rows.
CREATE INDEX IF NOT EXISTS ix_accounts_email_created ON accounts (email_key, created_at);
CREATE INDEX IF NOT EXISTS ix_accounts_name_created ON accounts (name_key, created_at);

{ACCOUNT_WORDS_TABLE.strip()}

CREATE TABLE IF NOT EXISTS mfa_settings (
    account_biz_id TEXT NOT NULL,
    method         TEXT NOT NULL,               -- MFA_METHOD code: EMAIL or OTP
    is_enabled     INTEGER NOT NULL DEFAULT 1,
    is_primary     INTEGER NOT NULL DEFAULT 0,
    verified_at    INTEGER,
    PRIMARY KEY (account_biz_id, method)
) WITHOUT ROWID;

-- Backup codes: sha256 hex of the normalized code (upper case, no dashes or spaces).
CREATE TABLE IF NOT EXISTS mfa_backup_codes (
    account_biz_id TEXT NOT NULL,
    code_hash      TEXT NOT NULL,
    created_at     INTEGER NOT NULL,
    used_at        INTEGER,
    PRIMARY KEY (account_biz_id, code_hash)
) WITHOUT ROWID;

-- TOTP time steps already accepted (a code is refused a second time).
CREATE TABLE IF NOT EXISTS totp_used (
    account_biz_id TEXT NOT NULL,
    step           INTEGER NOT NULL,
    PRIMARY KEY (account_biz_id, step)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS workspaces (
    biz_id             TEXT PRIMARY KEY,
    name               TEXT NOT NULL,
    institution_biz_id TEXT NOT NULL,
    owner_biz_id       TEXT NOT NULL,
    status             TEXT NOT NULL,           -- WORKSPACE_STATUS code
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS roles (
    biz_id           TEXT PRIMARY KEY,
    workspace_biz_id TEXT NOT NULL,
    role_name        TEXT NOT NULL,
    role_type        TEXT NOT NULL,             -- ROLE_TYPE code: OWNER or CUSTOM
    description      TEXT NOT NULL DEFAULT '',
    permission_codes TEXT NOT NULL,             -- JSON array of permission codes
    created_at       INTEGER NOT NULL,
    updated_at       INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS ix_roles_workspace ON roles (workspace_biz_id);

CREATE TABLE IF NOT EXISTS workspace_members (
    workspace_biz_id TEXT NOT NULL,
    account_biz_id   TEXT NOT NULL,
    role_biz_id      TEXT NOT NULL,
    status           TEXT NOT NULL,             -- WORKSPACE_STATUS code
    is_primary       INTEGER NOT NULL DEFAULT 0,
    join_source      TEXT NOT NULL,             -- JOIN_SOURCE code
    joined_at        INTEGER NOT NULL,
    PRIMARY KEY (workspace_biz_id, account_biz_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS ix_members_account ON workspace_members (account_biz_id);
CREATE INDEX IF NOT EXISTS ix_members_role ON workspace_members (role_biz_id);

-- Signed-in sessions (the "Session" records of the security area).
CREATE TABLE IF NOT EXISTS auth_sessions (
    sid                TEXT PRIMARY KEY,
    account_biz_id     TEXT NOT NULL,
    client_ip          TEXT NOT NULL,
    user_agent         TEXT NOT NULL,
    client_hash        TEXT NOT NULL DEFAULT '',
    login_time         INTEGER NOT NULL,
    last_activity_time INTEGER NOT NULL,
    ended_at           INTEGER,                 -- NULL while active
    end_reason         TEXT
);
CREATE INDEX IF NOT EXISTS ix_auth_sessions_account ON auth_sessions (account_biz_id, ended_at);

-- Refresh tokens (sha256 hex of the token); a family is the chain of one auth session.
CREATE TABLE IF NOT EXISTS refresh_tokens (
    token_hash     TEXT PRIMARY KEY,
    family_id      TEXT NOT NULL,
    sid            TEXT NOT NULL,
    account_biz_id TEXT NOT NULL,
    issued_at      INTEGER NOT NULL,
    expires_at     INTEGER NOT NULL,
    used_at        INTEGER,
    revoked_at     INTEGER
);
CREATE INDEX IF NOT EXISTS ix_refresh_family ON refresh_tokens (family_id);

CREATE TABLE IF NOT EXISTS login_history (
    id             INTEGER PRIMARY KEY,
    biz_id         TEXT NOT NULL UNIQUE,
    account_biz_id TEXT NOT NULL,
    login_time     INTEGER NOT NULL,
    client_ip      TEXT NOT NULL,
    user_agent     TEXT NOT NULL,
    login_result   INTEGER NOT NULL,            -- 1 success, 2 failure, 3 blocked
    failure_reason TEXT
);
CREATE INDEX IF NOT EXISTS ix_login_history_account ON login_history (account_biz_id, login_time);

-- Login sessions between login/initiate and login/complete.
CREATE TABLE IF NOT EXISTS login_sessions (
    session_id      TEXT PRIMARY KEY,
    account_biz_id  TEXT NOT NULL,
    client_hash     TEXT NOT NULL,
    created_at      INTEGER NOT NULL,
    expires_at      INTEGER NOT NULL,
    email_code_hash TEXT,
    code_sent_at    INTEGER,
    code_expires_at INTEGER,
    completed_at    INTEGER
);

CREATE TABLE IF NOT EXISTS password_reset_tokens (
    token_hash     TEXT PRIMARY KEY,
    account_biz_id TEXT NOT NULL,
    created_at     INTEGER NOT NULL,
    expires_at     INTEGER NOT NULL,
    used_at        INTEGER
);

CREATE TABLE IF NOT EXISTS password_init_sessions (
    session_id     TEXT PRIMARY KEY,
    account_biz_id TEXT NOT NULL,
    created_at     INTEGER NOT NULL,
    expires_at     INTEGER NOT NULL,
    used_at        INTEGER
);

CREATE TABLE IF NOT EXISTS mailbox (
    id         INTEGER PRIMARY KEY,
    to_key     TEXT NOT NULL,                   -- lower-cased address
    to_addr    TEXT NOT NULL,
    subject    TEXT NOT NULL,
    body       TEXT NOT NULL,
    code       TEXT,
    token      TEXT,
    session_id TEXT,
    sent_at    INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS ix_mailbox_to ON mailbox (to_key, id);
"""


def account_word_rows(account_id: int, name: str, name_fold: str) -> list[WordRow]:
    """The ``account_words`` rows of an account's name (``name_fold`` as stored in accounts)."""
    keys = words(name)  # distinct and sorted
    prevs = ("", *keys[:-1])
    return [(w, account_id, name_fold, p) for w, p in zip(keys, prevs, strict=True)]


def create_core_schema(db: Database) -> None:
    """Create the core tables; rebuild ``account_words`` when an older sandbox made it."""
    db.executescript(CORE_SCHEMA)
    columns = tuple(str(r["name"]) for r in db.query("PRAGMA table_info(account_words)"))
    if columns == ACCOUNT_WORDS_COLUMNS:
        return
    with db.transaction():
        db.execute("DROP TABLE account_words")
        db.execute(ACCOUNT_WORDS_TABLE)
        accounts = db.query("SELECT id, name, name_fold FROM accounts")
        rows = sorted(r for a in accounts for r in account_word_rows(a[0], a[1], a[2]))
        db.executemany(ACCOUNT_WORDS_INSERT, rows)
    db.execute("ANALYZE account_words")
