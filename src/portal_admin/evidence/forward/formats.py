"""The messages a journal item becomes: RFC 5424 syslog, ArcSight CEF, or JSON (ECS names).

An *item* is one journal record (a line of ``journal.jsonl``, with its ``prev`` and ``hash``)
or one signed checkpoint (a line of ``journal.checkpoints.jsonl``). Every message carries the
record's hash (a checkpoint's: the hash it names, and its signature), so a receiver can drop
a duplicate. Messages are single lines: no raw control character reaches the wire in any
format (RFC 5424 and CEF show them as ``\\uXXXX``; JSON escapes them), so hostile journal text
cannot split a message or add a field. The JSON format carries the item's own line, so a
journal and its checkpoints can be rebuilt from what a receiver stored (``rebuild``).
"""

from __future__ import annotations

import hashlib
import json
import re
import socket
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from portal_admin import __version__

FORMATS = ("rfc5424", "cef", "json")
#: RFC 5424 facility 13, "log audit".
FACILITY = 13
#: The structured-data id of our parameters (32473: the enterprise number RFC 5612 reserves
#: for documentation and examples; a site with its own number can map it at the receiver).
SD_ID = "portal-admin@32473"
APP_NAME = "portal-admin"
CEF_VENDOR = "SystemPortal"
CEF_PRODUCT = "portal-admin"
#: The longest RFC 5424 or CEF message we write (bytes): RFC 5425 receivers SHOULD accept
#: 8192 octets. Long values (targets, before, after, fields) are cut to fit, and say so; the
#: JSON format is never cut (it carries the journal's own line).
MAX_MESSAGE = 8192
#: Characters shown as ``\\uXXXX`` in RFC 5424 and CEF values: C0, DEL, C1, the Unicode line
#: and paragraph separators, and lone surrogates (which are not UTF-8).
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_TIME = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,6})?(Z|[+-][0-9]{2}:[0-9]{2})\Z"
)
_PRINTUSASCII = re.compile(r"[^\x21-\x7e]")

#: Severities (RFC 5424 numbers) of each kind of item and outcome.
_SEVERITY = {"ok": 5, "failed": 4, "unknown": 4, "intent": 6, "segment": 3, "checkpoint": 6}
_CEF_SEVERITY = {"ok": 3, "failed": 6, "unknown": 6, "intent": 2, "segment": 8, "checkpoint": 1}
_ECS_OUTCOME = {"ok": "success", "failed": "failure", "unknown": "unknown"}


@dataclass(frozen=True, slots=True)
class Item:
    """One journal record or checkpoint, as read (its line parsed)."""

    kind: str  # "record" | "checkpoint"
    line: Mapping[str, Any]

    @property
    def seq(self) -> int:
        seq = self.line.get("seq")
        return seq if isinstance(seq, int) and not isinstance(seq, bool) else -1

    @property
    def key(self) -> str:
        """What a receiver drops duplicates by: a record's hash, a checkpoint's signature."""
        if self.kind == "checkpoint":
            return str(self.line.get("signature", ""))
        return str(self.line.get("hash", ""))


def hostname() -> str:
    """This computer's name as RFC 5424's HOSTNAME allows it (``-`` when unusable)."""
    return printusascii(socket.gethostname(), 255)


def printusascii(text: str, limit: int) -> str:
    """``text`` as a header field: printable US-ASCII only (others become ``_``), at most
    ``limit`` characters; ``-`` (RFC 5424's nil value) when empty."""
    cleaned = _PRINTUSASCII.sub("_", text)[:limit]
    return cleaned or "-"


