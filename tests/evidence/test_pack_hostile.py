"""Hostile evidence packs: re-signed with another key, duplicated members, a manifest naming a
file twice, zip bombs, damaged, encrypted or oddly compressed members, crafted manifests; each
ends in a named status (never a traceback), within bounded memory. Also: ``evidence pack``
into a folder, and a snapshot with an oddly named table."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import sqlite3
import struct
import subprocess
import sys
import tracemalloc
import zipfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from portal_admin.cli.main import main as cli_main
from portal_admin.evidence import keys, pack
from portal_admin.evidence.__main__ import main as evidence_main
from portal_admin.evidence.snapshot import KIND, SCHEMA_VERSION, SnapshotError, open_snapshot
from portal_admin.evidence.snapshot import SCHEMA as SNAPSHOT_SCHEMA
from portal_admin.evidence.trust import TrustStore

ACCOUNTS = ["id", "email", "status"]
ROWS = [[f"u{i:04d}", f"user{i}@example.org", "ACTIVE"] for i in range(200)]


@pytest.fixture
def key() -> Ed25519PrivateKey:
    """This installation's key (in a store of the test's own: the real keyring is untouched)."""
    return keys.signing_key(keys.MemoryStore())


@pytest.fixture
def own(key: Ed25519PrivateKey) -> str:
    return keys.fingerprint(key.public_key())


@pytest.fixture
def store(tmp_path: Path) -> TrustStore:
    return TrustStore(tmp_path / "trusted_keys.json")


@pytest.fixture
def genuine(tmp_path: Path, key: Ed25519PrivateKey) -> Path:
    path = tmp_path / "genuine.zip"
    tables = {"accounts": (ACCOUNTS, ROWS), "roles": (["id"], [["r1"], ["r2"]])}
    pack.write_pack(path, "snapshot", tables, {"taken by": "admin"}, key)
    return path


def members(path: Path) -> list[tuple[str, bytes]]:
    with zipfile.ZipFile(path) as zf:
        return [(i.filename, zf.read(i)) for i in zf.infolist()]


def write_zip(
    path: Path, entries: Iterable[tuple[str, bytes]], method: int = zipfile.ZIP_DEFLATED
) -> Path:
    with zipfile.ZipFile(path, "w", method) as zf:
        for name, data in entries:
            if name in zf.namelist():
                with pytest.warns(UserWarning, match="Duplicate name"):
                    zf.writestr(name, data)
            else:
                zf.writestr(name, data)
    return path


def signed(manifest_bytes: bytes, key: Ed25519PrivateKey) -> bytes:
    return base64.b64encode(key.sign(manifest_bytes))


def resign(
    source: Path,
    out: Path,
    key: Ed25519PrivateKey,
    edit: Callable[[dict[str, bytes]], None] = lambda files: None,
    manifest_edit: Callable[[dict[str, Any]], None] = lambda manifest: None,
) -> Path:
    """``source`` with its files edited, a new manifest and a signature by ``key``."""
    files = dict(members(source))
    manifest = json.loads(files.pop(pack.MANIFEST))
    files.pop(pack.SIGNATURE)
    edit(files)
    public = key.public_key()
    files[pack.PUBLIC_KEY] = keys.public_pem(public)
    manifest["public_key"] = base64.b64encode(keys.public_raw(public)).decode()
    manifest["fingerprint"] = keys.fingerprint(public)
    manifest["files"] = {
        n: {"sha256": hashlib.sha256(d).hexdigest(), "size": len(d)} for n, d in files.items()
    }
    manifest_edit(manifest)
    data = json.dumps(manifest, indent=1, sort_keys=True).encode()
    return write_zip(
        out, [(pack.MANIFEST, data), (pack.SIGNATURE, signed(data, key)), *files.items()]
    )


def forge_accounts(files: dict[str, bytes]) -> None:
    files["accounts.csv"] = files["accounts.csv"].replace(b'"ACTIVE"', b'"SUSPENDED"', 1)


# -- who signed it --------------------------------------------------------------------------


def test_a_pack_resigned_with_a_fresh_key_is_untrusted_not_intact(
    genuine: Path, tmp_path: Path, own: str, store: TrustStore
) -> None:
    forger = Ed25519PrivateKey.generate()
    forged = resign(
        genuine,
        tmp_path / "forged.zip",
        forger,
        forge_accounts,
        lambda m: m.update(created="2020-01-01T00:00:00+00:00"),
    )
    theirs = keys.fingerprint(forger.public_key())
    checked = pack.verify_pack(forged, own=own, trust=store)
    assert (checked.status, checked.trust, checked.exit_status) == ("untrusted", "untrusted", 3)
    assert checked.fingerprint == theirs and checked.problems == []
    # the genuine pack: this installation's own key
    assert pack.verify_pack(genuine, own=own, trust=store).trust == "own"
    assert pack.verify_pack(genuine, own=None, trust=store).status == "untrusted"
    # a key trusted on purpose, under its name
    store.add(theirs, "A colleague")
    checked = pack.verify_pack(forged, own=own, trust=store)
    assert (checked.status, checked.trust, checked.signer_name) == (
        "intact",
        "trusted",
        "A colleague",
    )
    store.remove(theirs)
    # one key pinned for one check
    pinned = pack.verify_pack(forged, theirs.replace(" ", "").upper(), own=own, trust=store)
    assert (pinned.status, pinned.trust, pinned.exit_status) == ("intact", "pinned", 0)
    other = pack.verify_pack(forged, own, own=own, trust=store)
    assert other.status == "changed" and other.problems == [
        "signed by another key than the fingerprint given"
    ]
    # changed wins over untrusted
    with zipfile.ZipFile(forged) as zf:
        files = [(i.filename, zf.read(i)) for i in zf.infolist()]
    edited = [(n, d + b"x" if n == "roles.csv" else d) for n, d in files]
    both = pack.verify_pack(write_zip(tmp_path / "both.zip", edited), own=own, trust=store)
    assert (both.status, both.trust, both.problems) == (
        "changed",
        "untrusted",
        ["changed: roles.csv"],
    )


def test_a_fingerprint_that_is_not_one_is_refused(genuine: Path, own: str) -> None:
    from portal_admin.evidence.trust import TrustError

    with pytest.raises(TrustError, match="not a key fingerprint"):
        pack.verify_pack(genuine, "abc", own=own)


# -- members: each once, exactly the manifest's -------------------------------------------


def test_a_forged_member_before_the_genuine_one_is_refused(
    genuine: Path, tmp_path: Path, own: str, store: TrustStore
) -> None:
    files = members(genuine)
    real = dict(files)["accounts.csv"]
    forged = real.replace(b'"ACTIVE"', b'"SUSPENDED"', 1)
    entries = [(n, d) for n, d in files if n != "accounts.csv"]
    entries += [("accounts.csv", forged), ("accounts.csv", real)]
    out = write_zip(tmp_path / "twice.zip", entries)
    checked = pack.verify_pack(out, own, own=own, trust=store)
    assert (checked.status, checked.problems) == ("changed", ["duplicated: accounts.csv"])


def test_a_duplicated_manifest_or_signature_is_refused(
    genuine: Path, tmp_path: Path, own: str, store: TrustStore
) -> None:
    files = members(genuine)
    for name in (pack.MANIFEST, pack.SIGNATURE):
        out = write_zip(tmp_path / f"{name}.zip", [*files, (name, dict(files)[name])])
        checked = pack.verify_pack(out, own=own, trust=store)
        assert (checked.status, checked.problems) == ("changed", [f"duplicated: {name}"])
        assert checked.exit_status == 1


def test_a_manifest_naming_a_file_twice_is_refused(
    genuine: Path, tmp_path: Path, key: Ed25519PrivateKey, own: str, store: TrustStore
) -> None:
    files = dict(members(genuine))
    text = files[pack.MANIFEST].decode()
    entry = '"accounts.csv": {'
    assert text.count(entry) == 1
    fake = '"accounts.csv": {"sha256": "' + "0" * 64 + '", "size": 1},\n  '
    data = text.replace(entry, fake + entry).encode()  # a JSON reader keeping the first differs
    entries = [(pack.MANIFEST, data), (pack.SIGNATURE, signed(data, key))]
    entries += [(n, d) for n, d in files.items() if n not in (pack.MANIFEST, pack.SIGNATURE)]
    checked = pack.verify_pack(write_zip(tmp_path / "keys.zip", entries), own=own, trust=store)
    assert checked.status == "not-a-pack"
    assert checked.problems == ["named twice in the manifest: accounts.csv"]


def test_an_extra_or_a_missing_member_is_named(
    genuine: Path, tmp_path: Path, own: str, store: TrustStore
) -> None:
    files = members(genuine)
    extra = write_zip(tmp_path / "extra.zip", [*files, ("notes.txt", b"x")])
    assert pack.verify_pack(extra, own=own, trust=store).problems == ["added: notes.txt"]
    missing = write_zip(tmp_path / "missing.zip", [f for f in files if f[0] != "roles.csv"])
    checked = pack.verify_pack(missing, own=own, trust=store)
    assert (checked.status, checked.problems) == ("changed", ["removed: roles.csv"])


# -- bounds: a zip bomb costs no memory -----------------------------------------------------


def deflated(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def zeros_member(zf: zipfile.ZipFile, name: str, megabytes: int) -> str:
    """A member of ``megabytes`` MiB of zeros, deflated as it is written; its SHA-256."""
    digest = hashlib.sha256()
    block = bytes(1 << 20)
    with zf.open(deflated(name), "w", force_zip64=True) as out:
        for _ in range(megabytes):
            out.write(block)
            digest.update(block)
    return digest.hexdigest()


def bomb_pack(
    path: Path, key: Ed25519PrivateKey, megabytes: int, declared: int | None = None
) -> Path:
    """A pack whose accounts.csv is ``megabytes`` MiB of zeros, listed and signed (as
    ``declared`` zeros when given)."""
    tmp = path.with_suffix(".body")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
        sha = zeros_member(zf, "accounts.csv", megabytes)
    size = megabytes << 20
    if declared is not None:
        sha, size = hashlib.sha256(bytes(declared)).hexdigest(), declared
    manifest = {
        "format": 1,
        "kind": "snapshot",
        "public_key": base64.b64encode(keys.public_raw(key.public_key())).decode(),
        "files": {"accounts.csv": {"sha256": sha, "size": size}},
    }
    data = json.dumps(manifest).encode()
    with zipfile.ZipFile(tmp) as src, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(pack.MANIFEST, data)
        zf.writestr(pack.SIGNATURE, signed(data, key))
        info = src.getinfo("accounts.csv")
        with src.open(info) as body, zf.open(deflated("accounts.csv"), "w") as out:
            while chunk := body.read(1 << 20):
                out.write(chunk)
    tmp.unlink()
    return path


def peak_of(fn: Callable[[], Any]) -> tuple[Any, int]:
    tracemalloc.start()
    try:
        value = fn()
        return value, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_zip_bomb_is_refused_without_expanding_it(
    tmp_path: Path, key: Ed25519PrivateKey, store: TrustStore
) -> None:
    bomb = bomb_pack(tmp_path / "bomb.zip", key, 200)
    assert bomb.stat().st_size < 2 << 20
    own = keys.fingerprint(key.public_key())
    checked, peak = peak_of(lambda: pack.verify_pack(bomb, own=own, trust=store))
    assert peak < 8 << 20, peak
    assert (checked.status, checked.problems) == ("changed", ["expands too much: accounts.csv"])


def test_a_member_larger_than_it_declares_is_damaged(
    tmp_path: Path, key: Ed25519PrivateKey, store: TrustStore
) -> None:
    """Its sizes patched down to 1,000 bytes, as the manifest says: only that much is ever
    decompressed, and its checksum does not match."""
    bomb = bomb_pack(tmp_path / "bomb.zip", key, 50, declared=1000)
    data = bytearray(bomb.read_bytes())
    with zipfile.ZipFile(bomb) as zf:
        info = zf.getinfo("accounts.csv")
    patch_sizes(data, "accounts.csv", info, 1000)
    bomb.write_bytes(bytes(data))
    own = keys.fingerprint(key.public_key())
    checked, peak = peak_of(lambda: pack.verify_pack(bomb, own=own, trust=store))
    assert checked.status == "changed" and checked.problems == ["damaged: accounts.csv"]
    assert peak < 8 << 20, peak


def test_too_many_members_are_refused_before_they_are_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, own: str, store: TrustStore
) -> None:
    many = write_zip(
        tmp_path / "many.zip", [(f"{i}.csv", b"") for i in range(pack.MAX_MEMBERS + 1)]
    )
    monkeypatch.setattr(zipfile, "ZipFile", None)  # the directory is not even parsed
    checked = pack.verify_pack(many, own=own, trust=store)
    assert (checked.status, checked.problems) == ("not-a-pack", ["too many files for a pack"])


def test_a_pack_past_the_size_bounds_is_refused(
    genuine: Path, tmp_path: Path, key: Ed25519PrivateKey, monkeypatch: pytest.MonkeyPatch
) -> None:
    own = keys.fingerprint(key.public_key())
    big = tmp_path / "big-manifest.zip"
    pack.write_pack(big, "test", {"t": (["a"], [["1"]])}, {"note": "x" * (pack.MAX_MANIFEST)}, key)
    checked = pack.verify_pack(big, own=own, trust=TrustStore(tmp_path / "t.json"))
    assert (checked.status, checked.problems) == ("not-a-pack", ["the manifest is too large"])
    monkeypatch.setattr(pack, "MAX_TOTAL_SIZE", 1000)
    checked = pack.verify_pack(genuine, own=own, trust=TrustStore(tmp_path / "t.json"))
    assert (checked.status, checked.problems) == ("not-a-pack", ["larger than a pack may be"])


# -- damaged or crafted members: named, never a traceback --------------------------------------


def central_entry(data: bytes, name: str) -> int:
    """The offset of ``name``'s central directory entry."""
    at = data.find(b"PK\x01\x02")
    while at >= 0:
        length = struct.unpack_from("<H", data, at + 28)[0]
        if data[at + 46 : at + 46 + length] == name.encode():
            return at
        at = data.find(b"PK\x01\x02", at + 46 + length)
    raise AssertionError(name)


