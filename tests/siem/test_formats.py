"""The three formats against their published rules, with hostile journal values.

RFC 5424 messages are parsed back with the RFC's grammar (HEADER, one SD-ELEMENT whose
PARAM-VALUEs escape ``"``, ``\\`` and ``]``); CEF messages with ArcSight's rules (seven
header fields split on unescaped pipes, ``\\|`` and ``\\\\`` in the header; extension pairs
split on unescaped ``=``, with ``\\=``, ``\\\\``, ``\\n``, ``\\r``). A hostile value must come
back as itself (control characters shown), never add a field, never split a message.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from portal_admin.evidence.forward import formats
from portal_admin.evidence.forward.formats import Item, visible

from .receivers import HOSTILE

HOST = "host-1"


def _record(value: str, seq: int = 7) -> Item:
    return Item(
        "record",
        {
            "seq": seq,
            "hash": "a" * 64,
            "prev": "b" * 64,
            "segment": 0,
            "kind": "change",
            "format": 1,
            "time": "2026-11-28T01:02:03.456+00:00",
            "operation": "accounts.status",
            "outcome": "failed",
            "code": "BIZ_ERR",
            "account": value,
            "targets": [value, "U2"],
            "before": {"remark": "old"},
            "after": {"remark": value},
            "request_id": value,
        },
    )


# --- RFC 5424 ---------------------------------------------------------------------------------

_HEADER = re.compile(
    r"<(\d{1,3})>1 (\S+) ([\x21-\x7e]{1,255}) ([\x21-\x7e]{1,48}) ([\x21-\x7e]{1,128})"
    r" ([\x21-\x7e]{1,32}) "
)


def parse_5424(message: bytes) -> tuple[dict[str, str], list[tuple[str, dict[str, str]]], str]:
    """(header, [(sd-id, params)], msg) by RFC 5424's ABNF; raises on anything else."""
    text = message.decode("utf-8")
    head = _HEADER.match(text)
    assert head, text[:120]
    header = dict(zip(("pri", "time", "host", "app", "proc", "msgid"), head.groups(), strict=True))
    rest = text[head.end() :]
    elements: list[tuple[str, dict[str, str]]] = []
    if rest.startswith("-"):
        return header, elements, rest[2:]
    i = 0
    while i < len(rest) and rest[i] == "[":
        end_id = i + 1
        while rest[end_id] not in " ]":
            end_id += 1
        sd_id = rest[i + 1 : end_id]
        params: dict[str, str] = {}
        i = end_id
        while rest[i] == " ":
            eq = rest.index("=", i)
            name = rest[i + 1 : eq]
            assert re.fullmatch(r'[^= \]"]{1,32}', name), name
            assert rest[eq + 1] == '"'
            j, value = eq + 2, []
            while rest[j] != '"':
                if rest[j] == "\\" and rest[j + 1] in '"\\]':
                    value.append(rest[j + 1])
                    j += 2
                else:
                    assert rest[j] != "]", "an unescaped ] inside a PARAM-VALUE"
                    value.append(rest[j])
                    j += 1
            assert name not in params, f"{name} twice"
            params[name] = "".join(value)
            i = j + 1
        assert rest[i] == "]"
        elements.append((sd_id, params))
        i += 1
    assert rest[i] == " "
    return header, elements, rest[i + 1 :]


@pytest.mark.parametrize("value", HOSTILE)
def test_rfc5424_values_come_back_escaped_and_alone(value: str) -> None:
    message = formats.rfc5424(_record(value), HOST)
    assert b"\n" not in message and b"\r" not in message
    assert len(message) <= formats.MAX_MESSAGE
    header, elements, msg = parse_5424(message)
    assert header["pri"] == str(13 * 8 + 4)  # log audit, warning (failed)
    assert header["msgid"] == "change" and header["app"] == "portal-admin"
    assert len(elements) == 1
    sd_id, params = elements[0]
    assert sd_id == formats.SD_ID
    assert params["seq"] == "7" and params["hash"] == "a" * 64 and params["prev"] == "b" * 64
    assert params["operation"] == "accounts.status" and params["outcome"] == "failed"
    if "truncated" in params:
        assert len(value) > 1000
        assert visible(value).startswith(params["account"][:-3])
    else:
        assert params["account"] == visible(value)
        assert params["request_id"] == visible(value)
        assert params["after"] == visible(
            json.dumps({"remark": value}, ensure_ascii=False, separators=(",", ":"))
        )
    assert "seq 7" in msg and "\n" not in msg


