"""Property-based tests (hypothesis) of every form validator, called as plain functions.

Each validator must: never raise on any text, accept what it documents, refuse what it
documents, and agree with an independent oracle (the standard library) where there is one.
"""

from __future__ import annotations

import ipaddress
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from portal_admin.ui.panels.invitations.dialogs import MAX_EMAIL, check_invitee_email
from portal_admin.ui.panels.notifications import validation as notify
from portal_admin.ui.panels.security.ip_rules import (
    MAX_ENTRY_LENGTH,
    EntryKind,
    Problem,
    check_entry,
    covers,
)
from portal_admin.ui.profiles.store import Profile, validate
from portal_admin.ui.signin import validation as signin

#: Derandomized: the same examples on every run (the fuzzers of fuzz/ explore at random).
SETTINGS = settings(max_examples=150, deadline=None, derandomize=True)

anything = st.text(max_size=400)
word = st.text(st.characters(categories=("L", "N")), min_size=1, max_size=20)
emails = st.emails()


# -- sign-in ----------------------------------------------------------------------------------


@SETTINGS
@given(anything, anything)
def test_sign_in_checks_never_raise(email: str, password: str) -> None:
    for result in (
        signin.check_email(email),
        signin.check_sign_in(email, password),
        signin.check_code(password),
        signin.check_required(password, "needed"),
        signin.check_new_password(email, password),
    ):
        assert result is None or (isinstance(result, str) and result)


@SETTINGS
@given(emails)
def test_real_addresses_pass_the_sign_in_check(email: str) -> None:
    assert signin.check_email(email) is None
    assert signin.check_email(f"  {email}  ") is None


@SETTINGS
@given(anything.filter(lambda s: "@" not in s))
def test_no_at_sign_no_address(text: str) -> None:
    assert signin.check_email(text) is not None


@SETTINGS
@given(st.text(min_size=signin.MIN_PASSWORD_LENGTH, max_size=128))
def test_new_password_typed_twice(password: str) -> None:
    assert signin.check_new_password(password, password) is None
    assert signin.check_new_password(password, password + "x") is not None
    assert signin.check_new_password(password, "") is not None


@SETTINGS
@given(st.text(max_size=signin.MIN_PASSWORD_LENGTH - 1))
def test_short_passwords_refused(password: str) -> None:
    assert signin.check_new_password(password, password) is not None


@SETTINGS
@given(st.text(st.sampled_from(" \t\n\u3000"), max_size=5))
def test_blank_code_refused(code: str) -> None:
    assert signin.check_code(code) is not None
    assert signin.check_required(code, "needed") == "needed"


# -- IP whitelist (IP / CIDR) -----------------------------------------------------------------


@SETTINGS
@given(anything)
def test_ip_entry_never_raises_and_canonical_is_stable(text: str) -> None:
    check = check_entry(text)
    assert check.valid == (check.problem is None)
    if check.valid:
        assert check.canonical is not None and check.kind is not None
        again = check_entry(check.canonical)
        assert again.valid and again.canonical == check.canonical and again.kind == check.kind
        assert check.network() is not None
    else:
        assert check.canonical is None


@SETTINGS
@given(st.ip_addresses())
def test_every_address_is_accepted_as_itself(address: Any) -> None:
    check = check_entry(str(address))
    assert check.valid and check.canonical == str(address)
    assert check.kind in (EntryKind.IPV4, EntryKind.IPV6)
    assert covers([str(address)], str(address))


@SETTINGS
@given(st.ip_addresses(), st.integers(0, 128))
def test_cidr_agrees_with_the_standard_library(address: Any, prefix: int) -> None:
    text = f"{address}/{prefix}"
    check = check_entry(text)
    if len(text) > MAX_ENTRY_LENGTH:
        assert check.problem is Problem.TOO_LONG
        return
    try:
        network = ipaddress.ip_network(text, strict=True)
    except ValueError:
        assert not check.valid
        try:
            ipaddress.ip_network(text, strict=False)
        except ValueError:
            assert check.problem is Problem.BAD_PREFIX
        else:
            assert check.problem is Problem.HOST_BITS
        return
    assert check.valid
    assert check.network() == network
    assert covers([text], str(address))


@SETTINGS
@given(st.text(min_size=MAX_ENTRY_LENGTH + 1, max_size=200).filter(lambda s: s.strip() == s))
def test_overlong_entries_refused(text: str) -> None:
    assert check_entry(text).problem in (Problem.TOO_LONG, Problem.EMPTY)


# -- invitations ------------------------------------------------------------------------------