def patch_sizes(data: bytearray, name: str, info: zipfile.ZipInfo, size: int) -> None:
    """Declare ``size`` uncompressed bytes for ``name`` (a ZIP64 extra field's too)."""
    central = central_entry(data, name)
    for at in (info.header_offset + 22, central + 24):
        if struct.unpack_from("<L", data, at)[0] != 0xFFFFFFFF:
            struct.pack_into("<L", data, at, size)
    for start in (info.header_offset, central):
        name_len, extra_len = struct.unpack_from(
            "<HH", data, start + (26 if start != central else 28)
        )
        head = 30 if start != central else 46
        extra = start + head + name_len
        end = extra + extra_len
        while extra + 4 <= end:
            tag, length = struct.unpack_from("<HH", data, extra)
            if tag == 1:  # ZIP64: uncompressed size first
                struct.pack_into("<Q", data, extra + 4, size)
            extra += 4 + length


def patched(
    genuine: Path, out: Path, name: str, patch: Callable[[bytearray, int, int], None]
) -> Path:
    """``genuine`` stored (no compression), with ``patch(data, local header, central entry)``."""
    stored = write_zip(out, members(genuine), zipfile.ZIP_STORED)
    data = bytearray(stored.read_bytes())
    with zipfile.ZipFile(stored) as zf:
        local = zf.getinfo(name).header_offset
    patch(data, local, central_entry(data, name))
    out.write_bytes(bytes(data))
    return out