def _shown(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def visible(text: str) -> str:
    """``text`` with every control character (and line separator) shown as ``\\uXXXX``."""
    return _CONTROL.sub(_shown, text) if _CONTROL.search(text) else text


_ENCODER = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _text(value: Any) -> str:
    """A value as text: strings as they are, anything else as compact JSON."""
    if isinstance(value, str):
        return value
    if type(value) is int:
        return str(value)
    return _ENCODER.encode(value)


def _cut(text: str, limit: int | None) -> tuple[str, bool]:
    if limit is None or len(text) <= limit:
        return text, False
    return text[:limit] + "...", True


_CHECKPOINT_FIELDS = ("seq", "hash", "reason", "key", "public_key", "signature", "format")
_RECORD_FIELDS = (
    "seq", "hash", "prev", "segment", "kind", "operation", "outcome", "code", "account",
    "profile", "server", "request_id", "http_status", "intent_seq", "reason", "after_seq",
    "targets", "fields", "before", "after",
)  # fmt: skip


def _fields(item: Item) -> list[tuple[str, str]]:
    """The (name, text) pairs a message carries, in order; the long ones last."""
    line = item.line
    if item.kind == "checkpoint":
        found = [(n, line.get(n)) for n in _CHECKPOINT_FIELDS if n in line]
        return [("kind", "checkpoint"), *((n, _text(v)) for n, v in found)]
    pairs = []
    get = line.get
    for name in _RECORD_FIELDS:
        value = get(name)
        if value or (type(value) is int):  # None, "", [] and {} are left out; 0 is not
            pairs.append((name, value if type(value) is str else _text(value)))
    return pairs


#: Fields never cut to fit (a real one is short); longer than :data:`_SHORT`, a hostile one is.
_WHOLE = frozenset(
    {"seq", "hash", "prev", "kind", "segment", "intent_seq", "after_seq", "signature",
     "public_key", "key", "http_status", "format"}
)  # fmt: skip
_SHORT = 128


def _capped(name: str, text: str, cap: int | None) -> tuple[str, bool]:
    """A field's text, cut to ``cap`` (the fields in :data:`_WHOLE` to :data:`_SHORT`)."""
    return _cut(text, _SHORT if name in _WHOLE else cap)


def _severity(item: Item) -> str:
    if item.kind == "checkpoint":
        return "checkpoint"
    kind = str(item.line.get("kind", ""))
    if kind in ("intent", "segment"):
        return kind
    return str(item.line.get("outcome", "unknown"))


def summary(item: Item) -> str:
    """One line for people: what happened, in plain printable text."""
    line = item.line
    if item.kind == "checkpoint":
        return f"journal checkpoint at seq {item.seq}"
    kind = _text(line.get("kind", "change"))
    words = [kind, _text(line.get("operation", "")), _text(line.get("outcome", ""))]
    return visible(" ".join(w for w in words if w) + f" seq {item.seq}")[:200]


def _timestamp(item: Item) -> str:
    stamp = item.line.get("time")
    return stamp if isinstance(stamp, str) and _TIME.match(stamp) else "-"


# --- RFC 5424 ---------------------------------------------------------------------------------


_SD_SPECIAL = re.compile('["\\\\\\]\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]')


def sd_escape(text: str) -> str:
    """An SD-PARAM value escaped per RFC 5424 (``\\``, ``"``, ``]``), controls shown."""
    if not _SD_SPECIAL.search(text):
        return text
    return visible(text.replace("\\", "\\\\").replace('"', '\\"').replace("]", "\\]"))


def syslog_header(item: Item, host: str) -> str:
    """PRI, VERSION, TIMESTAMP, HOSTNAME, APP-NAME, PROCID and MSGID of an item's message."""
    pri = FACILITY * 8 + _SEVERITY.get(_severity(item), 5)
    msgid = "checkpoint" if item.kind == "checkpoint" else str(item.line.get("kind", "change"))
    return f"<{pri}>1 {_timestamp(item)} {host} {APP_NAME} - {printusascii(msgid, 32)}"


def rfc5424(item: Item, host: str, limit: int = MAX_MESSAGE) -> bytes:
    """An RFC 5424 message: the item's fields as structured data, a summary as MSG."""
    fields = _fields(item)

    def build(cap: int | None) -> tuple[bytes, list[str]]:
        cut: list[str] = []
        if cap is None:  # the common case, kept quick
            params = [f'{name}="{sd_escape(value)}"' for name, value in fields]
        else:
            params = []
            for name, value in fields:
                text, was_cut = _capped(name, value, cap)
                if was_cut:
                    cut.append(name)
                params.append(f'{name}="{sd_escape(text)}"')
        if cut:
            params.append(f'truncated="{",".join(cut)}"')
        element = f"[{SD_ID} {' '.join(params)}]"
        return f"{syslog_header(item, host)} {element} {summary(item)}".encode(), cut

    return _fitted(build, limit)


def _fitted(build: Callable[[int | None], tuple[bytes, list[str]]], limit: int) -> bytes:
    """The message ``build(cap)`` makes, with the long values cut until it fits ``limit``."""
    message, _ = build(None)
    cap = 2048
    while len(message) > limit and cap >= 16:
        message, _ = build(cap)
        cap //= 2
    return message


# --- CEF --------------------------------------------------------------------------------------


def cef_header_escape(text: str) -> str:
    """A CEF header field: ``\\`` and ``|`` escaped, control characters made spaces."""
    return _CONTROL.sub(" ", text.replace("\\", "\\\\").replace("|", "\\|"))


def cef_value_escape(text: str) -> str:
    """A CEF extension value: ``\\`` and ``=`` escaped, CR and LF as ``\\r`` and ``\\n``,
    other control characters shown as ``\\\\uXXXX`` (an escaped backslash, then uXXXX)."""
    escaped = text.replace("\\", "\\\\").replace("=", "\\=")
    escaped = escaped.replace("\r\n", "\\n").replace("\r", "\\r").replace("\n", "\\n")
    return _CONTROL.sub(lambda m: f"\\\\u{ord(m.group()):04x}", escaped)


#: Our fields' CEF extension keys: the CEF dictionary's where one fits, else the custom
#: strings and numbers with their labels (key, label or None).
_CEF_KEYS: dict[str, tuple[str, str | None]] = {
    "seq": ("cn1", "seq"),
    "segment": ("cn2", "segment"),
    "intent_seq": ("cn3", "intentSeq"),
    "hash": ("cs1", "hash"),
    "prev": ("cs2", "prev"),
    "targets": ("cs3", "targets"),
    "before": ("cs4", "before"),
    "after": ("cs5", "after"),
    "request_id": ("cs6", "requestId"),
    "account": ("suser", None),
    "operation": ("act", None),
    "outcome": ("outcome", None),
    "code": ("reason", None),
    "kind": ("cat", None),
    "server": ("flexString1", "server"),
    "profile": ("flexString2", "profile"),
    "http_status": ("cfp1", "httpStatus"),
}
#: A checkpoint's keys (it has no targets, before or after).
_CEF_CHECKPOINT_KEYS: dict[str, tuple[str, str | None]] = {
    "seq": ("cn1", "seq"),
    "hash": ("cs1", "hash"),
    "signature": ("cs2", "signature"),
    "key": ("cs3", "keyId"),
    "kind": ("cat", None),
}


def _epoch_ms(stamp: str) -> int | None:
    try:
        return int(datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp() * 1000)
    except ValueError:
        return None


def cef(item: Item, host: str, limit: int = MAX_MESSAGE) -> bytes:
    """A CEF:0 message: the operation as signature id, the fields as extension pairs, the
    summary as ``msg`` (naming the values cut to fit)."""
    line = item.line
    if item.kind == "checkpoint":
        signature_id, keys = "journal-checkpoint", _CEF_CHECKPOINT_KEYS
    else:
        signature_id, keys = _text(line.get("operation") or line.get("kind", "change")), _CEF_KEYS
    name = summary(item)
    fields = _fields(item)
    header = "|".join(
        cef_header_escape(part)
        for part in (
            "CEF:0",
            CEF_VENDOR,
            CEF_PRODUCT,
            __version__,
            signature_id[:100],
            name,
            str(_CEF_SEVERITY.get(_severity(item), 3)),
        )
    )

    def build(cap: int | None) -> tuple[bytes, list[str]]:
        pairs: list[tuple[str, str]] = []
        cut: list[str] = []
        stamp = _timestamp(item)
        if stamp != "-" and (ms := _epoch_ms(stamp)) is not None:
            pairs.append(("rt", str(ms)))
        pairs.append(("dvchost", host))
        for field, value in fields:
            if field not in keys:
                continue
            key, label = keys[field]
            text, was_cut = _capped(field, value, cap)
            if was_cut:
                cut.append(field)
            if label:
                pairs.append((f"{key}Label", label))
            pairs.append((key, text))
        pairs.append(("msg", name + (f" (cut to fit: {','.join(cut)})" if cut else "")))
        extension = " ".join(f"{k}={cef_value_escape(v)}" for k, v in pairs)
        return f"{header}|{extension}".encode(), cut

    return _fitted(build, limit)


# --- JSON (Elastic Common Schema names) --------------------------------------------------------


def ecs(item: Item, host: str) -> dict[str, Any]:
    """The item as one JSON object with Elastic Common Schema field names, its own line in
    ``portal_admin.line`` (what ``rebuild`` reads back)."""
    line = item.line
    event: dict[str, Any] = {
        "kind": "event",
        "dataset": "portal_admin.journal",
        "provider": APP_NAME,
        "sequence": item.seq,
    }
    doc: dict[str, Any] = {"@timestamp": line.get("time"), "message": summary(item)}
    if item.kind == "checkpoint":
        event.update(action="journal-checkpoint", category=["configuration"], type=["info"])
        event["hash"] = line.get("hash")
        event["id"] = hashlib.sha256(item.key.encode("utf-8", "surrogatepass")).hexdigest()
    else:
        kind = str(line.get("kind", "change"))
        event.update(category=["iam", "configuration"], type=["change"])
        event["action"] = line.get("operation") or kind
        if kind == "change" and line.get("outcome") in _ECS_OUTCOME:
            event["outcome"] = _ECS_OUTCOME[str(line["outcome"])]
        if line.get("code"):
            event["reason"] = line.get("code")
        event["hash"] = event["id"] = line.get("hash")
        if line.get("account"):
            doc["user"] = {"name": line.get("account")}
        if line.get("request_id"):
            doc["http"] = {"request": {"id": line.get("request_id")}}
        if line.get("http_status") is not None:
            doc.setdefault("http", {})["response"] = {"status_code": line.get("http_status")}
        if line.get("server"):
            doc["url"] = {"original": line.get("server")}
    doc["event"] = event
    doc["host"] = {"name": host}
    doc["portal_admin"] = {"item": item.kind, "line": dict(line)}
    return doc


def json_line(item: Item, host: str) -> bytes:
    """The ECS object as one line of UTF-8 JSON (ASCII escapes when the text is not UTF-8)."""
    doc = ecs(item, host)
    text = json.dumps(doc, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate from a hostile line: ASCII JSON keeps it
        return json.dumps(doc, sort_keys=True, separators=(",", ":")).encode("ascii")


def render(fmt: str, item: Item, host: str) -> bytes:
    """The message of ``item`` in format ``fmt`` (one line, no line end, no framing)."""
    if fmt == "rfc5424":
        return rfc5424(item, host)
    if fmt == "cef":
        return cef(item, host)
    if fmt == "json":
        return json_line(item, host)
    raise ValueError(f"unknown format {fmt!r}")


def as_syslog(fmt: str, item: Item, host: str, message: bytes) -> bytes:
    """A message made an RFC 5424 one for a syslog destination: CEF and JSON get a header
    with no structured data, the message as MSG."""
    if fmt == "rfc5424":
        return message
    return f"{syslog_header(item, host)} - ".encode() + message


#: HEC's sourcetype for each format.
SOURCETYPES = {"json": "_json", "cef": "cef", "rfc5424": "syslog"}


def hec_event(fmt: str, item: Item, host: str, message: bytes) -> bytes:
    """A message as one HTTP Event Collector event: the JSON format's object as the event,
    the others' text as a string event, with the record's time, host, source and
    sourcetype."""
    stamp = _timestamp(item)
    ms = _epoch_ms(stamp) if stamp != "-" else None
    head: dict[str, Any] = {"host": host, "source": APP_NAME, "sourcetype": SOURCETYPES[fmt]}
    if ms is not None:
        head["time"] = ms / 1000
    event = message if fmt == "json" else json.dumps(message.decode("utf-8")).encode()
    return json.dumps(head, sort_keys=True)[:-1].encode() + b',"event":' + event + b"}"


def message(envelope: str, fmt: str, item: Item, host: str) -> bytes:
    """What a destination of kind ``envelope`` (``syslog``, ``line`` or ``hec``) sends for
    ``item`` in format ``fmt``."""
    body = render(fmt, item, host)
    if envelope == "syslog":
        return as_syslog(fmt, item, host, body)
    if envelope == "hec":
        return hec_event(fmt, item, host, body)
    return body
