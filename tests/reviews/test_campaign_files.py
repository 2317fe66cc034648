"""A received campaign file is data, not a database to obey: each attack an adversarial review
made on a campaign file, and the class it belongs to (docs/threat-model.md, "Campaign files").

Every file here is edited with plain SQLite, as a colleague could: triggers and views
whatever the case of their type, indexes that disagree with their table, statistics, extra
objects, orphan rows, settings and derived columns changed after sign-off, signers who are not
trusted or are this installation under another name, and names carrying escape sequences.
"""

from __future__ import annotations

import base64
import shutil
import sqlite3
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from portal_admin.evidence import keys
from portal_admin.evidence.trust import TrustStore
from portal_admin.reviews import (
    Campaign,
    CampaignError,
    Reviewer,
    closing,
    decide,
    opening,
    remediation,
    reviewer_of,
    sign,
    verify,
)
from portal_admin.reviews import pack as review_pack
from portal_admin.reviews.schema import INDEXES, SCHEMA
from portal_admin.reviews.signoff import _digest, _payload
from portal_admin.reviews.split_merge import merge, split

from .support import SERVER, account, make_snapshot

KEPT, REVOKED = "account:ACC000001", "account:ACC000002"


def raw(path: Path, *statements: str, schema: bool = False) -> None:
    """Statements run by plain SQLite on the file (``schema``: with ``writable_schema``),
    each on a connection of its own (so that the next one reads the schema afresh)."""
    for sql in statements:
        conn = sqlite3.connect(path, isolation_level=None)
        if schema:
            conn.execute("PRAGMA writable_schema=ON")
        conn.executescript(sql)
        conn.close()


def refused(path: Path, **kwargs: Any) -> CampaignError:
    with pytest.raises(CampaignError) as caught:
        Campaign.open(path, **kwargs).close()
    return caught.value


@pytest.fixture
def signed(campaign: Campaign, reviewer: Reviewer, store: keys.MemoryStore) -> Path:
    """A campaign with a Keep and a Revoke, signed off by ``reviewer``; closed (its path)."""
    decide(campaign, KEPT, "Keep", "", reviewer)
    decide(campaign, REVOKED, "Revoke", "left", reviewer)
    sign(campaign, reviewer.name, keys.signing_key(store))
    path = campaign.path
    campaign.close()
    return path


def revokes(path: Path, **trust: Any) -> list[str]:
    with Campaign.open(path) as campaign:
        return [d.item for d in verify(campaign, **trust).revokes]


# The schema is this program's, exactly ----------------------------------------------------


def test_a_trigger_typed_in_another_case_is_refused(signed: Path) -> None:
    """SQLite reads a schema row's type without regard to case: ``Trigger`` fires."""
    raw(
        signed,
        "CREATE TRIGGER keep AFTER INSERT ON decisions BEGIN"
        " UPDATE decisions SET decision = 'KEEP' WHERE seq = new.seq; END;",
    )
    raw(signed, "UPDATE sqlite_master SET type = 'Trigger' WHERE name = 'keep'", schema=True)
    error = refused(signed)
    assert error.code == "FOREIGN_SQL" and "Trigger 'keep'" in str(error)


@pytest.mark.parametrize(
    ("sql", "code", "named"),
    [
        ("ANALYZE", "FOREIGN_SQL", "sqlite_stat1"),  # statistics steer the planner
        ("CREATE TABLE notes (x)", "FOREIGN_SQL", "table 'notes'"),
        ("CREATE INDEX items_label ON items (label)", "FOREIGN_SQL", "index 'items_label'"),
        ("CREATE VIEW summary AS SELECT 1", "FOREIGN_SQL", "view 'summary'"),
        ("CREATE TRIGGER t1 AFTER UPDATE ON items BEGIN SELECT 1; END", "FOREIGN_SQL",
         "trigger 't1'"),
        ("DROP INDEX items_flagged; CREATE INDEX items_flagged ON items (seq) WHERE flags >= 0",
         "SCHEMA", "items_flagged"),
        ("DROP INDEX items_decision", "SCHEMA", "items_decision"),
        ("DROP TABLE closing", "SCHEMA", "no closing table"),
    ],
)  # fmt: skip
def test_anything_but_this_programs_schema_is_refused_by_name(
    signed: Path, sql: str, code: str, named: str
) -> None:
    raw(signed, sql)
    error = refused(signed)
    assert (error.code, named in str(error)) == (code, True), str(error)


