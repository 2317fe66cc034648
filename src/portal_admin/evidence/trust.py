"""Which signing keys this installation trusts for evidence packs (no Qt).

A pack carries its signer's public key, so a signature alone proves only that the pack is what
*some* key signed. A pack is reported intact only when its key is trusted: the installation's
own key (``keys.py``, in the OS keyring), a key added on purpose with a name (a colleague's,
the organisation's reviewers': ``evidence trust add FINGERPRINT --name NAME``), or the
fingerprint given for one check (``--fingerprint``).

The trusted keys are kept in ``trusted_keys.json`` in the user data folder (``evidence/``):
a format number and one entry per key (fingerprint, name, when it was added), written
atomically (write, fsync, rename) and readable by its owner only.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import unicodedata
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import filelock
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from portal_admin.files import json_input
from portal_admin.files.atomic import atomic_open
from portal_admin.files.paths import data_dir
from portal_admin.files.portable import file_lock

from . import keys

#: The trust file's format; a newer one is refused rather than misread.
FORMAT = 1
#: The longest name a trusted key may have (it is shown on one line).
NAME_LIMIT = 200
#: The largest trust file read (a few thousand keys); a larger one is not this program's.
FILE_LIMIT = 1 << 20

_HEX64 = re.compile(r"[0-9a-f]{64}")


class TrustError(ValueError):
    """A fingerprint that is not 64 hex digits, a name that cannot be used, or a trust file
    that cannot be read (its message says which)."""


def normalize_fingerprint(text: str) -> str:
    """``text`` as a fingerprint in the canonical form (``keys.fingerprint``'s): lowercase hex
    in groups of four separated by spaces; spaces, colons and case are ignored."""
    plain = "".join(ch for ch in str(text) if not ch.isspace() and ch != ":").lower()
    if not _HEX64.fullmatch(plain):
        shown = text if len(text) <= 100 else text[:100] + "..."
        raise TrustError(
            f"not a key fingerprint: {shown!r} (a fingerprint is 64 hex digits, "
            "in groups of four or not)"
        )
    return " ".join(plain[i : i + 4] for i in range(0, 64, 4))


#: The words the program uses for this installation's own key, in each of its languages
#: (``translations/*.ts``: TrustedKeys "This installation", PackCheck "this installation's
#: key"; a test checks that each translation is caught): no trusted key's name may read as
#: one of them, or a colleague's key could pass for this installation's own.
RESERVED_NAMES = (
    "this installation",
    "本安装",
    "本安裝",
    "此安装",
    "此安裝",
    "このインストール",
    "bản cài đặt này",
)
#: Letters that look like Latin ones (Cyrillic, Greek, digits, dotless i), folded to them.
_LOOKALIKES = str.maketrans(
    {
        "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
        "с": "c", "т": "t", "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j", "ѕ": "s",
        "ӏ": "l", "ԁ": "d", "ԛ": "q", "ԝ": "w", "α": "a", "β": "b", "ε": "e", "ι": "i",
        "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ı": "i",
        "ł": "l", "đ": "d", "ð": "d", "0": "o", "1": "l", "|": "l", "!": "i", "$": "s",
        "5": "s", "3": "e", "4": "a", "7": "t", "@": "a", "һ": "h", "ɡ": "g", "ɩ": "i",
        "η": "h", "ԍ": "g", "ո": "n", "ս": "u", "օ": "o",
        # Cherokee capitals (casefold turns its small letters into these)
        "Ꭰ": "d", "Ꭱ": "r", "Ꭲ": "t", "Ꭵ": "i", "Ꭹ": "y", "Ꭺ": "a", "Ꭻ": "j", "Ꭼ": "e",
        "Ꮃ": "w", "Ꮇ": "m", "Ꮋ": "h", "Ꮐ": "g", "Ꮒ": "h", "Ꮓ": "z", "Ꮟ": "b", "Ꮢ": "r",
        "Ꮥ": "s", "Ꮪ": "s", "Ꮮ": "l", "Ꮯ": "c", "Ꮲ": "p", "Ꮶ": "k", "Ᏼ": "b", "Ꮩ": "v",
        "Ꮖ": "i",
        # Lisu
        "ꓮ": "a", "ꓐ": "b", "ꓚ": "c", "ꓓ": "d", "ꓰ": "e", "ꓝ": "f", "ꓖ": "g", "ꓧ": "h",
        "ꓲ": "i", "ꓙ": "j", "ꓗ": "k", "ꓡ": "l", "ꓟ": "m", "ꓠ": "n", "ꓳ": "o", "ꓑ": "p",
        "ꓣ": "r", "ꓢ": "s", "ꓔ": "t", "ꓴ": "u", "ꓦ": "v", "ꓪ": "w", "ꓫ": "x", "ꓬ": "y",
        "ꓜ": "z",
        # Latin small capitals
        "ᴀ": "a", "ʙ": "b", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ꜰ": "f", "ɢ": "g", "ʜ": "h",
        "ɪ": "i", "ᴊ": "j", "ᴋ": "k", "ʟ": "l", "ᴍ": "m", "ɴ": "n", "ᴏ": "o", "ᴘ": "p",
        "ʀ": "r", "ꜱ": "s", "ᴛ": "t", "ᴜ": "u", "ᴠ": "v", "ᴡ": "w", "ʏ": "y", "ᴢ": "z",
    }
)  # fmt: skip
#: Letters that read as one another in common fonts, collapsed last: l, I (casefolded to
#: i), 1 and | all read as one stroke.
_ONE_STROKE = str.maketrans({"l": "i"})


def skeleton(text: str) -> str:
    """``text`` as it reads: compatibility forms folded (full-width, ligatures), accents and
    case dropped, look-alike letters (Cyrillic, Greek, Armenian, Cherokee, Lisu, small
    capitals, digits) made Latin, the one-stroke letters (l, I, 1, |) made one, and only
    letters and digits kept."""
    folded = unicodedata.normalize("NFKD", text)
    folded = "".join(ch for ch in folded if not unicodedata.combining(ch))
    folded = folded.casefold().translate(_LOOKALIKES).translate(_ONE_STROKE)
    return "".join(ch for ch in unicodedata.normalize("NFKC", folded) if ch.isalnum())


_RESERVED = tuple(skeleton(text) for text in RESERVED_NAMES)


def imitates_own_key(name: str) -> bool:
    """True when ``name`` reads as this installation's own key (:data:`RESERVED_NAMES` in
    any spelling: case, accents, full-width, look-alike letters, spaces and punctuation)."""
    plain = skeleton(name)
    return any(reserved in plain for reserved in _RESERVED)


def _name(text: str) -> str:
    name = str(text).strip()
    if not name:
        raise TrustError("a trusted key needs a name (whose key it is)")
    if len(name) > NAME_LIMIT:
        raise TrustError(f"a trusted key's name has at most {NAME_LIMIT} characters")
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in name):
        raise TrustError("a trusted key's name is text on one line, without control characters")
    if imitates_own_key(name):
        raise TrustError(
            "a trusted key's name may not read as this installation's own key"
            " (in any language or spelling): name whose key it is"
        )
    return name


@dataclass(frozen=True)
class TrustedKey:
    """A key added on purpose: its fingerprint (canonical form), whose it is, and when it was
    added (ISO 8601, UTC)."""

    fingerprint: str
    name: str
    added: str


def trust_file_path() -> Path:
    """Where this installation's trusted keys are kept."""
    return data_dir() / "evidence" / "trusted_keys.json"