def flip_a_bit(data: bytearray, local: int, central: int) -> None:
    del central
    name_len, extra_len = struct.unpack_from("<HH", data, local + 26)
    data[local + 30 + name_len + extra_len + 10] ^= 0x04


def encrypt_flag(data: bytearray, local: int, central: int) -> None:
    data[local + 6] |= 0x01
    data[central + 8] |= 0x01


def method_99(data: bytearray, local: int, central: int) -> None:
    struct.pack_into("<H", data, local + 8, 99)
    struct.pack_into("<H", data, central + 10, 99)


@pytest.mark.parametrize(
    ("patch", "problem"),
    [
        (flip_a_bit, "damaged: accounts.csv"),
        (encrypt_flag, "encrypted: accounts.csv"),
        (method_99, "unknown compression: accounts.csv"),
    ],
)
def test_a_damaged_or_crafted_member_is_named_not_a_traceback(
    genuine: Path,
    tmp_path: Path,
    own: str,
    store: TrustStore,
    capsys: pytest.CaptureFixture[str],
    patch: Callable[[bytearray, int, int], None],
    problem: str,
) -> None:
    out = patched(genuine, tmp_path / "patched.zip", "accounts.csv", patch)
    checked = pack.verify_pack(out, own=own, trust=store)
    assert (checked.status, checked.problems) == ("changed", [problem])
    capsys.readouterr()
    for run in (cli_main, evidence_main):
        argv = [
            *(["evidence"] if run is cli_main else []),
            "verify",
            str(out),
            "--fingerprint",
            own,
        ]
        assert run(argv) == 1
        said = capsys.readouterr()
        assert problem in said.out and "Traceback" not in said.err


