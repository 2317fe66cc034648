"""Profiles and their store; the redacting log setup."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from portal_admin.ui.profiles.store import (
    SANDBOX_NAME,
    EnvironmentType,
    Profile,
    ProfileStore,
    environment_label,
    validate,
)
from portal_admin.ui.startup.log_setup import (
    REDACTED,
    EarlyLog,
    RedactingFilter,
    buffer_logging,
    redact,
    setup_logging,
)

PROD = Profile(
    name="Prod",
    base_url="https://portal.example.com",
    portal_access_code="PAC-1",
    language="ja",
    workspace_id="ws-1",
    ca_bundle=None,
    environment=EnvironmentType.PRODUCTION,
    idle_lock_minutes=5,
)


def test_store_round_trip_and_sandbox_first(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path / "profiles.json")
    assert [p.name for p in store.load()] == [SANDBOX_NAME]
    store.save([*store.load(), PROD], last_used="Prod")
    loaded = ProfileStore(tmp_path / "profiles.json")
    profiles = loaded.load()
    assert [p.name for p in profiles] == [SANDBOX_NAME, "Prod"]
    assert profiles[0].builtin and profiles[0].environment is EnvironmentType.SANDBOX
    assert profiles[1] == PROD
    assert loaded.last_used == "Prod"
    data = json.loads((tmp_path / "profiles.json").read_text())
    assert [p["name"] for p in data["profiles"]] == ["Prod"]  # the sandbox is never written
    assert not list(tmp_path.glob("*.tmp"))


def test_store_never_keeps_secrets(tmp_path: Path) -> None:
    path = tmp_path / "profiles.json"
    raw = PROD.to_json() | {"password": "hunter2", "refreshToken": "abc"}
    path.write_text(json.dumps({"version": 1, "profiles": [raw]}))
    store = ProfileStore(path)
    store.save(store.load())
    text = path.read_text()
    assert "hunter2" not in text and "refreshToken" not in text
    assert set(Profile.from_json(raw).to_json()) == set(PROD.to_json())


def test_damaged_file_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "profiles.json"
    path.write_text("{not json")
    assert [p.name for p in ProfileStore(path).load()] == [SANDBOX_NAME]
    assert (tmp_path / "profiles.damaged.json").exists()


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"name": " "}, "needs a name"),
        ({"base_url": "ftp://x"}, "base URL"),
        ({"base_url": "http://portal.example.com"}, "Plain http"),
        ({"ca_bundle": "/nonexistent.pem"}, "CA bundle"),
    ],
)
def test_validation(changes: dict[str, object], problem: str) -> None:
    problems = validate(PROD.replace(**changes))
    assert any(problem in p for p in problems), problems


def test_validation_accepts() -> None:
    assert validate(PROD) == []
    assert validate(PROD.replace(base_url="http://127.0.0.1:8000")) == []
    assert validate(PROD.replace(base_url="http://x.example", allow_plain_http=True)) == []
    assert validate(PROD, [PROD.replace(name="prod")]) == ["Another profile already has this name."]


def test_environment_colours() -> None:
    assert EnvironmentType.PRODUCTION.colour == "#c62828"
    assert EnvironmentType.PRODUCTION.needs_confirmation
    assert not EnvironmentType.STAGING.needs_confirmation
    assert environment_label(EnvironmentType.PRODUCTION) == "PRODUCTION"


JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJlX2hlcmU"


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("Authorization: Bearer abc.def-ghi", "abc.def-ghi"),
        (f"token {JWT} seen", JWT),
        ('{"password": "hunter2", "email": "a@b.c"}', "hunter2"),
        ("newPassword=s3cr3t&x=1", "s3cr3t"),
        ("{'refreshToken': 'r-123'}", "r-123"),
        ('"code": "123456"', "123456"),
        ("mfaCode=654321", "654321"),
        ("client_secret: topsecret", "topsecret"),
        ("X-PORTAL-ACCESS-CODE: PAC-9", "PAC-9"),
        ('"accessToken":"tok"', "tok"),
    ],
)
def test_redact(text: str, secret: str) -> None:
    out = redact(text)
    assert secret not in out
    assert REDACTED in out


def test_redact_keeps_error_codes() -> None:
    assert redact('"code": "AUTH.INVALID_CREDENTIALS"') == '"code": "AUTH.INVALID_CREDENTIALS"'
    assert redact("code=4010 email=a@b.c") == "code=4010 email=a@b.c"


def test_log_file_is_redacted(tmp_path: Path) -> None:
    handler = setup_logging(tmp_path, level=logging.DEBUG)
    try:
        log = logging.getLogger("portal_admin.test")
        log.info("login with %s", {"password": "hunter2"})
        try:
            raise ValueError(f"bad token={JWT}")
        except ValueError:
            log.exception("failed with Bearer %s", "xyz123")
        handler.flush()
    finally:
        logging.getLogger().removeHandler(handler)
        handler.close()
    text = (tmp_path / "portal-admin.log").read_text()
    assert "hunter2" not in text and JWT not in text and "xyz123" not in text
    assert "login with" in text and "ValueError" in text


def test_filter_survives_bad_format() -> None:
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "%d password=%s", ("a",), None)
    assert RedactingFilter().filter(record)
    assert "[REDACTED]" in record.getMessage()


def test_start_up_records_reach_the_log_file_when_it_opens(tmp_path: Path) -> None:
    """The program keeps its first records in memory and opens the file once its first
    window shows: nothing is lost, the order is kept, secrets are redacted."""
    root = logging.getLogger()
    level = root.level
    early = buffer_logging(level=logging.DEBUG)
    log = logging.getLogger("portal_admin.test.early")
    handler: logging.Handler | None = None
    try:
        assert early in root.handlers
        shown = {"password": "hunter2"}
        log.info("first with %s", shown)
        shown["password"] = "changed-later"  # the record keeps the message as logged
        try:
            raise ValueError(f"bad token={JWT}")
        except ValueError:
            log.exception("second")
        assert (tmp_path / "portal-admin.log").exists() is False
        handler = early.hand_over(setup_logging(tmp_path, level=logging.DEBUG))
        assert early not in root.handlers and handler in root.handlers
        assert early.hand_over() is handler  # once
        log.info("third")
        handler.flush()
    finally:
        root.removeHandler(early)
        if handler is not None:
            root.removeHandler(handler)
            handler.close()
        root.setLevel(level)
        logging.captureWarnings(False)
    text = (tmp_path / "portal-admin.log").read_text()
    assert text.index("first with") < text.index("second") < text.index("third")
    assert "ValueError" in text and "Traceback" in text
    assert "hunter2" not in text and "changed-later" not in text and JWT not in text
    assert REDACTED in text


def test_early_log_passes_records_on_after_the_hand_over() -> None:
    """A record that reached the buffer after the hand-over (another thread) is not lost."""
    early = EarlyLog()
    target = logging.Handler()
    seen: list[str] = []
    target.emit = lambda record: seen.append(record.getMessage())  # type: ignore[method-assign]
    root = logging.getLogger()
    try:
        early.handle(logging.LogRecord("x", logging.INFO, __file__, 1, "kept %s", ("a",), None))
        assert early.hand_over(target) is target
        early.handle(logging.LogRecord("x", logging.INFO, __file__, 1, "late", None, None))
    finally:
        root.removeHandler(target)
    assert seen == ["kept a", "late"]


def test_early_log_falls_back_to_stderr_without_a_log_file(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import portal_admin.ui.startup.log_setup as log_setup

    def no_file(**_: object) -> logging.Handler:
        raise PermissionError("read-only folder")

    monkeypatch.setattr(log_setup, "setup_logging", no_file)
    root = logging.getLogger()
    level = root.level
    early = buffer_logging()
    handler: logging.Handler | None = None
    try:
        logging.getLogger("portal_admin.test.early").info("starting with password=hunter2")
        handler = early.hand_over()
        assert isinstance(handler, logging.StreamHandler) and handler in root.handlers
    finally:
        root.removeHandler(early)
        if handler is not None:
            root.removeHandler(handler)
        root.setLevel(level)
        logging.captureWarnings(False)
    err = capsys.readouterr().err
    assert "starting with password=[REDACTED]" in err and "hunter2" not in err
    assert "could not open the log file: read-only folder" in err
