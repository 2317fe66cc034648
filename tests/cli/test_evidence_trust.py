"""``evidence verify`` and ``evidence trust add|list|remove`` on both command lines: a pack
re-signed with a fresh key is untrusted (exit 3, its fingerprint and how to trust it), intact
once that key is trusted or pinned; a fingerprint that is not one exits 2."""

from __future__ import annotations

import base64
import hashlib
import json
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from portal_admin.cli.main import main as cli_main
from portal_admin.evidence import keys, pack, trust
from portal_admin.evidence.__main__ import main as evidence_main

Run = Callable[[list[str]], int]


def portal_admin_cli(argv: list[str]) -> int:
    return cli_main(["evidence", *argv])


BOTH = pytest.mark.parametrize("run", [portal_admin_cli, evidence_main], ids=["cli", "module"])


@pytest.fixture
def own_key(monkeypatch: pytest.MonkeyPatch) -> Ed25519PrivateKey:
    """This installation's key, kept in memory (the OS keyring is never asked)."""
    key = keys.signing_key(keys.MemoryStore())
    mine = keys.fingerprint(key.public_key())
    monkeypatch.setattr(trust, "own_fingerprint", lambda store=None: mine)
    return key


@pytest.fixture
def genuine(tmp_path: Path, own_key: Ed25519PrivateKey) -> Path:
    path = tmp_path / "review.zip"
    rows = [["u1", "ACTIVE"], ["u2", "ACTIVE"]]
    pack.write_pack(path, "snapshot", {"accounts": (["id", "status"], rows)}, {}, own_key)
    return path


def forge(genuine: Path, out: Path, forger: Ed25519PrivateKey) -> Path:
    """The issue's forgery: accounts.csv edited, ``created`` backdated, a fresh key signs."""
    with zipfile.ZipFile(genuine) as zf:
        files = {i.filename: zf.read(i) for i in zf.infolist()}
    manifest = json.loads(files.pop(pack.MANIFEST))
    files.pop(pack.SIGNATURE)
    files["accounts.csv"] = files["accounts.csv"].replace(b'"ACTIVE"', b'"SUSPENDED"', 1)
    public = forger.public_key()
    files[pack.PUBLIC_KEY] = keys.public_pem(public)
    manifest.update(
        created="2020-01-01T00:00:00+00:00",
        public_key=base64.b64encode(keys.public_raw(public)).decode(),
        fingerprint=keys.fingerprint(public),
        files={
            n: {"sha256": hashlib.sha256(d).hexdigest(), "size": len(d)} for n, d in files.items()
        },
    )
    data = json.dumps(manifest, indent=1, sort_keys=True).encode()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(pack.MANIFEST, data)
        zf.writestr(pack.SIGNATURE, base64.b64encode(forger.sign(data)))
        for name, body in files.items():
            zf.writestr(name, body)
    return out


@BOTH
def test_a_forged_pack_is_untrusted_until_its_key_is_trusted(
    run: Run, genuine: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    forger = Ed25519PrivateKey.generate()
    theirs = keys.fingerprint(forger.public_key())
    forged = str(forge(genuine, tmp_path / "forged.zip", forger))
    capsys.readouterr()

    assert run(["verify", str(genuine)]) == 0
    assert "(this installation's key)" in capsys.readouterr().out

    assert run(["verify", forged]) == 3
    out = capsys.readouterr().out
    assert f"{forged}: signed by an untrusted key" in out and "intact" not in out
    assert f"signed by key {theirs} (not trusted here)" in out
    assert f'trust add "{theirs}" --name' in out

    assert run(["verify", forged, "--fingerprint", theirs.replace(" ", ":")]) == 0
    assert "(the fingerprint given)" in capsys.readouterr().out

    assert run(["trust", "add", theirs, "--name", "Reviewers of Example Org"]) == 0
    assert run(["trust", "list"]) == 0
    listed = capsys.readouterr().out
    assert f"{theirs}  Reviewers of Example Org (added " in listed
    assert "this installation's key" in listed
    assert run(["verify", forged]) == 0
    assert f"{forged}: intact" in capsys.readouterr().out

    assert run(["trust", "remove", theirs.replace(" ", "").upper()]) == 0
    assert run(["trust", "remove", theirs]) == 1
    assert "is not a trusted key" in capsys.readouterr().err
    assert run(["verify", forged]) == 3
    # the genuine key pinned: the forged pack is changed (another key signed it)
    mine = trust.own_fingerprint()
    assert mine is not None
    assert run(["verify", forged, "--fingerprint", mine]) == 1


@BOTH
def test_a_fingerprint_or_name_that_cannot_be_used_exits_2(
    run: Run, genuine: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert run(["trust", "add", "abc123", "--name", "x"]) == 2
    assert "not a key fingerprint: 'abc123'" in capsys.readouterr().err
    assert run(["trust", "remove", "zz" * 32]) == 2
    assert run(["verify", str(genuine), "--fingerprint", "abc"]) == 2
    assert "not a key fingerprint" in capsys.readouterr().err
    assert run(["trust", "add", "ab" * 32, "--name", " "]) == 2
    assert "needs a name" in capsys.readouterr().err
    assert trust.TrustStore().keys() == []


def test_a_trust_file_that_cannot_be_read_exits_2(
    genuine: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    forged = forge(genuine, tmp_path / "forged.zip", Ed25519PrivateKey.generate())
    path = trust.trust_file_path()
    path.parent.mkdir(parents=True)
    path.write_text('{"format": 7, "keys": []}', encoding="utf-8")
    capsys.readouterr()
    assert portal_admin_cli(["verify", str(forged)]) == 2
    assert "written by a newer program (format 7" in capsys.readouterr().err
    assert portal_admin_cli(["trust", "list"]) == 2
    assert portal_admin_cli(["verify", str(genuine)]) == 0  # its own key: no file needed
