"""Trusted keys' names that read as "This installation" (red-team finding): the skeleton
folds the one-stroke letters (l, I, 1, |) together and the Latin look-alikes of Cherokee,
Lisu and small capitals, besides Cyrillic and Greek."""

from __future__ import annotations

import pytest

from portal_admin.evidence import trust


@pytest.mark.parametrize(
    "name",
    [
        "This instaIIation",  # capital I for small l: the same glyph in most sans-serif fonts
        "This lnstallation",  # small l for small i at the start of the word
        "Ꭲhis installation",  # Cherokee letter TA (U+13A2) for T
        "ꭲhis installation",  # its small form (casefolded to the capital)
        "ꓔhis ɪnstallation",  # Lisu TA and a Latin small capital I
        "Th1s 1nsta11ati0n",  # digits
        "This installatіon",  # a control: Cyrillic і was folded already
    ],
)
def test_a_name_that_reads_as_this_installation_is_refused(name: str) -> None:
    """Attack: ``trust add FINGERPRINT --name NAME`` (or a trust file edited by hand) with a
    name that looks like "This installation" but is not spelled so. Capital ``I`` casefolded
    to ``i`` (never to ``l``), small ``l`` for ``i`` was not folded, and letters of other
    scripts outside the table (Cherokee) passed: the colleague's checkpoints and sign-offs were
    listed under a name that reads as the installation's own."""
    with pytest.raises(trust.TrustError, match="may not read as"):
        trust._name(name)


@pytest.mark.parametrize("name", ["Alice's laptop", "Bill in Illinois", "Lili", "李雷"])
def test_names_with_one_stroke_letters_are_kept(name: str) -> None:
    assert trust._name(name) == name
