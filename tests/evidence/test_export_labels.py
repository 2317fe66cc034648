"""Exports carry each code and, beside it, the label a person reads: the diff pack's changes
(the snapshots' server labels, else the code in words, never an untranslated key) and the
journal's CSV (the operation, outcome and change in words, or the labels the caller gives)."""

from __future__ import annotations

import csv
import io
import sqlite3
import zipfile
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from portal_admin.evidence import journal, pack
from portal_admin.evidence.diff import HEADER, Change, SnapshotDiff
from portal_admin.evidence.value_labels import LABEL_HEADER, snapshot_labels


@dataclass
class FakeSnapshot:
    path: Path
    meta: dict[str, object]

    def connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path)


@dataclass
class FakeDiff:
    old: FakeSnapshot
    new: FakeSnapshot
    changes: list[Change]

    def counts(self) -> dict[tuple[str, str], int]:
        return {}

    table = SnapshotDiff.table  # the real table over these snapshots and changes


def snapshot(path: Path, labels: list[tuple[str, str, str]]) -> FakeSnapshot:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE constants (list TEXT, code TEXT, value INTEGER, label TEXT)")
    conn.executemany("INSERT INTO constants VALUES (?, ?, 0, ?)", labels)
    conn.commit()
    conn.close()
    return FakeSnapshot(path, {"server": "https://x", "finished": "2026-01-01T00:00:00"})


CHANGES = [
    Change("account", "changed", "ACC1", "ann@example.com", "status", "ACTIVE", "SUSPENDED"),
    Change("account", "changed", "ACC1", "ann@example.com", "language", "en", "fr"),
    Change("invitation", "changed", "INV1", "bob@example.com", "status", "PENDING", "EXPIRED"),
    Change("account", "added", "ACC2", "cy@example.com"),
]


def test_the_diff_pack_has_label_columns_beside_the_codes(tmp_path: Path) -> None:
    old = snapshot(
        tmp_path / "old.sqlite",
        [
            ("user_account_statuses", "ACTIVE", "Actif"),
            ("user_account_statuses", "SUSPENDED", "Suspendu"),
        ],
    )
    new = snapshot(
        tmp_path / "new.sqlite",
        [
            ("user_account_statuses", "ACTIVE", "Actif"),
            # an untranslated key: never shown, the code in words instead
            ("user_account_statuses", "SUSPENDED", "enum.UserAccountStatus.SUSPENDED"),
        ],
    )
    header, rows = pack.diff_tables(FakeDiff(old, new, CHANGES))["changes"]
    assert tuple(header) == (*HEADER, *LABEL_HEADER)  # the old columns first, unchanged
    got = [list(r) for r in rows]
    assert got[0] == [
        *("account", "changed", "ACC1", "ann@example.com", "status", "ACTIVE", "SUSPENDED"),
        *("Status", "Actif", "Suspended"),
    ]
    assert got[1][-3:] == ["Language", "en", "fr"]  # free text as it is
    assert got[2][-3:] == ["Status", "Pending", "Expired"]  # no labels kept: in words
    assert got[3][-3:] == ["", "", ""]
    key = Ed25519PrivateKey.generate()
    out = tmp_path / "diff.zip"
    pack.write_pack(out, "diff", {"changes": (header, rows)}, {"changes": 4}, key)
    with zipfile.ZipFile(out) as zf:
        name = next(n for n in zf.namelist() if n.endswith("changes.csv"))
        text = zf.read(name).decode("utf-8-sig")
    table = list(csv.reader(io.StringIO(text)))
    assert table[0][-3:] == list(LABEL_HEADER)
    assert table[1][5:] == ["ACTIVE", "SUSPENDED", "Status", "Actif", "Suspended"]


def test_snapshot_labels_of_a_file_that_keeps_none(tmp_path: Path) -> None:
    empty = tmp_path / "empty.sqlite"
    sqlite3.connect(empty).close()
    assert snapshot_labels(FakeSnapshot(empty, {})) == {}
    assert snapshot_labels(object()) == {}


RECORD = {
    "seq": 1,
    "kind": "change",
    "operation": "accounts.status",
    "targets": ["ACC1"],
    "fields": {"action": "SUSPEND", "reason": "left"},
    "before": {"status": "ACTIVE"},
    "after": {"status": "SUSPENDED"},
    "outcome": "ok",
}


def read_csv(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text("utf-8-sig"))))


def test_the_journal_csv_has_label_columns_after_its_own(tmp_path: Path) -> None:
    out = tmp_path / "j.csv"
    assert journal.export_csv([RECORD], out) == 1
    header, row = read_csv(out)
    assert header == [*journal.COLUMNS, *journal.LABEL_COLUMNS]
    cells = dict(zip(header, row, strict=True))
    assert cells["operation"] == "accounts.status" and cells["outcome"] == "ok"
    assert cells["operation_label"] == "Status"
    assert cells["outcome_label"] == "Succeeded"
    assert cells["change_label"] == "Status: ACTIVE → SUSPENDED; Action: SUSPEND; Reason: left"
    # the desktop program passes its own, translated labels
    journal.export_csv([RECORD], out, labels=lambda r: ("Change account status", "Done", "x"))
    header, row = read_csv(out)
    assert row[-3:] == ["Change account status", "Done", "x"]
    assert row[: len(journal.COLUMNS)][header.index("operation")] == "accounts.status"
