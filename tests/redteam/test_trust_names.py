"""Red-team attacks on trusted keys' names (branch h/journal-undo, ``evidence/trust.py``): a
colleague's key named so that it reads as "This installation" in the lists where the program
shows this installation's own key. Each case is accepted by the current code.
"""

from __future__ import annotations

import pytest

from portal_admin.evidence import trust


@pytest.mark.parametrize(
    "name",
    [
        "This instaIIation",  # capital I for small l: the same glyph in most sans-serif fonts
        "This lnstallation",  # small l for small i at the start of the word
        "Ꭲhis installation",  # Cherokee letter TA (U+13A2) for T: no folding joins them
        "This installatіon",  # a control: Cyrillic і is folded, refused today
    ],
)
def test_a_name_that_reads_as_this_installation_is_refused(name: str) -> None:
    """Attack: ``trust add FINGERPRINT --name NAME`` (or a trust file edited by hand) with a
    name that looks like "This installation" but is not spelled so. ``imitates_own_key``
    compares a skeleton made of NFKD, casefold and a short look-alike table; capital ``I``
    casefolds to ``i`` (never to ``l``), small ``l`` for ``i`` is not folded, and letters of
    other scripts outside the table (Cherokee, Lisu, Latin small capitals) pass. The
    colleague's checkpoints and sign-offs are then listed under a name that reads as the
    installation's own. Class of fix: the Unicode confusables skeleton (UTS #39) with the
    l/I/1 class folded together, and the program never shows a trusted key's name without
    its fingerprint or a distinct mark for "own"."""
    with pytest.raises(trust.TrustError):
        trust._name(name)