def test_rfc5424_escapes_exactly_the_three_characters() -> None:
    assert formats.sd_escape('a"b\\c]d') == 'a\\"b\\\\c\\]d'
    assert formats.sd_escape("x\ny\x1b") == "x\\u000ay\\u001b"


def test_a_long_record_is_cut_to_the_receivers_limit_and_says_so() -> None:
    message = formats.rfc5424(_record("x" * 50_000), HOST)
    assert len(message) <= formats.MAX_MESSAGE
    _, elements, _ = parse_5424(message)
    params = elements[0][1]
    assert set(params["truncated"].split(",")) >= {"account", "targets", "after"}
    assert params["hash"] == "a" * 64  # never cut


def test_a_hostile_hash_or_operation_cannot_make_a_message_endless() -> None:
    item = _record("v")
    line = {**item.line, "hash": "h" * 100_000, "operation": "o" * 100_000}
    message = formats.rfc5424(Item("record", line), HOST)
    assert len(message) <= formats.MAX_MESSAGE
    parse_5424(message)
    assert len(formats.cef(Item("record", line), HOST)) <= formats.MAX_MESSAGE


def test_a_bad_time_becomes_the_nil_value() -> None:
    line = {**_record("v").line, "time": "2026-11-28 01:02 injected host app"}
    header, _, _ = parse_5424(formats.rfc5424(Item("record", line), HOST))
    assert header["time"] == "-"


def test_cef_and_json_over_syslog_get_an_rfc5424_header() -> None:
    item = _record("v")
    for fmt in ("cef", "json"):
        wrapped = formats.message("syslog", fmt, item, HOST)
        header, elements, msg = parse_5424(wrapped)
        assert elements == [] and header["host"] == HOST
        assert msg.encode() == formats.render(fmt, item, HOST)


# --- CEF --------------------------------------------------------------------------------------


def parse_cef(message: bytes) -> tuple[list[str], dict[str, str]]:
    """(the seven header fields, the extension) by ArcSight's CEF rules."""
    text = message.decode("utf-8")
    assert "\n" not in text and "\r" not in text
    fields, current, i = [], [], 0
    while len(fields) < 7:
        ch = text[i]
        if ch == "\\":
            assert text[i + 1] in "\\|", f"bad header escape {text[i : i + 2]!r}"
            current.append(text[i + 1])
            i += 2
        elif ch == "|":
            fields.append("".join(current))
            current = []
            i += 1
        else:
            current.append(ch)
            i += 1
    extension = text[i:]
    pairs: dict[str, str] = {}
    # A key starts the extension or follows a space, and ends at an unescaped "=".
    starts = [m for m in re.finditer(r"(?:^| )([A-Za-z0-9_]+)=", extension)]
    real = [m for m in starts if _unescaped(extension, m.end() - 1)]
    for n, match in enumerate(real):
        end = real[n + 1].start() if n + 1 < len(real) else len(extension)
        raw = extension[match.end() : end]
        assert match.group(1) not in pairs, f"{match.group(1)} twice"
        pairs[match.group(1)] = _cef_unescape(raw)
    return fields, pairs


def _unescaped(text: str, at: int) -> bool:
    backslashes = 0
    while at - 1 - backslashes >= 0 and text[at - 1 - backslashes] == "\\":
        backslashes += 1
    return backslashes % 2 == 0


def _cef_unescape(raw: str) -> str:
    out, i = [], 0
    while i < len(raw):
        if raw[i] == "\\":
            nxt = raw[i + 1]
            assert nxt in "\\=nr", f"bad extension escape {raw[i : i + 2]!r}"
            out.append({"n": "\n", "r": "\r"}.get(nxt, nxt))
            i += 2
        else:
            assert raw[i] != "=", "an unescaped = inside a value"
            out.append(raw[i])
            i += 1
    return "".join(out)


def _cef_visible(value: str) -> str:
    """What CEF keeps of a value: CR and LF, other controls shown as \\uXXXX."""
    value = value.replace("\r\n", "\n")
    return re.sub(
        "[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029]",
        lambda m: f"\\u{ord(m.group()):04x}",
        value,
    )


