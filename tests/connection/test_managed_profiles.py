"""Managed profiles (``profiles.json`` in the machine's policy folder): listed after the sandbox
and before the user's, marked, never written to the user's file, refused on change or delete,
shadowing a user profile of the same name; the doctor takes a profile's proxy and pin."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from portal_admin.cli.main import main
from portal_admin.connection.profile_file import FORMAT, export_profiles
from portal_admin.connection.profile_store import ProfileStore
from portal_admin.connection.profiles import (
    EnvironmentType,
    ManagedProfileError,
    Profile,
    ProxyMode,
    sandbox_profile,
)
from portal_admin.files import policy_dir

from .conftest import ACCESS_CODE
from .servers import Certs, ThreadedServer, connect_proxy

CORP = Profile("Corp", "https://corp.example", environment=EnvironmentType.STAGING)


@pytest.fixture
def machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty system policy folder of this test, and no PORTAL_ADMIN_POLICY_DIR."""
    folder = tmp_path / "system"
    folder.mkdir()
    monkeypatch.setattr(policy_dir, "system_policy_dir", lambda: folder)
    monkeypatch.delenv(policy_dir.POLICY_DIR_ENV, raising=False)
    return folder


def store(tmp_path: Path) -> ProfileStore:
    return ProfileStore(tmp_path / "user" / "profiles.json")


def test_managed_profiles_are_listed_marked_and_not_stored(machine: Path, tmp_path: Path) -> None:
    user = store(tmp_path)
    user.save([Profile("Mine", "https://mine.example")])
    export_profiles([CORP], machine / "profiles.json")
    profiles = user.load()
    assert [(p.name, p.builtin, p.managed) for p in profiles] == [
        ("Sandbox", True, False),
        ("Corp", False, True),
        ("Mine", False, False),
    ]
    assert profiles[1].read_only and not profiles[2].read_only
    assert profiles[1].environment is EnvironmentType.STAGING
    user.save(profiles, last_used="Corp")  # what the program does on sign-in
    stored = json.loads(user.path.read_text(encoding="utf-8"))
    assert [p["name"] for p in stored["profiles"]] == ["Mine"]
    assert stored["last_used"] == "Corp"
    assert user.find("corp") == CORP.replace(managed=True)


def test_a_managed_profile_cannot_be_changed_or_deleted(machine: Path, tmp_path: Path) -> None:
    export_profiles([CORP], machine / "profiles.json")
    user = store(tmp_path)
    profiles = user.load()
    before = user.path.exists()
    changed = [p.replace(base_url="https://evil.example") if p.managed else p for p in profiles]
    with pytest.raises(ManagedProfileError, match="cannot be changed"):
        user.save(changed)
    with pytest.raises(ManagedProfileError, match="cannot be deleted"):
        user.save([p for p in profiles if not p.managed])
    unmarked = [p.replace(managed=False) if p.managed else p for p in profiles]
    with pytest.raises(ManagedProfileError):
        user.save(unmarked)  # a copy under the managed name, saved as the user's
    with pytest.raises(ManagedProfileError, match="choose another"):
        user.save([*profiles, Profile("CORP", "https://other.example")])
    assert user.path.exists() == before  # nothing written


def test_a_user_profile_of_the_same_name_is_shadowed_and_kept(
    machine: Path, tmp_path: Path
) -> None:
    user = store(tmp_path)
    mine = Profile("corp", "https://mine.example")
    user.save([mine, Profile("Other", "https://other.example")])
    export_profiles([CORP], machine / "profiles.json")
    profiles = user.load()
    assert [(p.name, p.base_url) for p in profiles[1:]] == [
        ("Corp", "https://corp.example"),
        ("Other", "https://other.example"),
    ]
    assert user.shadowed == [mine]
    user.save(profiles)
    (machine / "profiles.json").unlink()  # the machine no longer manages it: it comes back
    assert [p.name for p in user.load()] == ["Sandbox", "Other", "corp"]


