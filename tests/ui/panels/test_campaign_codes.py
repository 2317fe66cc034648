"""The Campaigns panel words the engine's codes, never its English: every ``CampaignError``
code, every BAD_INPUT reason, every flag code and every flag reason has a sentence of the
panel's own, translated in every language of the program; OTHER_SERVER (remediation on
another server than the signed scope's) names both servers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from portal_admin.reviews import CampaignError, Flag, flags
from portal_admin.reviews.errors import CODES, REASONS
from portal_admin.reviews.signoff import FINDINGS, Finding
from portal_admin.ui.i18n.translators import LanguageManager
from portal_admin.ui.panels.reviews import queue_model, refusals, signers

LANGUAGES = ("zh_CN", "zh_TW", "ja", "vi")


@pytest.fixture
def languages(qapp: Any) -> Iterator[LanguageManager]:
    manager = LanguageManager()
    yield manager
    manager.set_language("en")


def _error(code: str, reason: str = "") -> CampaignError:
    params = ("a", "b", "c") if reason and reason != "JUSTIFICATION_REQUIRED" else ()
    if reason == "JUSTIFICATION_REQUIRED":
        params = ("REVOKE",)
    return CampaignError(code, "ENGLISH FROM THE ENGINE", reason=reason, params=params)


def _causes() -> dict[str, str]:
    said = {
        code: refusals.cause(_error(code), "q4.review") for code in CODES if code != "BAD_INPUT"
    }
    said.update({r: refusals.cause(_error("BAD_INPUT", r)) for r in REASONS})
    return said


def test_every_engine_code_and_reason_has_a_sentence_of_its_own(languages: Any) -> None:
    english = _causes()
    for key, text in english.items():
        assert "ENGLISH FROM THE ENGINE" not in text, key  # never the engine's words
        assert text.strip(), key
    assert len(set(english.values())) == len(english)  # one sentence per code, not a catch-all
    for language in LANGUAGES:
        languages.set_language(language)
        for key, text in _causes().items():
            assert text != english[key], (language, key)  # translated


def test_every_flag_code_and_reason_is_worded_in_every_language(languages: Any) -> None:
    samples = {
        "NEW_SNAPSHOT": Flag("NEW", "not in the earlier snapshot of 2026-05-01"),
        "NEW_CAMPAIGN": Flag("NEW", "not in the earlier campaign's scope of 2026-05-01"),
        "REACTIVATED_SNAPSHOT": Flag(
            "REACTIVATED", "SUSPENDED in the earlier snapshot of 2026-05-01, ACTIVE now"
        ),
        "REACTIVATED_CAMPAIGN": Flag(
            "REACTIVATED", "SUSPENDED in the earlier campaign's scope of 2026-05-01, ACTIVE now"
        ),
        "ADMIN": Flag("ADMIN", "a system-portal (administrator) account"),
        "STALE": Flag("STALE", "not updated for 256 days (since 2026-03-15)"),
        "EXPIRED": Flag("EXPIRED", "pending, expired on 2026-11-08"),
        "WRITE": Flag("WRITE", "holds write permissions: workspace:user:write"),
        "OWN": Flag("OWN", "the reviewer's own account: another reviewer decides it"),
    }
    assert set(samples) == set(flags.REASONS) == set(queue_model.REASONS)
    assert set(flags.CODES) == set(queue_model.FLAGS)
    for code, flag in samples.items():
        reason = flags.reason_of(flag.code, flag.reason)
        assert reason is not None and reason.code == code
    english = {c: queue_model.reason_words(f) for c, f in samples.items()}
    names = {c: queue_model.flag_words(c) for c in flags.CODES}
    assert english["STALE"] == samples["STALE"].reason  # the engine's English, from the code
    for language in LANGUAGES:
        languages.set_language(language)
        for code, flag in samples.items():
            said = queue_model.reason_words(flag)
            assert said != english[code], (language, code)
            assert "2026" in said or code in ("ADMIN", "OWN", "WRITE"), (language, code)
        for code in flags.CODES:
            assert queue_model.flag_words(code) != names[code], (language, code)
    languages.set_language("ja")
    said = queue_model.reason_words(samples["REACTIVATED_SNAPSHOT"])
    assert "SUSPENDED" not in said and "ACTIVE" not in said  # statuses in words too


def test_another_server_is_refused_by_name_in_every_language(languages: Any) -> None:
    """OTHER_SERVER: the scope's server and the one signed in to, in the reader's words."""
    exc = CampaignError(
        "OTHER_SERVER",
        "this campaign's scope was taken on https://a.example (as signed off), and this is"
        " https://b.example: refused; nothing is read or planned",
        params=("https://a.example", "https://b.example"),
    )
    english = refusals.refusal("Nothing was remediated.", exc, "q4.review")
    assert english.code == "OTHER_SERVER"
    assert "another server (https://a.example)" in english.message
    assert "signed in to (https://b.example)" in english.message
    for language in LANGUAGES:
        languages.set_language(language)
        said = refusals.cause(exc, "q4.review")
        assert said != english.message, language
        assert "https://a.example" in said and "https://b.example" in said, language
    unnamed = CampaignError("OTHER_SERVER", "x", params=("", "https://b.example"))
    assert "(—)" in refusals.cause(unnamed) or "（—）" in refusals.cause(unnamed)


def test_every_verification_finding_is_worded_in_every_language(languages: Any) -> None:
    """What Verify names (``Verification.findings``): a sentence per code, its parameters
    filled, never the engine's English."""
    samples = {code: Finding(code, ("account:ACC000002", "2026-11-28")) for code in FINDINGS}
    assert set(signers.FINDINGS) == set(FINDINGS)
    english = {code: signers.finding_words(f) for code, f in samples.items()}
    assert english["CHANGED"] == "changed: account:ACC000002"
    for language in LANGUAGES:
        languages.set_language(language)
        for code, finding in samples.items():
            said = signers.finding_words(finding)
            assert said != english[code], (language, code)
            assert ("account:ACC000002" in said) == ("%1" in signers.FINDINGS[code]), code
