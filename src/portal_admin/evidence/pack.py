"""Evidence packs: a snapshot, a diff or a journal range as one signed zip, and its check.

A pack holds the data as CSV files, ``report.html`` (self-contained: opens in any browser),
``manifest.json`` (every file's SHA-256 and size, what the pack is, the installation key's
public half and fingerprint), ``manifest.sig`` (Ed25519 over the manifest's exact bytes,
base64) and ``public_key.pem``. :func:`verify_pack` checks the signature and every hash
(members read as streams, within bounds on what a pack may declare), that the members are
exactly the manifest's files, each once, and who signed it (``trust.py``: this installation's
key, a trusted key, or the fingerprint given; any other signer is ``untrusted``), and says
what was changed, added or removed.
"""

from __future__ import annotations

import base64
import contextlib
import csv
import errno
import hashlib
import html
import io
import json
import os
import re
import struct
import zipfile
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from portal_admin import __version__
from portal_admin.files import json_input
from portal_admin.files.atomic import fsync_dir
from portal_admin.files.csv_rules import cell_text
from portal_admin.files.portable import fsync_path
from portal_admin.files.terminal import printable
from portal_admin.protocol.labels import code_in_words

from . import keys
from . import trust as trusting

FORMAT = 1
MANIFEST, SIGNATURE, PUBLIC_KEY, REPORT = (
    "manifest.json",
    "manifest.sig",
    "public_key.pem",
    "report.html",
)
#: Rows of one table shown in the HTML report (the CSV files hold every row).
REPORT_ROWS = 2000

Table = tuple[Sequence[str], Iterable[Sequence[Any]]]


#: Columns whose 0 and 1 are no and yes (a snapshot keeps its flags as SQLite integers).
YES_NO_COLUMNS = frozenset({"enabled", "active", "is_default", "is_primary"})


@dataclass(frozen=True)
class ReportWords:
    """The words of ``report.html``, in the language of the person who makes the pack: the
    desktop program passes its translations, the command line keeps these English ones.
    ``%1``, ``%2`` are filled in. ``names``: labels of the pack's kind, the summary's keys, the
    tables' and columns' names (a name without one is shown as its code, in words in
    English); ``value``: a code's label for (table, column, code), or None for none. Every
    label is shown with its code beside it."""

    language: str = "en"
    title: str = "Evidence pack: %1"
    rows: str = "%1 rows"
    first_shown: str = "the first %1 shown, all in %2"
    yes: str = "yes"
    no: str = "no"
    names: Mapping[str, str] = field(default_factory=dict)
    value: Callable[[str, str, str], str | None] | None = None
    #: Fills ``%1``... (the desktop passes one that writes numbers in the reader's locale).
    number: Callable[[int], str] = str

    def name(self, code: str) -> str:
        """A name with its label: "Label (code)", or the code when that is all there is."""
        label = self.names.get(code)
        if label is None and self.language == "en":
            label = code_in_words(code)
        return _with_code(label, code)

    def cell(self, table: str, column: str, value: Any) -> str:
        """A cell as the report shows it: yes or no for a flag, a code's label beside it."""
        if value is None:
            return ""
        if isinstance(value, bool) or (column in YES_NO_COLUMNS and value in (0, 1)):
            return self.yes if value else self.no
        if isinstance(value, datetime):
            return value.isoformat()
        text = str(value)
        label = self.value(table, column, text) if self.value is not None and text else None
        return _with_code(label, text)


def _with_code(label: str | None, code: str) -> str:
    if not label or label.strip().casefold() == code.strip().casefold():
        return code
    return f"{label} ({code})"


def _fill(template: str, *args: str) -> str:
    for number in range(len(args), 0, -1):
        template = template.replace(f"%{number}", args[number - 1])
    return template


