"""One word per meaning in every language (translations/glossary/<lang>.terms.json).

Each meaning that matters (an access review's Revoke, revoking an authenticator, cancelling an
invitation, deactivating, suspending, reverting) has one translation per language: every
string whose English source carries the meaning uses it, and no string of another meaning
does (Japanese once said 取り消し for Revoke and for a cancelled invitation, and 無効化 for
Deactivated and for revoking an authenticator)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = ROOT / "translations" / "glossary"
LANGUAGES = ("ja", "zh_CN", "zh_TW", "vi")

Message = tuple[str, str, str]  # context, source, translation


def messages(language: str) -> list[Message]:
    tree = ET.parse(ROOT / "translations" / f"portal_admin_{language}.ts")
    found = []
    for context in tree.getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            tr = message.find("translation")
            text = "".join(tr.itertext()) if tr is not None else ""
            found.append((name, message.findtext("source") or "", text))
    return found


def plain(text: str) -> str:
    """A translation without accelerators, in lower case (Vietnamese capitals)."""
    return re.sub(r"\(&.\)|&(?=\w)", "", text).casefold()


def carries(term: dict[str, Any], message: Message) -> bool:
    context, source, _text = message
    if term.get("contexts") and context not in term["contexts"]:
        return False
    if term.get("skip") and re.search(term["skip"], source, re.IGNORECASE):
        return False
    return re.search(term["sources"], source, re.IGNORECASE) is not None


def mentions(term: dict[str, Any], message: Message) -> bool:
    """True when the message's source speaks of the term's meaning, in any context (a term's
    contexts say where its word is required, not where the meaning may appear)."""
    return carries({**term, "contexts": None}, message)


def glossary(language: str) -> list[dict[str, Any]]:
    terms: list[dict[str, Any]] = json.loads(
        (GLOSSARY / f"{language}.terms.json").read_text(encoding="utf-8")
    )["terms"]
    return terms


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_meaning_has_its_one_translation(language: str) -> None:
    every = messages(language)
    for term in glossary(language):
        mine = [m for m in every if carries(term, m)]
        assert mine, (language, term["meaning"], "matches no string")
        wrong = [m for m in mine if term["term"].casefold() not in plain(m[2])]
        assert not wrong, (language, term["meaning"], term["term"], wrong)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_two_meanings_share_a_term(language: str) -> None:
    every = messages(language)
    terms = glossary(language)
    for term in terms:
        for other in terms:
            if other["term"].casefold() == term["term"].casefold():
                continue  # one word for two meanings on purpose (written in the glossary)
            # the same word may be another meaning's on purpose (zh: 撤销 for both revokes)
            same_word = [t for t in terms if t["term"].casefold() == term["term"].casefold()]
            clash = [
                m[:2]
                for m in every
                if carries(other, m)
                and not any(mentions(t, m) for t in same_word)
                and not re.search(term.get("also", "(?!)"), m[1], re.IGNORECASE)
                and term["term"].casefold() in plain(m[2])
            ]
            assert not clash, (language, term["term"], term["meaning"], other["meaning"], clash)


def test_the_japanese_collisions_the_auditor_saw_are_gone() -> None:
    """取り消し only for cancelling, 無効化 only for deactivating (the walk's screenshots)."""
    every = {(c, s): t for c, s, t in messages("ja")}
    assert "取り消" not in every[("ReviewQueue", "Revoke")]
    assert "取り消" in every[("EnumLabels", "Cancelled")]
    assert "無効化" not in every[("MfaPanel", "Revoke")]
    assert "無効化" in every[("EnumLabels", "Deactivated")]
