"""Calling one operation: read-only guard, bearer token, Secure Channel, retries of reads."""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Mapping
from contextvars import ContextVar
from typing import Any

import stamina

from portal_admin.protocol.errors import Code
from portal_admin.protocol.operations import OPERATIONS, Auth, Channel, Operation

from . import changes
from .channel import SecureChannel
from .errors import (
    APIConnectionError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    CertificatePinError,
    MalformedResponseError,
    ProxyError,
    ServerError,
)
from .events import ChangeFinished, ChangeStarted
from .options import RetryPolicy
from .tokens import TokenManager
from .transport import LAST_ANSWER, LAST_SENT, Transport, url_path

log = logging.getLogger("portal_admin.client.invoker")

RETRY_STATUSES = frozenset({502, 503, 504})

#: The ``change_id`` of the ``ChangeStarted`` published for the mutating call under way.
_STARTED: ContextVar[str | None] = ContextVar("change_started", default=None)

#: Reads that are never retried automatically: sign-in steps consume or create server state.
_NEVER_RETRIED = frozenset(
    {
        "auth.login_initiate",
        "auth.mfa_send",
        "auth.login_complete",
        "auth.logout",
        "auth.token_refresh",
        "notifications.validate_imap",
        "notifications.validate_smtp",
    }
)

#: Operations retried with backoff on connection errors and 502/503/504.
RETRIED: frozenset[str] = frozenset(
    op.id
    for op in OPERATIONS.values()
    if op.id == "secure_channel.public_key"
    or (not op.mutating and op.channel is Channel.NONE and op.id not in _NEVER_RETRIED)
)


def should_retry(exc: Exception, operation_id: str | None = None) -> bool:
    """Connection failures and gateway errors (502, 503, 504) of the operation itself.

    A failure of another exchange made on its behalf (a token refresh) is never retried.
    """
    if operation_id is not None and getattr(exc, "operation_id", None) != operation_id:
        return False
    if isinstance(exc, CertificatePinError) or (
        isinstance(exc, ProxyError) and exc.code == ProxyError.AUTH_CODE
    ):
        return False  # the same answer again: retrying only delays the message
    if isinstance(exc, APIConnectionError):
        return True
    return (
        isinstance(exc, ServerError | MalformedResponseError) and exc.http_status in RETRY_STATUSES
    )