def _csv(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> tuple[bytes, list[Sequence[Any]]]:
    """CSV bytes with the program's rules, and the first rows (as they are) for the report."""
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
    writer.writerow([cell_text(h) for h in header])
    shown: list[Sequence[Any]] = []
    for row in rows:
        writer.writerow([cell_text(v) for v in row])
        if len(shown) < REPORT_ROWS:
            shown.append(row)
    return b"\xef\xbb\xbf" + out.getvalue().encode("utf-8"), shown


def _report(
    kind: str, summary: Mapping[str, Any], tables: Mapping[str, Any], words: ReportWords
) -> bytes:
    """A self-contained HTML report (no scripts, no external resources), in ``words``'
    language; every text from the pack's data is escaped."""
    e = html.escape
    title = _fill(words.title, words.name(kind))
    parts = [
        f"<!DOCTYPE html><html lang='{e(words.language, quote=True)}'><head><meta charset='utf-8'>",
        f"<title>{e(title)}</title><style>body{{font-family:sans-serif;margin:2em}}"
        "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #999;"
        "padding:2px 6px;font-size:90%}th{background:#eee}</style></head><body>",
        f"<h1>{e(title)}</h1><table>",
    ]
    for key, value in summary.items():
        shown = words.cell("", str(key), value)
        parts.append(f"<tr><th>{e(words.name(str(key)))}</th><td>{e(shown)}</td></tr>")
    parts.append("</table>")
    for name, (header, rows, total) in tables.items():
        parts.append(f"<h2>{e(words.name(name))}</h2><p>")
        parts.append(e(_fill(words.rows, words.number(total))))
        if total > len(rows):
            first = _fill(words.first_shown, words.number(len(rows)), f"{name}.csv")
            parts.append("; " + e(first))
        parts.append("</p><table><tr>")
        parts.extend(f"<th>{e(words.name(str(h)))}</th>" for h in header)
        parts.append("</tr>")
        for row in rows:
            cells = (words.cell(name, str(h), v) for h, v in zip(header, row, strict=False))
            parts.append("<tr>" + "".join(f"<td>{e(c)}</td>" for c in cells) + "</tr>")
        parts.append("</table>")
    parts.append("</body></html>\n")
    return "".join(parts).encode("utf-8")


def write_pack(
    path: Path,
    kind: str,
    tables: Mapping[str, Table],
    summary: Mapping[str, Any],
    key: Ed25519PrivateKey,
    words: ReportWords | None = None,
) -> dict[str, Any]:
    """Write a signed pack of ``tables`` (name: (header, rows)); returns its manifest.
    ``words``: the report's, in the reader's language (English by default)."""
    files: dict[str, bytes] = {}
    shown: dict[str, Any] = {}
    for name, (header, rows) in tables.items():
        data, first = _csv(header, rows)
        files[f"{name}.csv"] = data
        shown[name] = (header, first, data.count(b"\r\n") - 1)
    files[REPORT] = _report(kind, summary, shown, words or ReportWords())
    public = key.public_key()
    files[PUBLIC_KEY] = keys.public_pem(public)
    manifest = {
        "format": FORMAT,
        "kind": kind,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "program_version": __version__,
        "summary": dict(summary),
        "public_key": base64.b64encode(keys.public_raw(public)).decode("ascii"),
        "fingerprint": keys.fingerprint(public),
        "files": {
            name: {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
            for name, data in sorted(files.items())
        },
    }
    manifest_bytes = json.dumps(manifest, indent=1, sort_keys=True, ensure_ascii=False).encode()
    signature = base64.b64encode(key.sign(manifest_bytes))
    if path.is_dir():
        raise IsADirectoryError(errno.EISDIR, "is a folder", str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.partial")
    try:
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr(MANIFEST, manifest_bytes)
            zf.writestr(SIGNATURE, signature)
            for name, data in sorted(files.items()):
                zf.writestr(name, data)
        fsync_path(tmp)
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)
    return manifest


#: Bounds on what a pack may declare and expand to. A pack past them is refused before any
#: member is decompressed: a pack of this program holds a dozen files, its manifest a few KiB.
MAX_MEMBERS = 1_000
#: The central directory's size (bytes) as the end record declares it.
MAX_DIRECTORY = 1 << 20
#: Every member's declared size together, uncompressed (bytes).
MAX_TOTAL_SIZE = 4 << 30
#: A member larger than ``RATIO_FLOOR`` bytes may expand at most this many times (CSV and
#: HTML deflate 5 to 20 times; a run of zeros, a zip bomb's filling, about 1,000).
MAX_RATIO = 200
RATIO_FLOOR = 1 << 20
MAX_MANIFEST = 1 << 20
MAX_SIGNATURE = 1 << 10
MAX_PUBLIC_KEY = 1 << 12
#: Bytes decompressed and hashed at a time.
CHUNK = 1 << 16

_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)
_ENCRYPTED = 0x1
#: What reading a member can raise (a damaged, truncated or crafted zip).
_READ_ERRORS = (
    zipfile.BadZipFile,
    zlib.error,
    EOFError,
    OSError,
    RuntimeError,
    NotImplementedError,
    ValueError,
    struct.error,
)
_EOCD = struct.Struct("<4s4H2LH")
_LOCATOR = struct.Struct("<4sLQL")
_EOCD64 = struct.Struct("<4sQ2H2L4Q")

_LOOK_UP: Any = trusting.LOOK_UP


@dataclass
class PackVerification:
    """What checking a pack found.

    ``status``: ``intact`` (every file matches a manifest whose signature verifies, and the
    signer is trusted), ``untrusted`` (consistent, but signed by a key that is neither this
    installation's, a trusted one, nor the fingerprint given), ``changed`` (wins over
    untrusted) or ``not-a-pack``. ``trust``: ``pinned`` (the fingerprint given), ``own``,
    ``trusted`` (``signer_name`` says whose), ``untrusted``; empty when no key was read.
    ``problems`` are English lines, either one of the fixed sentences or ``WHAT: NAME`` with
    WHAT one of changed, removed, added, duplicated, damaged, encrypted, unknown compression,
    expands too much (a member), named twice in the manifest.
    """

    path: Path
    status: str = "intact"  # intact | untrusted | changed | not-a-pack
    problems: list[str] = field(default_factory=list)
    fingerprint: str = ""
    kind: str = ""
    trust: str = ""  # own | trusted | pinned | untrusted | "" (no key read)
    signer_name: str = ""

    @property
    def exit_status(self) -> int:
        """0 intact, 1 changed, 2 not a pack, 3 signed by an untrusted key."""
        return {"intact": 0, "changed": 1, "untrusted": 3}.get(self.status, 2)


class _NotAPack(Exception):
    """Checking stops: the file is not a pack this program can check (the message says why)."""


class _Unreadable(Exception):
    """A member that cannot be read as a pack's file; the message is the problem's WHAT."""


def verify_pack(
    path: Path,
    expected_fingerprint: str | None = None,
    *,
    trust: trusting.TrustStore | None = None,
    own: str | object | None = _LOOK_UP,
) -> PackVerification:
    """Check the signature over the manifest, every file's hash, and who signed it.

    ``expected_fingerprint`` pins one key for this check (another signer is a change).
    ``trust``: the trusted keys (default: this installation's file); ``own``: this
    installation's fingerprint (default: read from the keyring, never made; None: none).
    Members are hashed as streams, within the bounds above. Raises ``TrustError`` when
    ``expected_fingerprint`` is not a fingerprint or the trust file cannot be read.
    """
    pinned = trusting.normalize_fingerprint(expected_fingerprint) if expected_fingerprint else None
    result = PackVerification(Path(path))
    try:
        result.fingerprint, result.kind, problems = _examine(result.path)
    except _NotAPack as exc:
        result.status = "not-a-pack"
        result.problems.append(str(exc))
        return result
    result.problems.extend(problems)
    if result.fingerprint:
        if pinned is not None and pinned != result.fingerprint:
            result.problems.append("signed by another key than the fingerprint given")
        result.trust, result.signer_name = _trust_of(result.fingerprint, pinned, trust, own)
    if result.problems:
        result.status = "changed"
    elif result.trust == "untrusted":
        result.status = "untrusted"
    return result


def _trust_of(
    fingerprint: str, pinned: str | None, store: trusting.TrustStore | None, own: object
) -> tuple[str, str]:
    """(trust, signer name) of a pack's key: pinned, own, trusted, untrusted (in this order)."""
    return trusting.trust_of(fingerprint, pinned, store, own)


def _shown(name: str) -> str:
    """A member's name as it may be printed (a crafted name cannot move a terminal's cursor)."""
    return printable(name)


def _declared_directory(fh: IO[bytes]) -> tuple[int, int]:
    """(members, central directory bytes) as the zip's end records declare them, the larger of
    the plain and the ZIP64 record (``zipfile`` believes the ZIP64 one when there is one)."""
    fh.seek(0, os.SEEK_END)
    size = fh.tell()
    start = max(0, size - _EOCD.size - 0xFFFF)
    fh.seek(start)
    tail = fh.read()
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or len(tail) - at < _EOCD.size:
        raise zipfile.BadZipFile("no end of central directory")
    end = _EOCD.unpack_from(tail, at)
    members, directory = end[4], end[5]
    locator = at - _LOCATOR.size
    if locator >= 0 and tail[locator : locator + 4] == b"PK\x06\x07":
        fh.seek(_LOCATOR.unpack_from(tail, locator)[2])
        record = fh.read(_EOCD64.size)
        if len(record) == _EOCD64.size and record[:4] == b"PK\x06\x06":
            end64 = _EOCD64.unpack(record)
            members, directory = max(members, end64[7]), max(directory, end64[8])
    return members, directory


@contextlib.contextmanager
def _open(path: Path) -> Iterator[zipfile.ZipFile]:
    """The pack as a zip, its directory within bounds; ``_NotAPack`` otherwise."""
    try:
        fh = path.open("rb")
    except FileNotFoundError:
        raise _NotAPack("no such file") from None
    except OSError:
        raise _NotAPack("not a zip file") from None
    with fh:
        try:
            members, directory = _declared_directory(fh)
            if members > MAX_MEMBERS or directory > MAX_DIRECTORY:
                raise _NotAPack("too many files for a pack")
            zf = zipfile.ZipFile(fh)
        except (*_READ_ERRORS, UnicodeDecodeError):
            raise _NotAPack("not a zip file") from None
        with zf:
            yield zf


def _examine(path: Path) -> tuple[str, str, list[str]]:
    """(fingerprint, kind, problems) of a pack; the fingerprint is empty when the manifest is
    damaged or duplicated. ``_NotAPack`` when it is not a pack."""
    with _open(path) as zf:
        infos = zf.infolist()
        if len(infos) > MAX_MEMBERS:
            raise _NotAPack("too many files for a pack")
        if sum(i.file_size for i in infos) > MAX_TOTAL_SIZE:
            raise _NotAPack("larger than a pack may be")
        counts = Counter(i.filename for i in infos)
        member = {i.filename: i for i in infos}
        if not counts[MANIFEST] or not counts[SIGNATURE]:
            raise _NotAPack("no manifest or no signature")
        twice = [f"duplicated: {_shown(n)}" for n in sorted(counts) if counts[n] > 1]
        if counts[MANIFEST] > 1 or counts[SIGNATURE] > 1:
            return "", "", twice
        small: dict[str, bytes] = {}
        for name, limit, too_large in (
            (MANIFEST, MAX_MANIFEST, "the manifest is too large"),
            (SIGNATURE, MAX_SIGNATURE, "the signature cannot be read"),
        ):
            try:
                small[name] = _read_small(zf, member[name], limit, too_large)
            except _Unreadable as exc:
                return "", "", [f"{exc}: {name}"]
        manifest_bytes, signature_bytes = small[MANIFEST], small[SIGNATURE]
        manifest, public, listed = _manifest(manifest_bytes)
        try:
            signature = base64.b64decode(signature_bytes, validate=True)
        except ValueError:
            raise _NotAPack("the signature cannot be read") from None
        problems: list[str] = []
        try:
            public.verify(signature, manifest_bytes)
        except InvalidSignature:
            problems.append("the manifest's signature does not verify")
        for name, entry in sorted(listed.items()):
            shown = _shown(name)
            if not counts[name]:
                problems.append(f"removed: {shown}")
            elif counts[name] > 1:
                continue  # said once, below
            elif member[name].file_size != entry["size"]:
                problems.append(f"changed: {shown}")
            else:
                try:
                    digest = _digest(zf, member[name])
                except _Unreadable as exc:
                    problems.append(f"{exc}: {shown}")
                    continue
                if digest != entry["sha256"]:
                    problems.append(f"changed: {shown}")
                elif name == PUBLIC_KEY and _pem(zf, member[name]) != keys.public_pem(public):
                    problems.append("public_key.pem is not the manifest's key")
        problems.extend(twice)
        for name in sorted(set(counts) - set(listed) - {MANIFEST, SIGNATURE}):
            problems.append(f"added: {_shown(name)}")
        kind = manifest.get("kind")
        return keys.fingerprint(public), _shown(kind) if isinstance(kind, str) else "", problems


def _manifest(data: bytes) -> tuple[dict[str, Any], Ed25519PublicKey, dict[str, Any]]:
    """(manifest, its public key, its files) from the manifest's bytes; ``_NotAPack`` when they
    are not a manifest this program reads (a key named twice included)."""

    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for key, value in pairs:
            if key in seen:
                raise _NotAPack(f"named twice in the manifest: {_shown(key)}")
            seen[key] = value
        return seen

    try:
        manifest = json_input.loads(data, object_pairs_hook=unique)
    except (ValueError, RecursionError):
        raise _NotAPack("the manifest cannot be read") from None
    if not isinstance(manifest, dict) or type(manifest.get("format")) is not int:
        raise _NotAPack("the manifest cannot be read")
    if manifest["format"] > FORMAT:
        raise _NotAPack("made by a newer program")
    try:
        public = Ed25519PublicKey.from_public_bytes(
            base64.b64decode(manifest["public_key"], validate=True)
        )
    except (KeyError, TypeError, ValueError):
        raise _NotAPack("the manifest cannot be read") from None
    listed = manifest.get("files")
    if not isinstance(listed, dict) or len(listed) > MAX_MEMBERS:
        raise _NotAPack("the manifest cannot be read")
    for name, entry in listed.items():
        if (
            name in (MANIFEST, SIGNATURE)
            or not isinstance(entry, dict)
            or not isinstance(entry.get("sha256"), str)
            or type(entry.get("size")) is not int
            or entry["size"] < 0
        ):
            raise _NotAPack("the manifest cannot be read")
    return manifest, public, listed


def _usable(info: zipfile.ZipInfo) -> None:
    """Refuse, before reading it, a member no pack holds (``_Unreadable``: what is wrong)."""
    if info.flag_bits & _ENCRYPTED:
        raise _Unreadable("encrypted")
    if info.compress_type not in _METHODS:
        raise _Unreadable("unknown compression")
    if info.file_size > RATIO_FLOOR and info.file_size > MAX_RATIO * info.compress_size:
        raise _Unreadable("expands too much")


def _digest(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> str:
    """A member's SHA-256, read as a stream (``CHUNK`` bytes at a time)."""
    _usable(info)
    digest = hashlib.sha256()
    size = 0
    try:
        with zf.open(info) as fh:
            while chunk := fh.read(CHUNK):
                size += len(chunk)
                digest.update(chunk)
    except _READ_ERRORS:
        raise _Unreadable("damaged") from None
    if size != info.file_size:
        raise _Unreadable("damaged")
    return digest.hexdigest()


def _read_small(
    zf: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int, too_large: str = "damaged"
) -> bytes:
    """A small member whole (the manifest, the signature): ``_NotAPack(too_large)`` past
    ``limit`` bytes, ``_Unreadable`` when it cannot be read."""
    if info.file_size > limit:
        raise _NotAPack(too_large)
    _usable(info)
    try:
        with zf.open(info) as fh:
            data = fh.read(limit + 1)
    except _READ_ERRORS:
        raise _Unreadable("damaged") from None
    if len(data) != info.file_size:
        raise _Unreadable("damaged")
    return data


def _pem(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes | None:
    """public_key.pem's bytes (already hashed whole), or None when it is too large for one."""
    if info.file_size > MAX_PUBLIC_KEY:
        return None
    try:
        return _read_small(zf, info, MAX_PUBLIC_KEY)
    except (_Unreadable, _NotAPack):
        return None


#: A table name that can be a pack's file name (``NAME.csv``).
TABLE_NAME = re.compile(r"[A-Za-z0-9_]{1,64}")


def snapshot_tables(snapshot: Any) -> dict[str, Table]:
    """Every table of a snapshot (``snapshot.Snapshot``), for a pack. A table whose name cannot
    be a file's (``TABLE_NAME``) is refused: ``SnapshotError`` NOT_A_SNAPSHOT."""
    from .snapshot import SnapshotError

    tables: dict[str, Table] = {}
    conn = snapshot.connect()
    try:
        names = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'meta'"
                " ORDER BY name"
            )
        ]
        for name in names:
            if not isinstance(name, str) or not TABLE_NAME.fullmatch(name):
                raise SnapshotError(
                    "NOT_A_SNAPSHOT",
                    f"{snapshot.path}: holds a table named {name!r}, which no snapshot has",
                    snapshot.path,
                )
            quoted = '"' + name.replace('"', '""') + '"'
            cursor = conn.execute(f"SELECT * FROM {quoted} ORDER BY 1")  # noqa: S608
            header = [d[0] for d in cursor.description]
            tables[name] = (header, [tuple(row) for row in cursor])
    finally:
        conn.close()
    return tables


def snapshot_summary(snapshot: Any) -> dict[str, Any]:
    """What a snapshot is, for a pack's manifest and report."""
    meta = snapshot.meta
    return {
        "snapshot of": meta.get("server"),
        "profile": meta.get("profile"),
        "taken by": meta.get("account"),
        "started": meta.get("started"),
        "finished": meta.get("finished"),
        "program": meta.get("program_version"),
        **{f"{k} rows": v for k, v in sorted(meta.get("counts", {}).items())},
    }


def diff_tables(diff: Any) -> dict[str, Table]:
    """A snapshot diff's changes, for a pack: the codes, then the field, before and after as
    a person reads them (the snapshots' labels, else the code in words)."""
    return {"changes": diff.table()}


def diff_summary(diff: Any) -> dict[str, Any]:
    """What a diff compares, and its counts."""
    summary: dict[str, Any] = {
        "old snapshot": f"{diff.old.meta.get('server')} {diff.old.meta.get('finished')}",
        "new snapshot": f"{diff.new.meta.get('server')} {diff.new.meta.get('finished')}",
    }
    for (kind, change), n in sorted(diff.counts().items()):
        summary[f"{kind} {change}"] = n
    return summary


def journal_tables(
    records: Iterable[Mapping[str, Any]], checkpoints: Iterable[Mapping[str, Any]] = ()
) -> dict[str, Table]:
    """Journal records, for a pack (with their chain hashes), and the journal's signed
    checkpoints (every field, so that each signature can be checked again from the pack)."""
    from .checkpoints import COLUMNS as CHECKPOINT_COLUMNS
    from .journal import COLUMNS

    def cell(value: Any) -> Any:
        if isinstance(value, dict | list):
            return json.dumps(value, ensure_ascii=False, sort_keys=True) if value else ""
        return value

    rows = [[cell(r.get(c)) for c in (*COLUMNS, "prev")] for r in records]
    marks = [[cell(c.get(k)) for k in CHECKPOINT_COLUMNS] for c in checkpoints]
    return {
        "journal": ((*COLUMNS, "prev"), rows),
        "checkpoints": (CHECKPOINT_COLUMNS, marks),
    }