@pytest.mark.parametrize(
    "files",
    [
        {"accounts.csv": "not an object"},
        {"accounts.csv": {"sha256": 5, "size": 1}},
        {"accounts.csv": {"sha256": "0" * 64, "size": "1"}},
        ["accounts.csv"],
        {pack.SIGNATURE: {"sha256": "0" * 64, "size": 1}},
    ],
)
def test_a_manifest_entry_that_is_not_a_file_is_not_a_pack(
    genuine: Path,
    tmp_path: Path,
    key: Ed25519PrivateKey,
    own: str,
    capsys: pytest.CaptureFixture[str],
    files: Any,
) -> None:
    out = resign(genuine, tmp_path / "odd.zip", key, manifest_edit=lambda m: m.update(files=files))
    checked = pack.verify_pack(out, own=own, trust=TrustStore(tmp_path / "t.json"))
    assert (checked.status, checked.problems) == ("not-a-pack", ["the manifest cannot be read"])
    capsys.readouterr()
    assert evidence_main(["verify", str(out)]) == 2
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize(
    "manifest",
    [b"[]", b"{}", b'{"format": 1}', b'{"format": 9, "files": {}}', b"[" * 100_000, b"\xff"],
)
def test_an_unreadable_manifest_is_not_a_pack(
    tmp_path: Path, key: Ed25519PrivateKey, own: str, manifest: bytes
) -> None:
    out = write_zip(
        tmp_path / "m.zip", [(pack.MANIFEST, manifest), (pack.SIGNATURE, signed(manifest, key))]
    )
    checked = pack.verify_pack(out, own=own, trust=TrustStore(tmp_path / "t.json"))
    assert checked.status == "not-a-pack" and checked.problems, checked


