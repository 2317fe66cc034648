"""Signed checkpoints of the journal: its head's seq and hash, signed with the installation key.

The chain alone cannot show that records were cut off the end, or that the whole file was
rewritten with new hashes. A checkpoint pins a record: a line of ``journal.checkpoints.jsonl``
beside the journal naming a seq and the hash of the record at that seq (the last one its
writer appended), signed (Ed25519) with the installation's key (``keys.signing_key``),
written every :data:`EVERY` records and when the program stops cleanly. It anchors every
record up to its seq, and vouches (``vouches``: ranges of seqs) only for those its writer
appended: a record another hand added in between is anchored, never vouched for.
Verification then finds a journal shorter than its last checkpoint, one whose record at a
checkpoint's seq has another hash, and a checkpoint whose signature does not verify or that
a key neither this installation's nor trusted signed (it anchors nothing).

Each line is canonical JSON (sorted keys, no spaces) with ``signature``: base64 Ed25519 over
:data:`CONTEXT` followed by the canonical JSON of the line without ``signature``.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from portal_admin.files import json_input
from portal_admin.files.atomic import open_own

from . import keys

#: A checkpoint every this many records (seq 100, 200, ...), and one at every clean stop.
EVERY = 100
FORMAT = 1
#: What a checkpoint's signature covers before the line's canonical JSON (no other signature
#: of this key, a pack's manifest, can pass for a checkpoint's).
CONTEXT = b"portal-admin journal checkpoint 1\n"

#: A checkpoint's fields, as a pack's ``checkpoints`` table holds them.
COLUMNS = (
    "seq",
    "hash",
    "time",
    "reason",
    "key",
    "public_key",
    "signature",
    "kind",
    "format",
    "vouches",
)

#: Hands out the installation's signing key; raises ``keys.KeyUnavailable`` without one.
Signer = Callable[[], Ed25519PrivateKey]


def checkpoints_path(journal_path: Path) -> Path:
    """The checkpoints file beside a journal: ``journal.jsonl``'s is
    ``journal.checkpoints.jsonl``."""
    return journal_path.with_name(f"{journal_path.stem}.checkpoints.jsonl")


def _canonical(value: Mapping[str, Any]) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8"
    )


def make(
    key: Ed25519PrivateKey,
    seq: int,
    head: str,
    reason: str,
    vouches: Sequence[tuple[int, int]] | None = None,
) -> dict[str, Any]:
    """A signed checkpoint naming the record ``seq`` whose hash is ``head``; ``vouches``: the
    ranges of seqs (first, last) its signer wrote itself (None: every record up to ``seq``,
    as checkpoints of earlier versions say by having no ``vouches``)."""
    public = key.public_key()
    body: dict[str, Any] = {
        "kind": "checkpoint",
        "format": FORMAT,
        "time": datetime.now(UTC).isoformat(timespec="milliseconds"),
        "seq": seq,
        "hash": head,
        "reason": reason,
        "key": keys.fingerprint(public),
        "public_key": base64.b64encode(keys.public_raw(public)).decode("ascii"),
    }
    if vouches is not None:
        body["vouches"] = [[first, last] for first, last in vouches]
    signature = key.sign(CONTEXT + _canonical(body))
    return {**body, "signature": base64.b64encode(signature).decode("ascii")}


def append(path: Path, checkpoint: Mapping[str, Any]) -> None:
    """Append one checkpoint durably (the caller holds the journal's lock).

    A line cut short by a kill is cut off first, so the file always ends with a whole line.
    """
    created = not os.path.lexists(path)
    fd = open_own(path, os.O_RDWR | os.O_APPEND | os.O_CREAT)
    try:
        size = os.fstat(fd).st_size
        if size:
            start = max(0, size - 4096)
            os.lseek(fd, start, os.SEEK_SET)  # a seek and a read: Windows has no positional read
            tail = os.read(fd, size - start)
            if not tail.endswith(b"\n"):
                cut = tail.rfind(b"\n")
                os.ftruncate(fd, start + cut + 1 if cut >= 0 else start)
        os.write(fd, _canonical(checkpoint) + b"\n")
        os.fsync(fd)
    finally:
        os.close(fd)
    if created:
        from portal_admin.files.atomic import fsync_dir

        fsync_dir(path.parent)


def lines(path: Path) -> list[dict[str, Any]]:
    """The checkpoints file's lines as written (those that are JSON objects), for a pack."""
    if not path.exists():
        return []
    out: list[dict[str, Any]] = []
    with path.open("rb") as fh:
        for raw in fh:
            try:
                line = json_input.loads(raw)
            except ValueError:
                continue
            if isinstance(line, dict):
                out.append(line)
    return out


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """One checkpoint as read back: where, what it names, who signed it, and whether the
    signature verifies."""

    line: int
    seq: int
    hash: str
    reason: str
    time: str
    fingerprint: str
    public: Ed25519PublicKey | None
    signed: bool
    #: The seqs its signer vouches for having written: (first, last) ranges, at most up to
    #: ``seq`` (a checkpoint without ``vouches``, of an earlier version: 1 to ``seq``).
    vouches: tuple[tuple[int, int], ...] = ()


def _parse(number: int, raw: bytes) -> Checkpoint | None:
    try:
        line = json_input.loads(raw)
        body = {k: v for k, v in line.items() if k != "signature"}
        seq, head = line["seq"], line["hash"]
        if not isinstance(seq, int) or not isinstance(head, str):
            return None
        vouches = _vouches(line.get("vouches", [[1, seq]]), seq)
        if vouches is None:
            return None
        public = Ed25519PublicKey.from_public_bytes(base64.b64decode(line["public_key"]))
        signature = base64.b64decode(line["signature"])
    except (ValueError, KeyError, TypeError, AttributeError, binascii.Error):
        return None
    try:
        public.verify(signature, CONTEXT + _canonical(body))
        signed = True
    except InvalidSignature:
        signed = False
    return Checkpoint(
        number,
        seq,
        head,
        str(line.get("reason", "")),
        str(line.get("time", "")),
        keys.fingerprint(public),
        public,
        signed,
        vouches,
    )


#: The most ranges one checkpoint may vouch for (a process writes between two of its own
#: checkpoints at most ``EVERY`` records, so far fewer).
VOUCH_LIMIT = 10_000


def _vouches(value: Any, seq: int) -> tuple[tuple[int, int], ...] | None:
    """A checkpoint's ``vouches`` as ranges cut at its seq; None when it is not a list of
    (first, last) whole numbers."""
    if not isinstance(value, list) or len(value) > VOUCH_LIMIT:
        return None
    out: list[tuple[int, int]] = []
    for pair in value:
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not all(isinstance(n, int) and not isinstance(n, bool) for n in pair)
        ):
            return None
        first, last = max(1, pair[0]), min(seq, pair[1])
        if first <= last:
            out.append((first, last))
    return tuple(out)


