"""Which label to show for an enum item (section 2.2), when the server's may be unusable.

A server localizes labels by Accept-Language but "may" send an untranslated key instead, of
the form ``enum.<Type>.<NAME>`` (``enum.UserAccountStatus.ACTIVE``). Nobody should read that
key. The rule, for every place that shows a label:

1. the server's label, unless it is missing, blank or an untranslated key;
2. else the program's own label for the code (the caller passes it: a ``tr()`` lookup in the
   desktop program, None where there is none);
3. else the code in words (``PENDING_INIT`` -> "Pending init").

Pure functions, no Qt: the desktop program, the command line and reports share them.
"""

from __future__ import annotations

import re
from collections.abc import Callable

#: ``enum.<Type>.<NAME>``: ASCII identifiers, the type possibly dotted (``enum.a.B.C``).
_KEY = re.compile(r"enum(?:\.[A-Za-z_][A-Za-z0-9_]*){2,}")
#: Codes this short without an underscore are abbreviations (OTP, SMS, VN): kept as they are.
_ABBREVIATION = 3


def is_untranslated_key(text: object) -> bool:
    """True when ``text`` is an untranslated label key such as ``enum.UserAccountStatus.ACTIVE``."""
    return isinstance(text, str) and len(text) <= 200 and _KEY.fullmatch(text.strip()) is not None


def code_in_words(code: str) -> str:
    """A code as words for a person: ``PENDING_INIT`` -> "Pending init", ``ACTIVE`` ->
    "Active"; a short code without an underscore (``OTP``) is kept; empty for empty."""
    text = code.strip()
    if not text:
        return ""
    if len(text) <= _ABBREVIATION and text.isalnum():
        return text
    words = " ".join(text.replace("_", " ").replace("-", " ").split()).lower()
    return words[:1].upper() + words[1:]


def _key_name(key: str) -> str:
    """The ``NAME`` of ``enum.<Type>.<NAME>``."""
    return key.strip().rsplit(".", 1)[-1]


def label_to_show(served: str | None, code: str | None, own: str | None = None) -> str:
    """What to show for an item whose server label is ``served`` and code is ``code``:
    ``served`` when it is usable, else ``own`` (the program's label for the code), else the
    code in words; never an untranslated key."""
    if served and served.strip() and not is_untranslated_key(served):
        return served
    if own:
        return own
    if not code and served and is_untranslated_key(served):
        code = _key_name(served)  # no code: the key's last part names it
    return code_in_words(code or "")


def item_label(item: object, own: Callable[[str], str | None] | None = None) -> str:
    """:func:`label_to_show` for an enum item (anything with ``label`` and ``code``);
    ``own`` looks up the program's label for a code, asked only when the server's label is
    unusable. Empty for None."""
    if item is None:
        return ""
    if not hasattr(item, "label") and not hasattr(item, "code"):  # a bare value
        text = str(item)
        return label_to_show(None, _key_name(text)) if is_untranslated_key(text) else text
    served = getattr(item, "label", None)
    code = getattr(item, "code", None)
    served = served if isinstance(served, str) else None
    code = str(code) if code not in (None, "") else None
    if served and served.strip() and not is_untranslated_key(served):
        return served
    return label_to_show(served, code, own(code) if own is not None and code else None)
