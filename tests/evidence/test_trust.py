"""The trusted keys: fingerprints in one canonical form, names, the file (atomic, owner-only,
a format number; a newer format or garbage refused by name), and this installation's own
fingerprint read without making a key."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from portal_admin.evidence import keys
from portal_admin.evidence.trust import (
    TrustedKey,
    TrustError,
    TrustStore,
    normalize_fingerprint,
    own_fingerprint,
    trust_file_path,
)
from portal_admin.files.paths import data_dir
from support.private import owner_only

HEX = "0123456789abcdef" * 4
CANONICAL = " ".join(HEX[i : i + 4] for i in range(0, 64, 4))


@pytest.mark.parametrize(
    "text",
    [HEX, HEX.upper(), CANONICAL, ":".join(HEX[i : i + 2] for i in range(0, 64, 2)), f" {HEX}\n"],
)
def test_a_fingerprint_in_any_spelling_has_one_form(text: str) -> None:
    assert normalize_fingerprint(text) == CANONICAL


def test_the_form_is_the_keys_own() -> None:
    key = keys.signing_key(keys.MemoryStore()).public_key()
    assert normalize_fingerprint(keys.fingerprint(key).replace(" ", "")) == keys.fingerprint(key)


@pytest.mark.parametrize("text", ["", "abc", HEX[:-1], HEX + "0", "g" * 64, HEX[:-1] + "-"])
def test_what_is_not_a_fingerprint_is_refused(text: str) -> None:
    with pytest.raises(TrustError, match="not a key fingerprint"):
        normalize_fingerprint(text)


def test_keys_are_added_found_renamed_and_removed(tmp_path: Path) -> None:
    store = TrustStore(tmp_path / "evidence" / "trusted_keys.json")
    assert store.keys() == [] and store.find(HEX) is None
    added = store.add(HEX.upper(), "  Reviewers of Example Org ")
    assert isinstance(added, TrustedKey)
    assert (added.fingerprint, added.name) == (CANONICAL, "Reviewers of Example Org")
    assert added.added.endswith("+00:00")
    other = "f" * 64
    store.add(other, "A colleague")
    assert store.find(CANONICAL) == added
    assert store.add(HEX, "Renamed").name == "Renamed"
    kept = store.keys()
    assert [(k.fingerprint, k.name) for k in kept] == [
        (normalize_fingerprint(other), "A colleague"),
        (CANONICAL, "Renamed"),
    ]
    assert store.remove(HEX) is True and store.remove(HEX) is False
    again = TrustStore(store.path).keys()
    assert [k.name for k in again] == ["A colleague"]


@pytest.mark.parametrize("name", ["", "   ", "two\nlines", "bell\x07", "x" * 201])
def test_a_name_that_cannot_be_shown_is_refused(tmp_path: Path, name: str) -> None:
    store = TrustStore(tmp_path / "t.json")
    with pytest.raises(TrustError):
        store.add(HEX, name)
    assert not store.path.exists()


def test_the_file_is_the_owners_only_with_a_format_and_nothing_beside_it(tmp_path: Path) -> None:
    store = TrustStore(tmp_path / "t.json")
    store.add(HEX, "Someone")
    assert owner_only(store.path)
    data = json.loads(store.path.read_text(encoding="utf-8"))
    assert data["format"] == 1 and data["keys"][0]["fingerprint"] == CANONICAL
    # No temporary file left; only the (empty, owner-only) lock of the read-change-write,
    # which filelock removes on release on Windows.
    if sys.platform == "win32":
        assert sorted(p.name for p in tmp_path.iterdir()) == ["t.json"]
        return
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.json", "t.json.lock"]
    assert owner_only(tmp_path / "t.json.lock")


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('{"format": 2, "keys": []}', "newer program"),
        ("not json", "not a trusted-keys file"),
        ("[]", "not a trusted-keys file"),
        ('{"format": 1}', "not a trusted-keys file"),
        ('{"format": 1, "keys": [{"fingerprint": "abc", "name": "x", "added": ""}]}', "not a key"),
        ('{"format": 1, "keys": [["a"]]}', "not a trusted-keys file"),
    ],
)
def test_a_newer_or_damaged_file_is_refused_by_name(tmp_path: Path, text: str, why: str) -> None:
    path = tmp_path / "t.json"
    path.write_text(text, encoding="utf-8")
    store = TrustStore(path)
    with pytest.raises(TrustError, match=why):
        store.keys()
    with pytest.raises(TrustError):
        store.add(HEX, "x")  # a file that cannot be read is not overwritten
    assert path.read_text(encoding="utf-8") == text


def test_the_default_file_is_in_the_data_folder() -> None:
    assert trust_file_path() == data_dir() / "evidence" / "trusted_keys.json"
    assert TrustStore().path == trust_file_path()


def test_the_own_fingerprint_is_read_never_made() -> None:
    store = keys.MemoryStore()
    assert own_fingerprint(store) is None and store.value is None
    key = keys.signing_key(store)
    assert own_fingerprint(store) == keys.fingerprint(key.public_key())

    class NoKeyring(keys.MemoryStore):
        def get(self) -> str | None:
            raise keys.KeyUnavailable("no usable keyring")

    assert own_fingerprint(NoKeyring()) is None
    garbage = keys.MemoryStore()
    garbage.set("not a key")
    assert own_fingerprint(garbage) is None


ADDER = """
import sys
from pathlib import Path
from portal_admin.evidence.trust import TrustStore
store, who = TrustStore(Path(sys.argv[1])), int(sys.argv[2])
for n in range(15):
    store.add(f"{who:032x}{n:032x}", f"writer {who} key {n}")
"""


def test_processes_adding_keys_at_once_all_keep_theirs(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = tmp_path / "trusted_keys.json"
    writers = [
        subprocess.Popen([sys.executable, "-c", ADDER, str(path), str(who)]) for who in range(4)
    ]
    assert [w.wait(timeout=60) for w in writers] == [0, 0, 0, 0]
    assert len(TrustStore(path).keys()) == 60