@dataclass
class Found:
    """The checkpoints file as read: its checkpoints and the lines that are not one."""

    checkpoints: list[Checkpoint]
    unreadable: list[int]  # line numbers
    torn: bool = False


def read(path: Path) -> Found:
    """Every checkpoint of ``path`` (none when it does not exist)."""
    found = Found([], [])
    if not path.exists():
        return found
    with path.open("rb") as fh:
        for number, raw in enumerate(fh, start=1):
            if not raw.endswith(b"\n"):
                found.torn = True  # a kill mid-append: not a checkpoint, not an attack
                break
            checkpoint = _parse(number, raw.rstrip(b"\n"))
            if checkpoint is None:
                found.unreadable.append(number)
            else:
                found.checkpoints.append(checkpoint)
    return found


def _plain(text: str) -> str:
    return "".join(text.split()).lower()


def same_key(fingerprint: str, other: str | None) -> bool:
    """True when two fingerprints name the same key (spaces and case aside)."""
    return other is not None and _plain(fingerprint) == _plain(other)


@dataclass
class Checked:
    """A journal against its checkpoints: what disagrees (each breaks it), what is said,
    and the anchors (the good checkpoints: signed by a key accepted here, and agreeing with
    the journal)."""

    problems: list[str]
    notes: list[str]
    anchors: list[Checkpoint]


def check(
    found: Found,
    hashes: Mapping[int, Iterable[str]],
    end_seq: int,
    expected: str | None,
    *,
    trusted: Iterable[str] = (),
    pinned: bool = False,
) -> Checked:
    """A journal against its checkpoints.

    ``hashes`` holds the hashes of the journal's records at the checkpoints' seqs, ``end_seq``
    the journal's last seq, ``expected`` the fingerprint of this installation's key (None:
    none could be read), ``trusted`` the fingerprints of the keys trusted here. A checkpoint
    signed by any other key anchors nothing and is a problem; ``pinned``: ``expected`` is the
    one key accepted (``--fingerprint``), the trusted ones are not.
    """
    problems: list[str] = []
    notes: list[str] = []
    accepted = {_plain(expected)} if expected is not None else set()
    if not pinned:
        accepted |= {_plain(f) for f in trusted}
    for number in found.unreadable:
        problems.append(f"checkpoint line {number} is not a checkpoint")
    for cp in found.checkpoints:
        if not cp.signed:
            problems.append(
                f"checkpoint line {cp.line} (seq {cp.seq}): the signature does not verify"
            )
        elif _plain(cp.fingerprint) in accepted:
            continue
        elif pinned:
            problems.append(
                f"checkpoint line {cp.line} (seq {cp.seq}) is signed by another key"
                f" ({cp.fingerprint}) than the fingerprint given ({expected})"
            )
        else:
            own = f"this installation's ({expected})" if expected else "this installation's"
            problems.append(
                f"checkpoint line {cp.line} (seq {cp.seq}) is signed by another key"
                f" ({cp.fingerprint}) than {own}, and not a trusted one: it anchors nothing"
                + ("" if expected else " (this installation's key could not be read)")
            )
    good = [cp for cp in found.checkpoints if cp.signed and _plain(cp.fingerprint) in accepted]
    anchors: list[Checkpoint] = []
    if good:
        last = max(good, key=lambda cp: cp.seq)
        if last.seq > end_seq:
            problems.append(
                f"truncated: the last checkpoint names seq {last.seq},"
                f" the journal ends at {end_seq}"
            )
        for cp in good:
            if cp.seq <= end_seq and cp.hash not in set(hashes.get(cp.seq, ())):
                problems.append(
                    f"the journal disagrees with the checkpoint at line {cp.line}: the record at"
                    f" seq {cp.seq} does not have the hash it names"
                )
            elif cp.seq <= end_seq:
                anchors.append(cp)
        signers = sorted({cp.fingerprint for cp in good})
        notes.append(
            f"{len(found.checkpoints)} checkpoint(s), the last at seq {last.seq}; signed by"
            f" {', '.join(signers)}"
        )
    elif end_seq:
        notes.append("no checkpoint: the journal's end is not anchored")
    if found.torn:
        notes.append("the checkpoints file ends with a line cut short (a crash)")
    return Checked(problems, notes, anchors)
