"""``portal-admin-cli profiles list|export|import``: round trip, all or nothing, clashes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from portal_admin.cli.main import main
from portal_admin.connection.profile_file import export_profiles, load_profiles
from portal_admin.connection.profile_store import ProfileStore
from portal_admin.connection.profiles import Profile, ProxyMode
from portal_admin.files import policy_dir


@pytest.fixture(autouse=True)
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("PORTAL_ADMIN_HOME", str(tmp_path / "portal-admin"))
    machine = tmp_path / "system"
    machine.mkdir()
    monkeypatch.setattr(policy_dir, "system_policy_dir", lambda: machine)
    monkeypatch.delenv(policy_dir.POLICY_DIR_ENV, raising=False)
    return machine


MINE = Profile(
    "Mine",
    "https://mine.example",
    portal_access_code="CODE-1",
    proxy_mode=ProxyMode.NONE,
    pinned_certificates=("ab" * 32,),
)


def test_export_then_import_elsewhere(
    tmp_path: Path,
    folders: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    ProfileStore().save([MINE])
    export_profiles([Profile("Corp", "https://corp.example")], folders / "profiles.json")
    out = tmp_path / "out.json"
    assert main(["profiles", "export", str(out)]) == 0
    assert "CODE-1" not in out.read_text(encoding="utf-8")
    assert [p.name for p in load_profiles(out)] == ["Corp", "Mine"]
    assert main(["profiles", "list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(r["name"], r["kind"]) for r in listed] == [
        ("Sandbox", "built-in"),
        ("Corp", "managed"),
        ("Mine", "own"),
    ]
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "elsewhere"))
    monkeypatch.setenv("PORTAL_ADMIN_HOME", str(tmp_path / "elsewhere"))
    assert main(["profiles", "import", str(out)]) == 0
    names = [(p.name, p.managed) for p in ProfileStore().load()]
    assert names == [("Sandbox", False), ("Corp", True), ("Mine", False)]  # Corp skipped
    assert ProfileStore().find("Mine") == MINE.replace(portal_access_code="")


def test_import_is_all_or_nothing_and_asks_before_replacing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps(
            {
                "format": "portal-admin-profiles",
                "version": 1,
                "profiles": [
                    {"name": "Good", "base_url": "https://good.example"},
                    {"name": "Bad", "base_url": "http://bad.example"},
                ],
            }
        ),
        encoding="utf-8",
    )
    assert main(["profiles", "import", str(bad)]) == 2
    assert "profiles[1].base_url: must start with https://" in capsys.readouterr().err
    assert [p.name for p in ProfileStore().load()] == ["Sandbox"]
    ProfileStore().save([MINE])
    good = tmp_path / "good.json"
    export_profiles([MINE.replace(base_url="https://new.example")], good)
    assert main(["profiles", "import", str(good)]) == 2
    assert "--replace" in capsys.readouterr().err
    assert ProfileStore().find("Mine") == MINE
    assert main(["profiles", "import", str(good), "--replace"]) == 0
    found = ProfileStore().find("Mine")
    assert found is not None and found.base_url == "https://new.example"