@SETTINGS
@given(anything)
def test_invitee_email_never_raises(text: str) -> None:
    assert check_invitee_email(text) is None or isinstance(check_invitee_email(text), str)


@SETTINGS
@given(emails.filter(lambda e: "." in e.partition("@")[2].strip(".")))
def test_invitee_real_addresses(email: str) -> None:
    problem = check_invitee_email(email)
    if len(email) <= MAX_EMAIL and not email.partition("@")[2].endswith("."):
        assert problem is None, email
    else:
        assert problem is not None


@SETTINGS
@given(st.text(min_size=MAX_EMAIL + 1, max_size=400).filter(lambda s: s.strip() == s))
def test_invitee_overlong_refused(text: str) -> None:
    assert check_invitee_email(text) is not None


# -- notifications ----------------------------------------------------------------------------


@SETTINGS
@given(anything, st.integers(1, 300))
def test_length_limits(text: str, limit: int) -> None:
    over = len(text.strip()) > limit
    assert bool(notify.optional("Field", text, limit)) == over
    problems = notify.required("Field", text, limit)
    assert bool(problems) == (over or not text.strip())


@SETTINGS
@given(st.text(min_size=256, max_size=400).filter(lambda s: s.strip() == s))
def test_255_char_limit(text: str) -> None:
    assert notify.optional("Remark", text, 255)
    assert not notify.optional("Remark", text[:255], 255)


@SETTINGS
@given(anything)
def test_notification_checks_never_raise(text: str) -> None:
    notify.type_code(text)
    notify.url("URL", text)
    notify.host("Host", text)
    notify.email("Email", text, needed=True)
    notify.json_object("Config", text)


@SETTINGS
@given(st.from_regex(r"\A[A-Z][A-Z0-9_]{1,31}\Z"))
def test_type_codes_accepted(code: str) -> None:
    assert notify.type_code(code) == []
    assert notify.type_code(code.lower()) == []  # upper-cased before the check


@SETTINGS
@given(st.from_regex(r"\A[0-9_][A-Z0-9_]{0,40}\Z") | st.text(max_size=40))
def test_type_code_is_the_pattern_after_upper_casing(code: str) -> None:
    # What the dialog sends is code.strip().upper(), so the check is made on that; note that
    # case mapping lets some non-ASCII letters through as ASCII ("ß" is sent as "SS").
    accepted = notify.type_code(code) == []
    assert accepted == bool(notify.TYPE_CODE.match(code.strip().upper()))
    if accepted:
        assert code.strip().upper().isascii()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


@SETTINGS
@given(st.dictionaries(st.text(max_size=10), json_values, max_size=6))
def test_json_config_round_trip(obj: dict[str, Any]) -> None:
    value, problems = notify.json_object("Config", json.dumps(obj))
    assert problems == [] and value == obj


@SETTINGS
@given(json_values.filter(lambda v: not isinstance(v, dict)))
def test_json_config_must_be_an_object(value: Any) -> None:
    parsed, problems = notify.json_object("Config", json.dumps(value))
    assert parsed is None and problems


@SETTINGS
@given(st.sampled_from(["http", "https"]), st.from_regex(r"\A[a-z0-9]{1,20}(\.[a-z]{2,6}){1,2}\Z"))
def test_urls(scheme: str, host: str) -> None:
    assert notify.url("URL", f"{scheme}://{host}/path?q=1") == []
    assert notify.url("URL", f"ftp://{host}") != []
    assert notify.url("URL", "", needed=True) != []
    assert notify.host("Host", host) == []
    assert notify.host("Host", f"{host}/x") != []


@SETTINGS
@given(emails)
def test_notification_email(email: str) -> None:
    ok = "." in email.partition("@")[2] and len(email) <= 254
    assert (notify.email("Email", email, needed=True) == []) == ok


# -- connection profiles ----------------------------------------------------------------------


@SETTINGS
@given(st.from_regex(r"\A[a-z]{1,12}\.(com|org|net)\Z"), word)
def test_profile_plain_http_only_for_loopback(host: str, name: str) -> None:
    remote = Profile(name, f"http://{host}")
    assert validate(remote)
    assert not validate(Profile(name, f"https://{host}"))
    assert not validate(Profile(name, f"http://{host}", allow_plain_http=True))
    for loop_host in ("127.0.0.1", "localhost", "[::1]"):
        assert not validate(Profile(name, f"http://{loop_host}:8765"))


@SETTINGS
@given(anything, anything)
def test_profile_validate_never_raises(name: str, url: str) -> None:
    problems = validate(Profile(name or "x", url))
    assert all(isinstance(p, str) and p for p in problems)