@pytest.mark.parametrize("value", HOSTILE)
def test_cef_values_come_back_escaped_and_alone(value: str) -> None:
    item = _record(value)
    message = formats.cef(item, HOST)
    assert len(message) <= formats.MAX_MESSAGE
    header, ext = parse_cef(message)
    assert header[:4] == ["CEF:0", "SystemPortal", "portal-admin", header[3]]
    assert header[4] == "accounts.status" and header[6] == "6"
    assert ext["cs1Label"] == "hash" and ext["cs1"] == "a" * 64
    assert ext["cn1"] == "7" and ext["act"] == "accounts.status" and ext["outcome"] == "failed"
    expected_keys = {
        "rt", "dvchost", "cn1Label", "cn1", "cn2Label", "cn2", "cs1Label", "cs1", "cs2Label",
        "cs2", "cs3Label", "cs3", "cs4Label", "cs4", "cs5Label", "cs5", "cs6Label", "cs6",
        "suser", "act", "outcome", "reason", "cat", "msg",
    }  # fmt: skip
    assert set(ext) == expected_keys  # nothing injected
    if "cut to fit" not in ext["msg"]:
        assert ext["suser"] == _cef_visible(value)
        assert ext["cs6"] == _cef_visible(value)
    assert ext["rt"] == "1795827723456"


def test_cef_header_escaping() -> None:
    assert formats.cef_header_escape("a|b\\c") == "a\\|b\\\\c"
    assert formats.cef_header_escape("x\ny") == "x y"
    line = {**_record("v").line, "operation": "op|eration\\x\nnext"}
    header, ext = parse_cef(formats.cef(Item("record", line), HOST))
    assert header[4] == "op|eration\\x next"
    assert ext["act"] == "op|eration\\x\nnext"


def test_cef_extension_escaping() -> None:
    assert formats.cef_value_escape("a=b\\c\nd\re|f") == "a\\=b\\\\c\\nd\\re|f"


# --- JSON -------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", HOSTILE)
def test_json_is_one_line_with_ecs_names_and_the_line_itself(value: str) -> None:
    item = _record(value)
    message = formats.json_line(item, HOST)
    assert b"\n" not in message and b"\r" not in message
    doc: dict[str, Any] = json.loads(message)
    assert doc["@timestamp"] == "2026-11-28T01:02:03.456+00:00"
    assert doc["event"]["action"] == "accounts.status"
    assert doc["event"]["outcome"] == "failure"
    assert doc["event"]["sequence"] == 7
    assert doc["event"]["hash"] == doc["event"]["id"] == "a" * 64
    assert doc["user"]["name"] == value
    assert doc["http"]["request"]["id"] == value
    assert doc["portal_admin"]["line"] == dict(item.line)


def test_json_of_a_lone_surrogate_stays_json() -> None:
    item = _record("bad \ud800 text")
    message = formats.json_line(item, HOST)
    message.decode("ascii")
    assert json.loads(message)["user"]["name"] == "bad \ud800 text"
    parse_5424(formats.rfc5424(item, HOST))
    parse_cef(formats.cef(item, HOST))


def test_checkpoints_carry_what_verification_needs() -> None:
    line = {
        "kind": "checkpoint", "format": 1, "time": "2026-11-28T01:02:03.456+00:00",
        "seq": 100, "hash": "c" * 64, "reason": "every 100", "key": "abcd ef01",
        "public_key": "QUJD", "signature": "c2lnbmF0dXJl",
    }  # fmt: skip
    item = Item("checkpoint", line)
    header, elements, _ = parse_5424(formats.rfc5424(item, HOST))
    assert header["msgid"] == "checkpoint"
    params = elements[0][1]
    assert params["signature"] == "c2lnbmF0dXJl" and params["hash"] == "c" * 64
    assert params["public_key"] == "QUJD" and params["seq"] == "100"
    _, ext = parse_cef(formats.cef(item, HOST))
    assert ext["cs2"] == "c2lnbmF0dXJl" and ext["cs1"] == "c" * 64
    doc = json.loads(formats.json_line(item, HOST))
    assert doc["portal_admin"] == {"item": "checkpoint", "line": line}


def test_hec_events_are_json_with_the_records_time() -> None:
    item = _record("v")
    for fmt in formats.FORMATS:
        event = json.loads(formats.message("hec", fmt, item, HOST))
        assert event["time"] == pytest.approx(1795827723.456)
        assert event["host"] == HOST and event["sourcetype"] == formats.SOURCETYPES[fmt]
        if fmt == "json":
            assert event["event"]["event"]["hash"] == "a" * 64
        else:
            assert "a" * 64 in event["event"]
