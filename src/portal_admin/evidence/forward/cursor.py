"""How far each destination got: a cursor file per destination, written atomically and fsynced.

A cursor names the last journal record the destination accepted by its ``seq`` and ``hash``
(and, as a hint, the byte offset where that record's line starts), and the last checkpoint
sent by its signature and offset. The offsets only save reading: a cursor is trusted only when
the line at its offset has its seq and hash, else the record is looked for by its hash, and a
journal that no longer holds it was rewritten (:class:`JournalRewritten`), never skipped.

The files live in ``forward/`` in the user data folder, one per destination and journal:
``<host>-<digest>.cursor.json``. The user can edit them (who else can is who can write the
data folder): one that is not a cursor is refused by name (:class:`CursorError`). A cursor
moved forward to a real later record would skip records silently, so a cursor is sealed
(``seal``: HMAC-SHA256 over its fields, with a key derived from the installation's signing
key, in the keyring or the owner-only key file, :func:`seal_key`); one whose seal does not
verify is refused (``journal forward --reset`` sends everything again). When that key can be
neither read nor made, cursors are not sealed, and such an edit is not detected.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from portal_admin.files import json_input
from portal_admin.files.atomic import atomic_write_text
from portal_admin.files.paths import data_dir

FORMAT = 1
#: The hash of "no record yet": the journal's genesis.
GENESIS = "0" * 64
#: What a record's hash is: 64 lowercase hex digits.
HEX64 = re.compile(r"[0-9a-f]{64}\Z")
_SLUG = re.compile(r"[^A-Za-z0-9.-]+")


class CursorError(Exception):
    """A cursor file that cannot be used (not JSON, wrong fields, another destination's)."""


class JournalRewritten(Exception):
    """The journal no longer holds the record a destination's cursor names: it was rewritten,
    replaced or cut short. Nothing is sent; ``journal forward --reset`` starts again from
    the first record (the receiver drops what it already has by hash)."""


@dataclass
class Cursor:
    """One destination's place in one journal."""

    destination: str
    journal: str
    format: str
    seq: int = 0
    hash: str = GENESIS
    #: Where the line of the record ``seq`` starts (-1: no record sent yet).
    offset: int = -1
    checkpoints: int = 0
    #: The last checkpoint sent: its signature, and where its line starts (-1: none yet).
    checkpoint_signature: str = ""
    checkpoint_offset: int = -1
    #: Splunk HEC's channel id for indexer acknowledgement (kept, so acks survive a restart).
    channel: str = ""
    updated: str = ""
    format_version: int = FORMAT
    #: HMAC-SHA256 of the other fields with :func:`seal_key` ("" : not sealed).
    seal: str = ""

    @property
    def started(self) -> bool:
        return self.offset >= 0


def folder() -> Path:
    """Where the cursors live."""
    return data_dir() / "forward"


def cursor_path(destination: str, journal: Path, base: Path | None = None) -> Path:
    """The cursor file of ``destination`` (its label, no secret) reading ``journal``."""
    digest = hashlib.sha256(f"{destination}\n{journal.resolve()}".encode()).hexdigest()[:16]
    host = destination.split("://", 1)[-1].split("/", 1)[0] or "file"
    slug = _SLUG.sub("-", host).strip("-")[:40] or "destination"
    return (base or folder()) / f"{slug}-{digest}.cursor.json"


def _field(data: dict[str, Any], name: str, kind: type, default: Any) -> Any:
    value = data.get(name, default)
    if kind is int and (not isinstance(value, int) or isinstance(value, bool)):
        raise CursorError(f"{name} is not a number")
    if kind is str and not isinstance(value, str):
        raise CursorError(f"{name} is not text")
    return value


#: What a cursor's seal covers before its fields (no other MAC of the key can pass for it).
SEAL_CONTEXT = b"portal-admin forwarding cursor 1\n"


def seal_key(store: Any = None) -> bytes | None:
    """The key cursors are sealed with: derived from the installation's signing key (kept
    where that key is); None when it can be neither read nor made."""
    from cryptography.hazmat.primitives import serialization

    from portal_admin.evidence import keys

    try:
        key = keys.signing_key(store)
    except Exception:  # no keyring, a keyring that fails: cursors are not sealed
        return None
    raw = key.private_bytes(
        serialization.Encoding.Raw,
        serialization.PrivateFormat.Raw,
        serialization.NoEncryption(),
    )
    return hmac.new(raw, b"portal-admin forwarding cursor seal key", hashlib.sha256).digest()


def seal_of(cursor: Cursor, key: bytes) -> str:
    """The seal of ``cursor`` (every field but ``seal``) with ``key``."""
    body = {k: v for k, v in dataclasses.asdict(cursor).items() if k != "seal"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hmac.new(key, SEAL_CONTEXT + text.encode("utf-8"), hashlib.sha256).hexdigest()


def load(path: Path, key: bytes | None = None) -> Cursor | None:
    """The cursor in ``path``; None when there is none. Raises :class:`CursorError`, also
    when ``key`` is given and a cursor that has started does not carry its seal."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise CursorError(f"{path}: {exc.strerror}") from None
    try:
        data = json_input.loads(raw)
        if not isinstance(data, dict):
            raise CursorError("not a JSON object")
        values = {
            f.name: _field(data, f.name, int if f.type in (int, "int") else str, f.default)
            for f in dataclasses.fields(Cursor)
            if f.default is not dataclasses.MISSING
        }
        for name in ("destination", "journal", "format"):
            values[name] = _field(data, name, str, None)
        cursor = Cursor(**values)
    except CursorError as exc:
        raise CursorError(f"{path}: not a forwarding cursor ({exc})") from None
    except (ValueError, TypeError):
        raise CursorError(f"{path}: not a forwarding cursor") from None
    if not HEX64.match(cursor.hash) or cursor.seq < 0 or cursor.offset < -1:
        raise CursorError(f"{path}: not a forwarding cursor (its seq or hash)")
    if (
        key is not None
        and (cursor.started or cursor.checkpoint_offset >= 0)
        and not hmac.compare_digest(cursor.seal, seal_of(cursor, key))
    ):
        raise CursorError(
            f"{path}: the cursor does not carry this installation's seal (edited, or written"
            " without its key), so where it points is not believed; `journal forward --reset`"
            " sends everything again (the receiver drops what it has by hash)"
        )
    return cursor


def save(path: Path, cursor: Cursor, key: bytes | None = None) -> None:
    """Write ``cursor`` durably (sealed with ``key`` when one is given): a temporary file,
    fsynced, renamed over the old one, the folder fsynced."""
    fields = dataclasses.asdict(cursor)
    fields["seal"] = seal_of(cursor, key) if key is not None else ""
    atomic_write_text(path, json.dumps(fields, indent=1, sort_keys=True))


def every(base: Path | None = None) -> Iterator[tuple[Path, Cursor | CursorError]]:
    """Each cursor file in the folder, with its cursor or why it cannot be read."""
    where = base or folder()
    if not where.is_dir():
        return
    for path in sorted(where.glob("*.cursor.json")):
        try:
            found = load(path)
        except CursorError as exc:
            yield path, exc
            continue
        if found is not None:
            yield path, found
