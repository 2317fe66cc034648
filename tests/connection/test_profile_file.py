"""Profile files: export and import round-trip, no secret exported, strict import naming the
field at fault and importing nothing, name clashes; the profile's proxy in client options."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from portal_admin.client import ConfigurationError
from portal_admin.connection.profile_file import (
    FORMAT,
    ProfileFileError,
    dumps_profiles,
    export_profiles,
    load_profiles,
    loads_profiles,
    merge_import,
    plan_import,
)
from portal_admin.connection.profiles import (
    EnvironmentType,
    Profile,
    ProxyMode,
    client_options,
    sandbox_profile,
)

PIN = "AB:" * 31 + "AB"


def full_profile() -> Profile:
    return Profile(
        name="Production EU",
        base_url="https://portal.example.com",
        portal_access_code="GATEWAY-7",
        language="ja",
        workspace_id="ws-1",
        ca_bundle="/etc/ssl/corp-ca.pem",
        allow_legacy_padding=True,
        environment=EnvironmentType.PRODUCTION,
        idle_lock_minutes=5,
        kiosk=True,
        proxy_mode=ProxyMode.MANUAL,
        proxy_url="http://proxy.corp:3128",
        pinned_certificates=(PIN,),
    )


def test_export_and_import_round_trip(tmp_path: Path) -> None:
    profiles = [
        sandbox_profile(),
        full_profile(),
        Profile("Local", "http://127.0.0.1:8000", environment=EnvironmentType.TEST),
        Profile("Staging", "http://staging.lan", allow_plain_http=True, proxy_mode=ProxyMode.NONE),
    ]
    path = tmp_path / "profiles.json"
    assert export_profiles(profiles, path, include_access_code=True) == 3
    assert load_profiles(path) == profiles[1:]
    assert load_profiles(path)[0].pinned_certificates == ("ab:" * 31 + "ab",)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == FORMAT and data["version"] == 1
    assert [p["name"] for p in data["profiles"]] == ["Production EU", "Local", "Staging"]


def test_no_secret_in_an_export() -> None:
    text = dumps_profiles([full_profile()])
    assert "GATEWAY-7" not in text
    entry = json.loads(text)["profiles"][0]
    assert "portal_access_code" not in entry
    assert not {"password", "token", "refresh_token", "proxy_password"} & set(entry)
    (back,) = loads_profiles(text)
    assert back == full_profile().replace(portal_access_code="")


def document(*profiles: dict[str, Any], **top: Any) -> str:
    return json.dumps({"format": FORMAT, "version": 1, "profiles": list(profiles), **top})


GOOD = {"name": "A", "base_url": "https://a.example"}


@pytest.mark.parametrize(
    ("bad", "field", "reason"),
    [
        ({"name": "B", "base_url": "http://b.example"}, "profiles[2].base_url", "https://"),
        ({"name": "B", "base_url": "ftp://b.example"}, "profiles[2].base_url", "https://"),
        ({"name": "B"}, "profiles[2].base_url", "required"),
        ({"base_url": "https://b.example"}, "profiles[2].name", "required"),
        ({**GOOD, "name": "  "}, "profiles[2].name", "characters"),
        ({**GOOD, "name": "sandbox"}, "profiles[2].name", "sandbox"),
        ({**GOOD, "name": "a"}, "profiles[2].name", "twice"),
        ({**GOOD, "name": "B", "environment": "live"}, "profiles[2].environment", "one of"),
        ({**GOOD, "name": "B", "idle_lock_minutes": -1}, "profiles[2].idle_lock_minutes", ">= 0"),
        ({**GOOD, "name": "B", "idle_lock_minutes": True}, "profiles[2].idle_lock_minutes", ""),
        ({**GOOD, "name": "B", "kiosk": "yes"}, "profiles[2].kiosk", "true or false"),
        ({**GOOD, "name": "B", "language": "fr"}, "profiles[2].language", "one of"),
        ({**GOOD, "name": "B", "password": "x"}, "profiles[2].password", "secret"),
        ({**GOOD, "name": "B", "refresh_token": "x"}, "profiles[2].refresh_token", "secret"),
        ({**GOOD, "name": "B", "colour": "red"}, "profiles[2].colour", "unknown field"),
        ({**GOOD, "name": "B", "managed": True}, "profiles[2].managed", "unknown field"),
        ({**GOOD, "name": "B", "proxy_mode": "manual"}, "profiles[2].proxy_url", "required"),
        ({**GOOD, "name": "B", "proxy_mode": "auto"}, "profiles[2].proxy_mode", "one of"),
        (
            {**GOOD, "name": "B", "proxy_mode": "manual", "proxy_url": "http://u:p@proxy:8080"},
            "profiles[2].proxy_url",
            "user name or password",
        ),
        (
            {**GOOD, "name": "B", "pinned_certificates": ["abc"]},
            "profiles[2].pinned_certificates[0]",
            "64 hexadecimal",
        ),
        (
            {**GOOD, "name": "B", "pinned_certificates": PIN},
            "profiles[2].pinned_certificates",
            "list",
        ),
        ("not an object", "profiles[2]", "object"),
    ],
)
def test_a_malformed_profile_names_the_field_and_imports_nothing(
    bad: Any, field: str, reason: str
) -> None:
    text = document(GOOD, {"name": "Z", "base_url": "https://z.example"}, bad)
    with pytest.raises(ProfileFileError) as caught:
        loads_profiles(text, "given.json")
    assert caught.value.field == field
    assert reason in caught.value.reason
    assert str(caught.value).startswith(f"given.json: {field}: ")


@pytest.mark.parametrize(
    ("text", "field"),
    [
        (json.dumps({"format": "other", "version": 1, "profiles": []}), "format"),
        (json.dumps({"format": FORMAT, "version": 2, "profiles": []}), "version"),
        (json.dumps({"format": FORMAT, "version": 1}), "profiles"),
        (json.dumps({"format": FORMAT, "version": 1, "profiles": [], "x": 1}), "x"),
        ("[]", ""),
        ("{not json", ""),
    ],
)
def test_a_malformed_file_is_refused(text: str, field: str) -> None:
    with pytest.raises(ProfileFileError) as caught:
        loads_profiles(text)
    assert caught.value.field == field


def test_an_unreadable_file_is_a_profile_file_error(tmp_path: Path) -> None:
    with pytest.raises(ProfileFileError, match="cannot be read"):
        load_profiles(tmp_path / "missing.json")


def test_export_refuses_what_import_would_refuse() -> None:
    with pytest.raises(ProfileFileError, match=r"profiles\[0\]\.proxy_url"):
        dumps_profiles([Profile("P", "https://p.example", proxy_url="http://u:pw@proxy:1")])


def test_name_clashes_are_reported_and_the_caller_decides() -> None:
    mine = Profile("Mine", "https://old.example")
    managed = Profile("Corp", "https://corp.example", managed=True)
    existing = [sandbox_profile(), managed, mine]
    incoming = [
        Profile("mine", "https://new.example"),
        Profile("Corp", "https://evil.example"),
        Profile("Sandbox2", "https://s.example"),
    ]
    plan = plan_import(existing, incoming)
    assert plan.added == ["Sandbox2"]
    assert plan.replaced == ["mine"]
    assert plan.blocked == ["Corp"]
    kept = merge_import(existing, incoming, replace=False)
    assert [p.base_url for p in kept] == [
        "sandbox://built-in",
        "https://corp.example",
        "https://old.example",
        "https://s.example",
    ]
    replaced = merge_import(existing, incoming, replace=True)
    assert [p.base_url for p in replaced][1:] == [
        "https://corp.example",
        "https://new.example",
        "https://s.example",
    ]
    assert replaced[1].managed


# -- the profile in client options -----------------------------------------------------------


def test_proxy_modes_in_client_options() -> None:
    system = client_options(Profile("S", "https://s.example"))
    assert system.trust_env and system.proxy is None
    none = client_options(Profile("N", "https://s.example", proxy_mode=ProxyMode.NONE))
    assert not none.trust_env and none.proxy is None
    manual = client_options(
        Profile("M", "https://s.example", proxy_mode=ProxyMode.MANUAL, proxy_url="http://p:3128"),
        proxy_auth=("u", "pw"),
    )
    assert not manual.trust_env and manual.proxy == "http://p:3128"
    proxy = manual.httpx_proxy()
    assert proxy is not None and proxy.auth == ("u", "pw")
    pinned = client_options(Profile("P", "https://s.example", pinned_certificates=(PIN,)))
    assert pinned.tls.pinned_sha256 == ("ab:" * 31 + "ab",)


def test_a_bad_pin_or_a_pinned_plain_url_is_refused_before_connecting() -> None:
    from portal_admin.client import MemoryTokenStore, PortalClient

    with pytest.raises(ConfigurationError):
        client_options(Profile("P", "https://s.example", pinned_certificates=("nope",)))
    options = client_options(
        Profile("P", "http://127.0.0.1:1", pinned_certificates=(PIN,), allow_plain_http=True)
    )
    with pytest.raises(ConfigurationError, match="https"):
        PortalClient("http://127.0.0.1:1", options, token_store=MemoryTokenStore())


def test_the_stored_form_reads_back() -> None:
    assert Profile.from_json(full_profile().to_json()) == full_profile()
    old = {"name": "Old", "base_url": "https://old.example"}  # a file of before the proxy
    assert Profile.from_json(old).proxy_mode is ProxyMode.SYSTEM