class Invoker:
    """Sends operations for the areas."""

    def __init__(
        self,
        transport: Transport,
        channel: SecureChannel,
        tokens: TokenManager,
        retry: RetryPolicy,
    ) -> None:
        self.transport = transport
        self.channel = channel
        self.tokens = tokens
        self.retry = retry

    async def call(
        self,
        operation_id: str,
        *,
        json: Any = None,
        params: Any = None,
        path_params: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Any:
        """Call the operation and return ``data``; raises a PortalError subclass.

        The whole call (token refresh, Secure Channel set-up, retries) ends within the
        options' ``timeout``: past it, ``APITimeoutError``.
        """
        op = OPERATIONS[operation_id]
        self.transport.guard(op)  # before anything, not even a token refresh, is sent
        url_path(op, path_params)  # an id that is not one: InvalidIdError, nothing sent
        if not op.mutating:
            return await self._bounded(op, json, params, path_params, headers)
        LAST_SENT.set(None)
        _STARTED.set(None)
        try:
            data = await self._bounded(op, json, params, path_params, headers)
        except BaseException as exc:
            self._change_finished(op, json, path_params, params, exc)
            raise
        self._change_finished(op, json, path_params, params, None, data)
        return data

    async def _bounded(
        self,
        op: Operation,
        json: Any,
        params: Any,
        path_params: Mapping[str, str] | None,
        headers: Mapping[str, str] | None,
    ) -> Any:
        try:
            async with asyncio.timeout(self.transport.options.timeout):
                return await self._attempts(op, json, params, path_params, headers)
        except TimeoutError:
            raise APITimeoutError(
                f"no answer within {self.transport.options.timeout:g} s",
                code="CLIENT.TIMEOUT",
                request_id=self.transport.last_request_id,
                operation_id=op.id,
            ) from None

    def _change_finished(
        self,
        op: Operation,
        body: Any,
        path_params: Mapping[str, str] | None,
        params: Any,
        exc: BaseException | None,
        data: Any = None,
    ) -> None:
        """Publish what a mutating call changed, once it was sent (nothing secret in it)."""
        sent = LAST_SENT.get()
        started = _STARTED.get()
        if sent is None or sent[0] != op.id:
            if started is None:
                return  # refused before anything left (read-only, a failed refresh): no change
            sent = None  # announced, then it never left (the Secure Channel did not open)
        answer = LAST_ANSWER.get() if sent is not None else None
        answered = sent is not None and answer is not None and answer[0] == sent[1]
        if sent is None:
            outcome = "failed"
        elif exc is None:
            outcome = "ok"
        elif isinstance(exc, APIStatusError) and exc.http_status is not None and answered:
            outcome = "unknown" if exc.http_status >= 500 else "failed"
        else:
            outcome = "unknown"
        targets, fields = changes.summarize(body, path_params, params)
        targets += changes.created(data, targets)
        before, after = changes.described()
        self.transport.events.publish(
            ChangeFinished(
                operation_id=op.id,
                targets=targets,
                fields=fields,
                before=dict(before),
                after=dict(after),
                outcome=outcome,
                code=getattr(exc, "code", None) if exc is not None else None,
                request_id=sent[1] if sent is not None else None,
                http_status=answer[1] if answer is not None and answered else None,
                server_time_ms=answer[2] if answer is not None and answered else None,
                account=self.tokens.email,
                change_id=started,
            )
        )

    async def _change_started(
        self, op: Operation, body: Any, path_params: Mapping[str, str] | None, params: Any
    ) -> None:
        """Publish what a mutating call is about to change, once per call, just before its
        request leaves, and wait for what subscribers hold it for (the journal's intent on
        disk)."""
        if _STARTED.get() is not None:
            return  # sent again after a token refresh: the same change
        change_id = uuid.uuid4().hex
        _STARTED.set(change_id)
        targets, fields = changes.summarize(body, path_params, params)
        before, after = changes.described()
        event = ChangeStarted(
            change_id=change_id,
            operation_id=op.id,
            targets=targets,
            fields=fields,
            before=dict(before),
            after=dict(after),
            account=self.tokens.email,
        )
        self.transport.events.publish(event)
        if event.hold:  # a failed subscriber must not stop the change: it logs its own
            await asyncio.gather(*event.hold, return_exceptions=True)

    async def _attempts(
        self,
        op: Operation,
        json: Any,
        params: Any,
        path_params: Mapping[str, str] | None,
        headers: Mapping[str, str] | None,
    ) -> Any:
        if op.id not in RETRIED:
            return await self._authed(op, json, params, path_params, headers)
        # The first attempt runs outside stamina: setting up its retry context costs a third of
        # a small read (docs/performance.md). A retryable failure enters it; the first retry
        # then follows at once and later ones back off with jitter.
        policy = self.retry
        try:
            return await self._authed(op, json, params, path_params, headers)
        except Exception as exc:
            if policy.attempts <= 1 or not should_retry(exc, op.id):
                raise
            log.info("%s: %s, retrying", op.id, type(exc).__name__)
        async for attempt in stamina.retry_context(
            on=lambda exc: should_retry(exc, op.id),
            attempts=policy.attempts - 1,
            timeout=policy.timeout,
            wait_initial=policy.wait_initial,
            wait_max=policy.wait_max,
            wait_jitter=policy.wait_jitter,
        ):
            with attempt:
                return await self._authed(op, json, params, path_params, headers)
        raise AssertionError("unreachable")  # pragma: no cover

    async def _authed(
        self,
        op: Operation,
        json: Any,
        params: Any,
        path_params: Mapping[str, str] | None,
        headers: Mapping[str, str] | None,
    ) -> Any:
        token: str | None = None
        if op.auth is Auth.BEARER:
            token = await self.tokens.bearer()
        elif op.auth is Auth.OPTIONAL:
            token = self.tokens.access_token
        try:
            return await self._once(op, token, json, params, path_params, headers)
        except AuthenticationError as exc:
            if token is None or op.auth is Auth.PUBLIC or exc.code != Code.TOKEN_INVALID:
                raise
            log.info("%s: access token refused (4010), refreshing", op.id)
            await self.tokens.refresh(stale=token)
            token = await self.tokens.bearer()
            return await self._once(op, token, json, params, path_params, headers)

    async def _once(
        self,
        op: Operation,
        token: str | None,
        json: Any,
        params: Any,
        path_params: Mapping[str, str] | None,
        headers: Mapping[str, str] | None,
    ) -> Any:
        if op.mutating:
            await self._change_started(op, json, path_params, params)
        if op.channel is Channel.ENCRYPTED:
            return await self.channel.call(
                op, json if json is not None else {}, token=token, params=params
            )
        if op.channel is Channel.HEADERS:
            return await self.channel.call_with_headers(op, json, headers=headers, token=token)
        return await self.transport.call(
            op, json=json, params=params, path_params=path_params, headers=headers, token=token
        )