def test_a_forged_index_is_refused_and_decides_nothing(
    signed: Path, reviewer: Reviewer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An index rebuilt to disagree with its table: the table says Keep (as signed), the
    index says Revoke; ``PRAGMA quick_check`` says ok."""
    raw(signed, f"UPDATE items SET decision = 'REVOKE' WHERE id = '{KEPT}'")
    blind = "UPDATE sqlite_master SET sql = ? WHERE name = 'items_decision'"
    conn = sqlite3.connect(signed, isolation_level=None)
    conn.execute("PRAGMA writable_schema=ON")
    conn.execute(blind, ("CREATE INDEX items_decision ON items (label, seq)",))
    conn.close()
    raw(signed, f"UPDATE items SET decision = 'KEEP' WHERE id = '{KEPT}'")  # index untouched
    conn = sqlite3.connect(signed, isolation_level=None)
    conn.execute("PRAGMA writable_schema=ON")
    conn.execute(blind, ("CREATE INDEX items_decision ON items (decision, seq)",))
    conn.close()
    conn = sqlite3.connect(signed)
    assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    assert conn.execute(
        "SELECT id FROM items INDEXED BY items_decision WHERE decision = 'REVOKE' ORDER BY seq"
    ).fetchall() == [(KEPT,), (REVOKED,)]  # the index lies
    conn.close()

    error = refused(signed)
    assert error.code == "DAMAGED" and "integrity check" in str(error)

    # Were the check ever passed, what is remediated comes from the signed history alone.
    monkeypatch.setattr(opening, "integrity", lambda conn: None)
    assert revokes(signed, own=reviewer.fingerprint) == [REVOKED]


def test_an_endless_view_in_place_of_meta_is_refused_at_once(signed: Path) -> None:
    raw(
        signed,
        "DROP TABLE meta; CREATE VIEW meta (key, value) AS WITH RECURSIVE r (n) AS"
        " (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT 'kind', '\"x\"' FROM r",
    )
    found: list[BaseException] = []

    def opening_it() -> None:
        try:
            Campaign.open(signed, timeout=5)
        except BaseException as exc:
            found.append(exc)

    worker = threading.Thread(target=opening_it, daemon=True)
    started = time.monotonic()
    worker.start()
    worker.join(30)
    assert not worker.is_alive(), "opening the file hangs"
    assert time.monotonic() - started < 20  # the view is endless: refused unread, not slowly
    assert isinstance(found[0], CampaignError) and found[0].code == "FOREIGN_SQL"
    assert "view 'meta'" in str(found[0])


def test_every_read_has_a_time_budget(signed: Path) -> None:
    assert refused(signed, timeout=0).code == "TOO_SLOW"
    with Campaign.open(signed, timeout=30) as campaign:
        campaign.conn.budget = 0.2  # type: ignore[attr-defined]
        started = time.monotonic()
        with pytest.raises(sqlite3.OperationalError) as stopped:
            campaign.conn.execute(
                "WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)"
                " SELECT count(*) FROM r"
            ).fetchone()
        assert opening.too_slow(stopped.value) and time.monotonic() - started < 20


def test_metadata_that_is_not_json_is_named(signed: Path) -> None:
    raw(signed, "UPDATE meta SET value = 'not json' WHERE key = 'due'")
    error = refused(signed)
    assert error.code == "DAMAGED" and "'due' is not JSON" in str(error)


def test_close_and_reopen_in_a_folder_sqlite_would_read_as_a_uri(
    tmp_path: Path, signed: Path
) -> None:
    """Create, decide, sign (the fixture), close, reopen: in a folder whose name holds what a
    SQLite URI reads as a fragment, a query and an escape (the closing snapshot is attached
    by URI). Closing changes no schema and writes JSON: the closed file opens again."""
    folder = tmp_path / (
        "Q4 #2 100%" if sys.platform == "win32" else "Q4 #2 100%?"
    )  # ? not on Windows
    folder.mkdir()
    moved = folder / "c.review"
    shutil.copy(signed, moved)
    end = make_snapshot(folder / "end #1.sqlite3", [account(n) for n in range(1, 4)])
    with Campaign.open(moved) as campaign:
        assert verify(campaign).status == "intact"
        counts = closing.check(campaign, end, close_as="admin@example.test")
        assert counts["revoked, not done"] == 1
        campaign.reload_meta()
    with Campaign.open(moved) as reopened:
        assert reopened.meta["closed"] is True and reopened.meta["closed_unremediated"] == 1
        assert verify(reopened).status == "intact"
        assert len(closing.closing_rows(reopened)) >= 1


# What remediation acts on is what was signed -------------------------------------------------


def test_orphan_signed_items_make_nothing_signed(
    tmp_path: Path, campaign: Campaign, reviewer: Reviewer, store: keys.MemoryStore
) -> None:
    """Split and merged: one row naming a sign-off that does not exist must not make a part
    nobody signed off count as signed."""
    parts = {p.name: p for p in split(campaign, "portal", tmp_path / "parts")}
    with Campaign.open(parts["q4.portal-TENANT.review"]) as tenant:
        decide(tenant, "account:ACC000001", "Revoke", "left", reviewer)
        sign(tenant, reviewer.name, keys.signing_key(store))
    with Campaign.open(parts["q4.portal-PARTNER.review"]) as partner:
        decide(partner, "account:ACC000009", "Revoke", "nobody signs this", reviewer)
    for path in parts.values():
        merge(campaign, path)
    path = campaign.path
    campaign.close()
    assert revokes(path, own=reviewer.fingerprint) == ["account:ACC000001"]
    raw(path, "INSERT INTO signed_items VALUES (999, 'account:ACC000009', 'x')")
    with Campaign.open(path) as reopened:
        check = verify(reopened, own=reviewer.fingerprint)
    assert check.status == "changed"
    assert any("sign-off 999" in p for p in check.problems)
    assert [d.item for d in check.revokes] == ["account:ACC000001"]
    error = remediation.refusal(check)
    assert error is not None and error.code == "CHANGED"


def test_the_revocation_is_covered_by_the_sign_off(signed: Path, reviewer: Reviewer) -> None:
    with Campaign.open(signed) as campaign:
        check = verify(campaign, own=reviewer.fingerprint)
    assert check.status == "intact" and check.revocation == "SUSPEND"
    raw(signed, "UPDATE meta SET value = '\"DEACTIVATE\"' WHERE key = 'revocation'")
    with Campaign.open(signed) as campaign:
        check = verify(campaign, own=reviewer.fingerprint)
    assert check.status == "changed" and "does not verify" in check.problems[0]
    error = remediation.refusal(check)
    assert error is not None and error.code == "CHANGED"


def test_decision_seq_edited_is_named_and_never_shown_as_signed(
    campaign: Campaign, reviewer: Reviewer, store: keys.MemoryStore
) -> None:
    decide(campaign, REVOKED, "Revoke", "first thought", reviewer)
    decide(campaign, REVOKED, "Revoke", "left in October", reviewer)
    sign(campaign, reviewer.name, keys.signing_key(store))
    first = campaign.history(REVOKED)[0].seq
    path = campaign.path
    campaign.close()
    raw(path, f"UPDATE items SET decision_seq = {first} WHERE id = '{REVOKED}'")
    with Campaign.open(path) as reopened:
        check = verify(reopened, own=reviewer.fingerprint)
        assert check.status == "changed" and f"inconsistent: {REVOKED}" in check.problems
        tables, summary = review_pack.contents(reopened)
        row = next(r for r in tables["items"][1] if r[0] == REVOKED)
        assert row[10:12] == ("REVOKE", "left in October")  # the history's, not the column's
        assert summary["sign-offs"] == "changed"
        item = reopened.item(REVOKED)
        assert item is not None
        shown_decision = reopened.decision_of(item)
        assert shown_decision is not None and shown_decision.justification == "left in October"


# Who signed ------------------------------------------------------------------------------


def test_sign_offs_go_through_the_trust_model(
    tmp_path: Path, signed: Path, reviewer: Reviewer
) -> None:
    trusted = TrustStore(tmp_path / "trusted_keys.json")
    with Campaign.open(signed) as campaign:
        check = verify(campaign, own=None, trust_store=trusted)
        (signer,) = check.signoffs
        assert (signer.trust, signer.trusted, check.exit_status) == ("untrusted", False, 3)
        error = remediation.refusal(check)
        assert error is not None and error.code == "UNTRUSTED"
        assert reviewer.fingerprint in str(error)
        pinned = verify(campaign, reviewer.fingerprint, own=None, trust_store=trusted)
        assert pinned.signoffs[0].trust == "pinned" and remediation.refusal(pinned) is None
        assert verify(campaign, own=reviewer.fingerprint).signoffs[0].trust == "own"
        trusted.add(reviewer.fingerprint, "Ana, the reviewer")
        check = verify(campaign, own=None, trust_store=trusted)
        assert (check.signoffs[0].trust, check.signoffs[0].trusted_name) == (
            "trusted",
            "Ana, the reviewer",
        )
        assert check.exit_status == 0 and remediation.refusal(check) is None


def test_separation_of_duties_compares_keys_and_server_identities(
    campaign: Campaign, store: keys.MemoryStore
) -> None:
    """This installation's key under another name is the administrator; so is the same
    server account under another key; another key and account is not."""
    other_store = keys.MemoryStore()
    someone = reviewer_of("someone.else@example.test", store)  # this installation's key
    decide(campaign, REVOKED, "Revoke", "left", someone)
    sign(campaign, someone, keys.signing_key(store))
    check = verify(campaign, own=someone.fingerprint)
    reasons = remediation.same_person(check, "admin@example.test", "ADM1", someone.fingerprint)
    assert reasons and all("this installation's key" in r for r in reasons)
    other_admin = keys.fingerprint(keys.signing_key(other_store).public_key())
    assert remediation.same_person(check, "admin@example.test", "ADM1", other_admin) == []


def test_identities_are_signed_and_compared(campaign: Campaign, store: keys.MemoryStore) -> None:
    signer = reviewer_of("Ana", store, account_id="ACC000003", account_email="user3@example.test")
    decide(campaign, REVOKED, "Revoke", "left", signer)
    done = sign(campaign, signer, keys.signing_key(store))
    assert (done.account_id, done.account_email) == ("ACC000003", "user3@example.test")
    check = verify(campaign, own=None)
    assert check.status == "intact"
    assert (check.signoffs[0].account_id, check.revokes[0].account_id) == ("ACC000003",) * 2
    reasons = remediation.same_person(check, "USER3@example.test", "", None)
    assert reasons and "same server account" in reasons[0]
    assert remediation.same_person(check, "other@example.test", "ACC000003", None)
    assert remediation.same_person(check, "other@example.test", "ZZZ", None) == []
    path = campaign.path
    campaign.close()
    raw(path, "UPDATE signoffs SET account_email = 'someone@example.test'")
    with Campaign.open(path) as reopened:
        assert verify(reopened, own=None).status == "changed"  # the identity is signed


def test_the_own_account_rule_uses_the_server_identity(
    campaign: Campaign, store: keys.MemoryStore
) -> None:
    typed = reviewer_of("a-nickname", store, account_id="ACC000001")
    with pytest.raises(CampaignError) as own:
        decide(campaign, "account:ACC000001", "Keep", "mine", typed)
    assert own.value.code == "SELF"
    by_email = reviewer_of("a-nickname", store, account_email="USER2@example.test")
    with pytest.raises(CampaignError):
        decide(campaign, "account:ACC000002", "Keep", "mine", by_email)
    assert campaign.own_items("a-nickname", account_id="ACC000001") == ["account:ACC000001"]


# Undecided items, unremediated Revokes ----------------------------------------------------


def test_signing_with_undecided_items_is_a_choice(
    campaign: Campaign, reviewer: Reviewer, store: keys.MemoryStore
) -> None:
    decide(campaign, KEPT, "Keep", "", reviewer)
    undecided = campaign.undecided()
    assert undecided == campaign.count() - 1
    with pytest.raises(CampaignError) as refused_sign:
        sign(campaign, reviewer.name, keys.signing_key(store), allow_undecided=False)
    assert refused_sign.value.code == "UNDECIDED" and f"{undecided:,} items" in str(
        refused_sign.value
    )
    assert not campaign.is_signed()
    sign(campaign, reviewer.name, keys.signing_key(store), allow_undecided=True)
    tables, summary = review_pack.contents(campaign)
    assert summary["not reviewed (no decision; they stay not reviewed)"] == undecided
    assert [r[10] for r in tables["items"][1]].count(review_pack.NOT_REVIEWED) == undecided
    assert summary["signed-off Revokes not carried out"] == 0


def test_unremediated_revokes_are_counted(signed: Path) -> None:
    with Campaign.open(signed) as campaign:
        assert remediation.unremediated(campaign) == [REVOKED]
        assert review_pack.contents(campaign)[1]["signed-off Revokes not carried out"] == 1


# The previous format --------------------------------------------------------------------


def test_a_schema_1_file_is_upgraded_and_its_format_1_sign_off_refused_by_name(
    tmp_path: Path, signed: Path, reviewer: Reviewer, store: keys.MemoryStore
) -> None:
    """A file of the previous version (schema 1, a format-1 sign-off): opened, upgraded in
    place, verified; remediation refuses the old sign-off by name until the same key signs
    again."""
    old = tmp_path / "old.review"
    conn = sqlite3.connect(old, isolation_level=None)
    conn.executescript("BEGIN;" + SCHEMA + INDEXES + "COMMIT;")
    conn.execute("ATTACH DATABASE ? AS n", (str(signed),))
    conn.execute("BEGIN")
    conn.execute("INSERT INTO meta SELECT * FROM n.meta")
    conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema'")
    conn.execute("INSERT INTO items SELECT * FROM n.items")
    conn.execute("INSERT INTO flags SELECT * FROM n.flags")
    conn.execute(
        "INSERT INTO decisions SELECT seq, item, decision, justification, reviewer,"
        " fingerprint, decided_at, source FROM n.decisions"
    )
    conn.execute("COMMIT")
    conn.execute("DETACH DATABASE n")
    conn.execute("PRAGMA journal_mode=WAL")
    rows = conn.execute(
        "SELECT i.id, i.part, i.kind, i.ref, i.label, i.name, i.status, i.portal,"
        " i.institution, i.updated, i.detail, i.decision,"
        " (SELECT group_concat(code || '=' || reason, '|') FROM"
        "  (SELECT code, reason FROM flags WHERE flags.item = i.seq ORDER BY code)),"
        " d.decision, d.justification, d.reviewer, d.fingerprint, d.decided_at, '', '',"
        " d.seq, i.decision_seq FROM items AS i LEFT JOIN decisions AS d ON d.seq ="
        " (SELECT max(seq) FROM decisions WHERE decisions.item = i.id) ORDER BY i.seq"
    ).fetchall()
    lines = [(r[0], _digest(r, 1)) for r in rows]
    campaign_id = conn.execute("SELECT value FROM meta WHERE key = 'id'").fetchone()[0]
    fields = {
        "part": "", "reviewer": reviewer.name, "fingerprint": reviewer.fingerprint,
        "signed_at": "2026-11-20T10:00:00.000+00:00", "format": 1, "account_id": "",
        "account_email": "",
    }  # fmt: skip
    payload, digest = _payload(campaign_id.strip('"'), fields, lines, {})
    key = keys.signing_key(store)
    conn.execute(
        "INSERT INTO signoffs (part, reviewer, fingerprint, public_key, signed_at, items, digest,"
        " signature) VALUES ('', ?, ?, ?, ?, ?, ?, ?)",
        (
            reviewer.name, reviewer.fingerprint,
            base64.b64encode(keys.public_raw(key.public_key())).decode(),
            fields["signed_at"], len(lines), digest, base64.b64encode(key.sign(payload)).decode(),
        ),
    )  # fmt: skip
    conn.executemany("INSERT INTO signed_items VALUES (1, ?, ?)", ((item, d) for item, d in lines))
    conn.close()

    with Campaign.open(old) as campaign:
        assert campaign.meta["schema"] == 2  # upgraded in place
        check = verify(campaign, own=reviewer.fingerprint)
        assert check.status == "intact", check.problems
        assert [s.format for s in check.signoffs] == [1]
        error = remediation.refusal(check)
        assert error is not None and error.code == "OLD_SIGNOFF"
        again = sign(campaign, reviewer.name, key)
        assert again.format == 3
        check = verify(campaign, own=reviewer.fingerprint)
        assert [s.format for s in check.signoffs] == [1, 3] and check.status == "intact"
        assert [d.item for d in check.revokes] == [REVOKED]
    with Campaign.open(old) as reopened:  # the upgraded file has this program's schema
        assert verify(reopened, own=reviewer.fingerprint).status == "intact"


@pytest.mark.parametrize(
    ("action", "target", "source", "why"),
    [
        ("SUSPEND", "ACC000001", "mine", "ACC000001, which no signed-off Revoke names"),
        ("DEACTIVATE", "ACC000002", "mine", "would DEACTIVATE accounts, not SUSPEND them"),
        ("SUSPEND", "ACC000002", "another", "is not this campaign's"),
    ],
)
async def test_a_recorded_job_that_is_not_the_signed_remediation_is_never_run(
    tmp_path: Path, signed: Path, reviewer: Reviewer, store: keys.MemoryStore,
    action: str, target: str, source: str, why: str,
) -> None:  # fmt: skip
    """The campaign's record of its remediation jobs is not signed: a job it names whose
    lines, action or campaign are not the signed-off Revokes' is refused, nothing run."""
    from portal_admin import jobs

    with Campaign.open(signed) as campaign:
        mark = campaign.campaign_id if source == "mine" else "00000000-other"
        job = jobs.JobFile.create(
            {"kind": "status", "params": {"action": action, "reason": "x"},
             "source": f"access review 'Q4' ({mark})", "profile": "p", "server": "s",
             "account": "a"},
            [(target, "someone", {}, "ACTIVE", "SUSPENDED", None)],
            tmp_path / "jobs",
        )  # fmt: skip
        with campaign.transaction() as conn:
            campaign.set_meta(conn, remediation={"jobs": [{"id": job.id}]})
        job.close()
        context = jobs.JobContext("p", SERVER, "admin@example.test", "ADM1")
        with pytest.raises(CampaignError) as refused_run:
            await remediation.remediate(
                campaign,
                None,
                context,
                folder=tmp_path / "jobs",
                key_store=store,  # type: ignore[arg-type]
            )
    assert refused_run.value.code == "CHANGED" and why in str(refused_run.value)
