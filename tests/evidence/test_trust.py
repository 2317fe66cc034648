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


@pytest.mark.parametrize(
    "name",
    [
        "this installation's key",
        "This Installation’s Key",
        "  THIS   INSTALLATION  ",
        "thіs іnstallation's key",  # Cyrillic і
        "ｔｈｉｓ　ｉｎｓｔａｌｌａｔｉｏｎ’ｓ ｋｅｙ",  # full-width
        "this insta11ation's key",
        "thís ínstallatíon's key",  # accents
        "this-installation's-key (backup)",
        "本安装的密钥",
        "此安裝的金鑰",
        "このインストールの鍵",
        "khóa của bản cài đặt này",
        "Khoa cua ban cai dat nay",
    ],
)
def test_a_name_imitating_this_installations_key_is_refused(tmp_path: Path, name: str) -> None:
    store = TrustStore(tmp_path / "trusted_keys.json")
    with pytest.raises(TrustError, match="may not read as this installation's own key"):
        store.add(HEX, name)
    assert store.keys() == []
    # Nor can a file written by hand carry one.
    store.path.write_text(
        json.dumps(
            {"format": 1, "keys": [{"fingerprint": HEX, "name": name, "added": "2026-01-01"}]}
        ),
        encoding="utf-8",
    )
    with pytest.raises(TrustError, match="not a trusted-keys file"):
        store.keys()


@pytest.mark.parametrize("name", ["Reviewers of Example Org", "Installation team", "这个同事"])
def test_ordinary_names_are_kept(tmp_path: Path, name: str) -> None:
    assert TrustStore(tmp_path / "trusted_keys.json").add(HEX, name).name == name


def test_every_translation_of_this_installations_key_is_reserved(tmp_path: Path) -> None:
    """The words the program shows for its own key, in every language it speaks, are caught
    (a new translation cannot open a way round the rule)."""
    import xml.etree.ElementTree as ElementTree

    from portal_admin.evidence.trust import skeleton

    wanted = {("PackCheck", "this installation's key"), ("TrustedKeys", "This installation")}
    folder = Path(__file__).parents[2] / "translations"
    found = []
    for ts in sorted(folder.glob("portal_admin_*.ts")):
        for context in ElementTree.parse(ts).getroot():
            for message in context.iter("message"):
                if (context.findtext("name"), message.findtext("source")) in wanted:
                    found.append(message.findtext("translation") or "")
    assert len(found) == 2 * len(list(folder.glob("portal_admin_*.ts"))) >= 8
    store = TrustStore(tmp_path / "trusted_keys.json")
    for text in [*found, *(source for _, source in wanted)]:
        assert skeleton(text)
        with pytest.raises(TrustError, match="may not read as"):
            store.add(HEX, text)


def test_trust_list_neutralises_the_files_fields(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A trust file edited by hand cannot move the terminal's cursor or recolour it through
    ``trust list``: its fields are printed through ``files.terminal.printable``."""
    from portal_admin.evidence import __main__ as evidence_main
    from portal_admin.evidence import trust

    path = tmp_path / "trusted_keys.json"
    monkeypatch.setattr(trust, "trust_file_path", lambda: path)
    monkeypatch.setattr(trust, "own_fingerprint", lambda store=None: None)
    path.write_text(
        json.dumps(
            {
                "format": 1,
                "keys": [
                    {
                        "fingerprint": HEX,
                        "name": "Reviewers",
                        "added": "2026-01-01\x1b[2K\x1b[1A\rthis installation's key\x07",
                    }
                ],
            }
        ),
        encoding="utf-8",
    )
    assert evidence_main.main(["trust", "list"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\r" not in out and "\x07" not in out
    assert "\\x1b[2K\\x1b[1A\\x0dthis installation's key\\x07" in out
