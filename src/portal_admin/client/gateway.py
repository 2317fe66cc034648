"""Answers from a gateway or proxy instead of the server: an HTML error page, or any other
answer that is not an envelope, with HTTP 502, 503 or 504.

The client raises :class:`~portal_admin.client.errors.GatewayError` for them and the connection
doctor names them; both read the page the same way here. Reading is bounded (the first
:data:`MAX_SCAN` bytes, a title of at most :data:`MAX_TITLE` characters) and the title comes
back as plain text: entities decoded, control and format characters (a terminal's escape
sequences, bidirectional overrides) removed, whitespace collapsed.
"""

from __future__ import annotations

import html
import unicodedata

import httpx

from .errors import GatewayError

#: The statuses a gateway answers with when the server behind it fails or does not answer.
GATEWAY_STATUSES = frozenset({502, 503, 504})
#: The most of a body searched for the page's title.
MAX_SCAN = 64 * 1024
#: The most of a title read, in bytes after its opening tag.
_MAX_TITLE_BYTES = 4096
#: The longest title kept, in characters.
MAX_TITLE = 120

_HTML_STARTS = (b"<!doctype html", b"<html", b"<head", b"<body", b"<title")


def is_html(content_type: str, body: bytes) -> bool:
    """True when the answer says it is HTML, or its body starts as an HTML page does."""
    if "html" in content_type.lower():
        return True
    return body[:512].lstrip().lower().startswith(_HTML_STARTS)


def page_title(body: bytes) -> str:
    """The text of the page's first ``<title>`` (empty when it has none), made safe to show."""
    head = body[:MAX_SCAN].lower()  # ASCII case folding: byte offsets stay the same
    start = 0
    while True:
        at = head.find(b"<title", start)
        if at < 0:
            return ""
        after = head[at + 6 : at + 7]
        if after in (b">", b" ", b"\t", b"\n", b"\r", b"/"):
            break
        start = at + 6  # "<titlebar>": not a title
    opened = head.find(b">", at, at + _MAX_TITLE_BYTES)
    if opened < 0:
        return ""
    closed = head.find(b"</title", opened, opened + 1 + _MAX_TITLE_BYTES)
    if closed < 0:
        return ""
    return clean_text(body[opened + 1 : closed].decode("utf-8", "replace"))


def clean_text(text: str, limit: int = MAX_TITLE) -> str:
    """``text`` with entities decoded, control and format characters dropped, whitespace
    collapsed, and cut to ``limit`` characters."""
    text = html.unescape(text[: limit * 16])
    kept = "".join(
        " " if ch.isspace() else ch
        for ch in text
        if ch.isspace() or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn")
    )
    words = " ".join(kept.split())
    return words if len(words) <= limit else words[: limit - 1].rstrip() + "…"


def describe(status: int, title: str, *, html_page: bool) -> str:
    """What happened, in English, and what to do: the doctor's words and the client's."""
    what = "with an HTML error page " if html_page else ""
    named = f", '{title}'" if title else ""
    return (
        f"a gateway or proxy answered {what}(HTTP {status}{named}) instead of the server; "
        "the server behind it is down or unreachable from it: try again later, or tell the "
        "server's administrators"
    )


def gateway_error(
    response: httpx.Response, request_id: str | None, operation_id: str | None
) -> GatewayError | None:
    """The GatewayError for an answer that is not an envelope, when its status is 502, 503 or
    504 (None for any other status: that answer is malformed, not a gateway's)."""
    status = response.status_code
    if status not in GATEWAY_STATUSES:
        return None
    page = is_html(response.headers.get("content-type", ""), response.content)
    title = page_title(response.content) if page else ""
    return GatewayError(
        describe(status, title, html_page=page),
        title=title,
        html=page,
        http_status=status,
        request_id=request_id,
        operation_id=operation_id,
    )