class TrustStore:
    """The trusted keys in one file (read afresh on every call, so two windows agree)."""

    def __init__(self, path: Path | None = None) -> None:
        self._path = path

    @property
    def path(self) -> Path:
        """The trust file."""
        return self._path if self._path is not None else trust_file_path()

    def keys(self) -> list[TrustedKey]:
        """Every trusted key, in the order they were added; none when there is no file."""
        path = self.path
        try:
            with path.open("rb") as fh:
                raw = fh.read(FILE_LIMIT + 1)
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise TrustError(f"{path}: cannot be read ({exc.strerror or exc})") from None
        if len(raw) > FILE_LIMIT:
            raise TrustError(f"{path}: not a trusted-keys file (larger than {FILE_LIMIT} bytes)")
        return _parse(path, raw)

    def find(self, fingerprint: str) -> TrustedKey | None:
        """The trusted key of this fingerprint, or None."""
        wanted = normalize_fingerprint(fingerprint)
        return next((k for k in self.keys() if k.fingerprint == wanted), None)

    def add(self, fingerprint: str, name: str) -> TrustedKey:
        """Trust a key under a name (adding it again replaces its name)."""
        entry = TrustedKey(
            normalize_fingerprint(fingerprint),
            _name(name),
            datetime.now(UTC).isoformat(timespec="seconds"),
        )
        with self._changing():
            kept = [k for k in self.keys() if k.fingerprint != entry.fingerprint]
            self._write([*kept, entry])
        return entry

    def remove(self, fingerprint: str) -> bool:
        """Stop trusting a key; False when it was not trusted."""
        wanted = normalize_fingerprint(fingerprint)
        with self._changing():
            present = self.keys()
            kept = [k for k in present if k.fingerprint != wanted]
            if len(kept) == len(present):
                return False
            self._write(kept)
        return True

    def _changing(self) -> filelock.BaseFileLock:
        """An OS lock beside the file for a read-change-write, so that two processes adding
        keys at once both keep theirs."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        return file_lock(f"{self.path}.lock")

    def _write(self, entries: list[TrustedKey]) -> None:
        text = json.dumps(
            {"format": FORMAT, "keys": [asdict(k) for k in entries]},
            indent=1,
            ensure_ascii=False,
        )
        with atomic_open(self.path, private=True) as fh:
            fh.write(text + "\n")


def _parse(path: Path, raw: bytes) -> list[TrustedKey]:
    def refuse(why: str) -> TrustError:
        return TrustError(f"{path}: not a trusted-keys file ({why})")

    try:
        data: Any = json_input.loads(raw)
    except ValueError as exc:
        raise refuse(str(exc)) from None
    if not isinstance(data, dict) or not isinstance(data.get("format"), int):
        raise refuse("no format number")
    if data["format"] > FORMAT:
        raise TrustError(
            f"{path}: written by a newer program (format {data['format']}; "
            f"this one reads format {FORMAT})"
        )
    entries = data.get("keys")
    if not isinstance(entries, list):
        raise refuse("no list of keys")
    found: list[TrustedKey] = []
    for entry in entries:
        if not isinstance(entry, dict) or not all(
            isinstance(entry.get(k), str) for k in ("fingerprint", "name", "added")
        ):
            raise refuse("an entry is not a fingerprint, a name and a time")
        try:
            found.append(
                TrustedKey(
                    normalize_fingerprint(entry["fingerprint"]),
                    _name(entry["name"]),
                    entry["added"],
                )
            )
        except TrustError as exc:
            raise refuse(str(exc)) from None
    return found


def own_fingerprint(store: keys.SecretStore | None = None) -> str | None:
    """The installation key's fingerprint, or None when there is none yet (none is made here)
    or it cannot be read (keyring or key file: ``keys.installation_store``)."""
    store = keys.installation_store() if store is None else store
    try:
        text = store.get()
    except keys.KeyUnavailable:
        return None
    if not text:
        return None
    try:
        key = Ed25519PrivateKey.from_private_bytes(base64.b64decode(text, validate=True))
    except (ValueError, binascii.Error):
        return None
    return keys.fingerprint(key.public_key())


#: ``trust_of``'s ``own`` when this installation's key is to be looked up in the OS keyring.
LOOK_UP: object = object()


def trust_of(
    fingerprint: str,
    pinned: str | None = None,
    store: TrustStore | None = None,
    own: object = LOOK_UP,
) -> tuple[str, str]:
    """(verdict, name) of a signer's key: ``pinned`` (the fingerprint given for this check),
    ``own`` (this installation's key; ``own``: its fingerprint, None for none, or
    :data:`LOOK_UP`), ``trusted`` (with the name it was trusted under), or ``untrusted``;
    checked in this order. Packs and campaign sign-offs use it alike."""
    if pinned is not None and fingerprint == pinned:
        return "pinned", ""
    mine = own_fingerprint() if own is LOOK_UP else own
    if isinstance(mine, str) and normalize_fingerprint(mine) == fingerprint:
        return "own", ""
    found = (store if store is not None else TrustStore()).find(fingerprint)
    if found is not None:
        return "trusted", found.name
    return "untrusted", ""
