"""Evidence packs: a snapshot, a diff or a journal range as one signed zip, and its check.

A pack holds the data as CSV files, ``report.html`` (self-contained: opens in any browser),
``manifest.json`` (every file's SHA-256 and size, what the pack is, the installation key's
public half and fingerprint), ``manifest.sig`` (Ed25519 over the manifest's exact bytes,
base64) and ``public_key.pem``. :func:`verify_pack` checks the signature and every hash, and
says what was changed, added or removed.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import html
import io
import json
import os
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from portal_admin import __version__
from portal_admin.files.atomic import fsync_dir
from portal_admin.files.csv_rules import cell_text

from . import keys

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


def _csv(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> tuple[bytes, list[list[str]]]:
    """CSV bytes with the program's rules, and the first rows for the report."""
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
    writer.writerow([cell_text(h) for h in header])
    shown: list[list[str]] = []
    for row in rows:
        cells = [cell_text(v) for v in row]
        writer.writerow(cells)
        if len(shown) < REPORT_ROWS:
            shown.append(cells)
    return b"\xef\xbb\xbf" + out.getvalue().encode("utf-8"), shown


def _report(title: str, summary: Mapping[str, Any], tables: Mapping[str, Any]) -> bytes:
    """A self-contained HTML report (no scripts, no external resources)."""
    e = html.escape
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{e(title)}</title><style>body{{font-family:sans-serif;margin:2em}}"
        "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #999;"
        "padding:2px 6px;font-size:90%}th{background:#eee}</style></head><body>",
        f"<h1>{e(title)}</h1><table>",
    ]
    for key, value in summary.items():
        parts.append(f"<tr><th>{e(str(key))}</th><td>{e(str(value))}</td></tr>")
    parts.append("</table>")
    for name, (header, rows, total) in tables.items():
        parts.append(f"<h2>{e(name)}</h2><p>{total} rows")
        if total > len(rows):
            parts.append(f"; the first {len(rows)} shown, all in {e(name)}.csv")
        parts.append("</p><table><tr>")
        parts.extend(f"<th>{e(str(h))}</th>" for h in header)
        parts.append("</tr>")
        for row in rows:
            parts.append("<tr>" + "".join(f"<td>{e(c)}</td>" for c in row) + "</tr>")
        parts.append("</table>")
    parts.append("</body></html>\n")
    return "".join(parts).encode("utf-8")


def write_pack(
    path: Path,
    kind: str,
    tables: Mapping[str, Table],
    summary: Mapping[str, Any],
    key: Ed25519PrivateKey,
) -> dict[str, Any]:
    """Write a signed pack of ``tables`` (name: (header, rows)); returns its manifest."""
    files: dict[str, bytes] = {}
    shown: dict[str, Any] = {}
    for name, (header, rows) in tables.items():
        data, first = _csv(header, rows)
        files[f"{name}.csv"] = data
        shown[name] = (header, first, data.count(b"\r\n") - 1)
    files[REPORT] = _report(f"Evidence pack: {kind}", summary, shown)
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
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.partial")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(MANIFEST, manifest_bytes)
        zf.writestr(SIGNATURE, signature)
        for name, data in sorted(files.items()):
            zf.writestr(name, data)
    with tmp.open("rb") as fh:
        os.fsync(fh.fileno())
    tmp.replace(path)
    fsync_dir(path.parent)
    return manifest


@dataclass
class PackVerification:
    """What checking a pack found."""

    path: Path
    status: str = "intact"  # intact | changed | not-a-pack
    problems: list[str] = field(default_factory=list)
    fingerprint: str = ""
    kind: str = ""

    @property
    def exit_status(self) -> int:
        """0 intact, 1 changed, 2 not a pack."""
        return {"intact": 0, "changed": 1}.get(self.status, 2)


def verify_pack(path: Path, expected_fingerprint: str | None = None) -> PackVerification:
    """Check the signature over the manifest and every file's hash."""
    result = PackVerification(path)

    def not_a_pack(why: str) -> PackVerification:
        result.status = "not-a-pack"
        result.problems.append(why)
        return result

    try:
        zf = zipfile.ZipFile(path)
    except (OSError, zipfile.BadZipFile):
        return not_a_pack("not a zip file")
    with zf:
        names = set(zf.namelist())
        if MANIFEST not in names or SIGNATURE not in names:
            return not_a_pack("no manifest or no signature")
        manifest_bytes = zf.read(MANIFEST)
        try:
            manifest = json.loads(manifest_bytes)
            public = Ed25519PublicKey.from_public_bytes(base64.b64decode(manifest["public_key"]))
            listed: dict[str, Any] = dict(manifest["files"])
            signature = base64.b64decode(zf.read(SIGNATURE), validate=True)
        except (ValueError, KeyError, TypeError):
            return not_a_pack("the manifest cannot be read")
        result.kind = str(manifest.get("kind", ""))
        result.fingerprint = keys.fingerprint(public)
        try:
            public.verify(signature, manifest_bytes)
        except InvalidSignature:
            result.problems.append("the manifest's signature does not verify")
        if expected_fingerprint and _plain(expected_fingerprint) != _plain(result.fingerprint):
            result.problems.append("signed by another key than the fingerprint given")
        for name, entry in sorted(listed.items()):
            if name not in names:
                result.problems.append(f"removed: {name}")
                continue
            data = zf.read(name)
            if hashlib.sha256(data).hexdigest() != entry.get("sha256"):
                result.problems.append(f"changed: {name}")
        for name in sorted(names - set(listed) - {MANIFEST, SIGNATURE}):
            result.problems.append(f"added: {name}")
        pem = zf.read(PUBLIC_KEY) if PUBLIC_KEY in names else None
        if pem is not None and PUBLIC_KEY in listed and pem != keys.public_pem(public):
            result.problems.append("public_key.pem is not the manifest's key")
    if result.problems:
        result.status = "changed"
    return result


def _plain(text: str) -> str:
    return "".join(text.split()).lower()


def snapshot_tables(snapshot: Any) -> dict[str, Table]:
    """Every table of a snapshot (``snapshot.Snapshot``), for a pack."""
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
            cursor = conn.execute(f"SELECT * FROM {name} ORDER BY 1")  # noqa: S608
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
    """A snapshot diff's changes, for a pack."""
    from .diff import HEADER

    rows = [(c.kind, c.change, c.id, c.label, c.field, c.before, c.after) for c in diff.changes]
    return {"changes": (HEADER, rows)}


def diff_summary(diff: Any) -> dict[str, Any]:
    """What a diff compares, and its counts."""
    summary: dict[str, Any] = {
        "old snapshot": f"{diff.old.meta.get('server')} {diff.old.meta.get('finished')}",
        "new snapshot": f"{diff.new.meta.get('server')} {diff.new.meta.get('finished')}",
    }
    for (kind, change), n in sorted(diff.counts().items()):
        summary[f"{kind} {change}"] = n
    return summary


def journal_tables(records: Iterable[Mapping[str, Any]]) -> dict[str, Table]:
    """Journal records, for a pack (with their chain hashes)."""
    from .journal import COLUMNS

    def cell(value: Any) -> Any:
        if isinstance(value, dict | list):
            return json.dumps(value, ensure_ascii=False, sort_keys=True) if value else ""
        return value

    rows = [[cell(r.get(c)) for c in (*COLUMNS, "prev")] for r in records]
    return {"journal": ((*COLUMNS, "prev"), rows)}