def test_a_bad_managed_file_gives_none_and_says_why(machine: Path, tmp_path: Path) -> None:
    (machine / "profiles.json").write_text(
        json.dumps({"format": FORMAT, "version": 1, "profiles": [{"name": "X"}]}),
        encoding="utf-8",
    )
    user = store(tmp_path)
    assert [p.name for p in user.load()] == ["Sandbox"]
    assert user.managed_error is not None
    assert "profiles[0].base_url: is required" in user.managed_error


def test_the_system_folder_wins_over_the_variable(
    machine: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trial = tmp_path / "trial"
    export_profiles([Profile("Trial", "https://trial.example")], trial / "profiles.json")
    monkeypatch.setenv(policy_dir.POLICY_DIR_ENV, str(trial))
    assert [p.name for p in store(tmp_path).load()] == ["Sandbox", "Trial"]
    export_profiles([CORP], machine / "profiles.json")
    assert [p.name for p in store(tmp_path).load()] == ["Sandbox", "Corp"]


@pytest.mark.http
async def test_the_doctor_uses_a_profiles_proxy_and_pin(
    machine: Path, tls_sandbox: ThreadedServer, certs: Certs, capsys: pytest.CaptureFixture[str]
) -> None:
    from .test_profile_network import fingerprint

    async with connect_proxy() as proxy:
        managed = Profile(
            "Corp",
            tls_sandbox.url,
            portal_access_code=ACCESS_CODE,
            ca_bundle=str(certs.ca),
            proxy_mode=ProxyMode.MANUAL,
            proxy_url=proxy.url,
            pinned_certificates=(fingerprint(certs),),
        )
        export_profiles([managed], machine / "profiles.json", include_access_code=True)
        status = await asyncio.to_thread(main, ["doctor", "--profile", "Corp", "--json"])
        report = json.loads(capsys.readouterr().out)
        steps = {s["name"]: s for s in report["steps"]}
        assert steps["proxy"]["code"] == "proxy.ok"
        assert steps["tls"]["details"]["pin"] == "ok"
        assert status == 0, report
        assert any(r.startswith("CONNECT 127.0.0.1:") for r in proxy.requests)
        export_profiles(
            [managed.replace(proxy_mode=ProxyMode.NONE, pinned_certificates=("00" * 32,))],
            machine / "profiles.json",
        )
        seen = len(proxy.requests)
        status = await asyncio.to_thread(main, ["doctor", "--profile", "Corp", "--json"])
        report = json.loads(capsys.readouterr().out)
        steps = {s["name"]: s for s in report["steps"]}
        assert steps["proxy"]["code"] == "proxy.none"
        assert steps["tls"]["code"] == "tls.pin_mismatch"
        assert status == 1
        assert len(proxy.requests) == seen


@pytest.mark.parametrize("depth", [100, 100_000])
def test_a_deeply_nested_profile_file_is_named_not_a_traceback(
    machine: Path, tmp_path: Path, depth: int
) -> None:
    """A profile file is someone else's (a colleague's export, the machine's policy): nested
    past what a profile file needs, it is refused by name (``files/json_input``), never a
    ``RecursionError``; the user's own file is set aside and the program starts."""
    nested = "[" * depth + "]" * depth
    mine = store(tmp_path)
    (machine / "profiles.json").write_text(nested, encoding="utf-8")
    mine.path.parent.mkdir(parents=True, exist_ok=True)
    mine.path.write_text('{"profiles": ' + nested + "}", encoding="utf-8")
    assert [p.name for p in mine.load()] == [sandbox_profile().name]
    assert mine.managed_error is not None and "nested deeper" in mine.managed_error
    assert not mine.path.exists()  # set aside, kept beside


def test_a_profile_file_too_large_to_be_one_is_refused_unread(tmp_path: Path) -> None:
    from portal_admin.connection.profile_file import MAX_FILE_BYTES, ProfileFileError, load_profiles

    big = tmp_path / "big.json"
    big.write_bytes(b" " * (MAX_FILE_BYTES + 10))
    with pytest.raises(ProfileFileError, match="larger than"):
        load_profiles(big)