def test_a_member_name_cannot_move_the_terminal(
    genuine: Path, tmp_path: Path, own: str, store: TrustStore
) -> None:
    out = write_zip(tmp_path / "esc.zip", [*members(genuine), ("\x1b[2Jintact\r.csv", b"x")])
    assert pack.verify_pack(out, own=own, trust=store).problems == [
        "added: \\x1b[2Jintact\\x0d.csv"
    ]


# -- writing packs ---------------------------------------------------------------------------


def test_a_pack_into_a_folder_exits_2_and_leaves_nothing(
    tmp_path: Path, key: Ed25519PrivateKey, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    assert cli_main(["evidence", "pack", str(folder), "--journal", "--ephemeral-key"]) == 2
    assert "is a folder" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == [folder] and not list(folder.iterdir())
    with pytest.raises(IsADirectoryError):
        pack.write_pack(folder, "test", {"t": (["a"], [])}, {}, key)
    assert list(tmp_path.iterdir()) == [folder]


def test_a_failed_write_leaves_no_partial_file(
    tmp_path: Path, key: Ed25519PrivateKey, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(self: Path, target: Path) -> None:
        raise PermissionError(13, "refused", str(target))

    monkeypatch.setattr(Path, "replace", refuse)
    with pytest.raises(PermissionError):
        pack.write_pack(tmp_path / "p.zip", "test", {"t": (["a"], [])}, {}, key)
    assert list(tmp_path.iterdir()) == []


def odd_snapshot(path: Path, table: str) -> Path:
    """A snapshot of this program's schema with one more table, named ``table``."""
    conn = sqlite3.connect(path)
    conn.executescript(SNAPSHOT_SCHEMA)
    meta = {"kind": KIND, "schema": SCHEMA_VERSION, "complete": True, "counts": {}}
    conn.executemany(
        "INSERT INTO meta VALUES (?, ?)", [(k, json.dumps(v)) for k, v in meta.items()]
    )
    quoted = '"' + table.replace('"', '""') + '"'
    conn.execute(f"CREATE TABLE {quoted} (id TEXT)")
    conn.execute(f"INSERT INTO {quoted} VALUES ('x1')")
    conn.commit()
    conn.close()
    return path


def test_snapshot_tables_no_snapshot_has_are_refused_by_name(
    tmp_path: Path, key: Ed25519PrivateKey, capsys: pytest.CaptureFixture[str]
) -> None:
    """A table a snapshot never has (a keyword for a name, or a name that would be SQL) is
    refused when the file is opened, named, before any pack is made of it."""
    for name in ("order", 'odd name"; drop'):
        path = odd_snapshot(tmp_path / f"{len(name)}.sqlite3", name)
        with pytest.raises(SnapshotError) as caught:
            open_snapshot(path)
        assert caught.value.code == "FOREIGN_SQL"
        assert repr(name) in str(caught.value)
    odd = tmp_path / f"{len(name)}.sqlite3"
    out = tmp_path / "odd.zip"
    assert cli_main(["evidence", "pack", str(out), "--snapshot", str(odd), "--ephemeral-key"]) == 2
    said = capsys.readouterr().err
    assert "which no snapshot has" in said and "Traceback" not in said and not out.exists()


def test_the_forged_pack_in_a_fresh_process(genuine: Path, tmp_path: Path) -> None:
    """The command anyone runs: exit 3 and the signer's fingerprint, no keyring needed."""
    forger = Ed25519PrivateKey.generate()
    forged = resign(genuine, tmp_path / "forged.zip", forger, forge_accounts)
    done = subprocess.run(
        [sys.executable, "-m", "portal_admin.evidence", "verify", str(forged)],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"},
    )
    assert done.returncode == 3, done.stdout + done.stderr
    assert "signed by an untrusted key" in done.stdout
    assert keys.fingerprint(forger.public_key()) in done.stdout
