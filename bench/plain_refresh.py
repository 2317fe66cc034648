"""The token refresh without the Secure Channel, for the per-call overhead benchmark.

``auth.token_refresh`` is only served sealed. Its plain twin, added to a benchmark's own
sandbox app at ``PLAIN_PATH``, runs the very same handler (``routes.auth._refresh``) on the
plain JSON body and answers a plain envelope. The rate limit on refreshes (10 a minute) is
lifted on that app, since a benchmark refreshes hundreds of times.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse

from portal_admin.protocol.operations import OPERATIONS, Channel, Operation
from portal_admin.sandbox.deps import CtxDep
from portal_admin.sandbox.ratelimit import RateLimiter
from portal_admin.sandbox.routes.auth import _refresh

REFRESH = OPERATIONS["auth.token_refresh"]
PLAIN_PATH = REFRESH.path + "-plain"
#: The same operation, sent plain to the twin route.
PLAIN_REFRESH: Operation = dataclasses.replace(REFRESH, path=PLAIN_PATH, channel=Channel.NONE)


class NoLimit(RateLimiter):
    """A rate limiter that never limits."""

    def count(self, key: str, window: float, now: float) -> int:
        return 0

    def hit(self, key: str, now: float) -> None:
        return None

    def allow(self, key: str, limit: int, window: float, now: float) -> bool:
        return True


async def plain_refresh(request: Request, ctx: CtxDep) -> JSONResponse:
    """The refresh handler on a plain body (decoded here as the sealed route decodes its
    plaintext; the handler validates it with the protocol's model)."""
    return ctx.ok(_refresh(ctx, json.loads(await request.body())))


def add_plain_refresh(app: Any) -> Any:
    """Add the plain twin route to a sandbox app and lift its refresh rate limit."""
    app.add_api_route(PLAIN_PATH, plain_refresh, methods=["POST"])
    app.state.sandbox.limiter = NoLimit()
    return app
