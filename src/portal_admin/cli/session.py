"""Connecting from the command line: which server, a signed-in client, and the job context.

Three ways to name the server: ``--sandbox`` (the built-in sandbox, in process, its data in
the user data folder as the desktop program's ``--sandbox`` keeps it), ``--profile NAME`` (a
connection profile of the desktop program, from the same profiles file) or ``--server URL``.
The client is built as the desktop program builds it (``connection.profiles.client_options``:
the same keyring entry for the refresh token), so a sign-in in one is reused by the other.
Without a keyring the sign-in lasts for one command, or, with ``--keep-session``, is kept in
an owner-only file for a few hours (``session_file.py``); ``logout`` ends it.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass

from portal_admin.client import PortalClient
from portal_admin.connection import builtin
from portal_admin.connection.profile_store import ProfileStore
from portal_admin.connection.profiles import (
    EnvironmentType,
    Profile,
    client_options,
    sandbox_profile,
)
from portal_admin.files.terminal import printable
from portal_admin.jobs import JobContext

from .errors import UsageError
from .output import say
from .recording import recorded
from .session_file import token_store
from .signin import SANDBOX_ADMIN, ask, sign_in
from .typed import ConnectionOptions

log = logging.getLogger("portal_admin.cli.session")


@dataclass
class Connection:
    """A signed-in client, its profile and account."""

    client: PortalClient
    profile: Profile
    email: str
    self_id: str

    @property
    def server(self) -> str:
        """The server as jobs record it (as the desktop program records it)."""
        return str(self.client.base_url)

    def context(self) -> JobContext:
        """The job context of this connection (never a secret)."""
        return JobContext(
            self.profile.name, self.server, self.email, self.self_id, str(self.profile.environment)
        )


def server_of(profile: Profile) -> str:
    """The base URL requests go to (the built-in sandbox's in-process one for it)."""
    return builtin.SANDBOX_BASE_URL if profile.is_sandbox else profile.base_url


def same_server(one: str, other: str) -> bool:
    """True when two recorded base URLs name the same server."""
    return one.rstrip("/").lower() == other.rstrip("/").lower()


def resolve_profile(options: ConnectionOptions) -> Profile:
    """The profile the connection options name."""
    chosen = [options.sandbox, bool(options.profile), bool(options.server)]
    if sum(chosen) != 1:
        raise UsageError(
            "name a server: one of --sandbox, --profile NAME and --server URL"
            if not any(chosen)
            else "choose one of --sandbox, --profile and --server"
        )
    if not options.server and (options.access_code or options.environment):
        raise UsageError("--access-code and --environment go with --server")
    if options.sandbox:
        return sandbox_profile()
    if options.profile:
        profile = ProfileStore().find(options.profile)
        if profile is None:
            raise UsageError(f"no connection profile called {options.profile!r}")
        return profile
    url = str(options.server)  # the one named
    return Profile(
        name=url,
        base_url=url,
        portal_access_code=options.access_code or "",
        environment=EnvironmentType(options.environment or EnvironmentType.PRODUCTION),
    )


@contextlib.asynccontextmanager
async def connect(
    options: ConnectionOptions, profile: Profile | None = None
) -> AsyncIterator[Connection]:
    """A signed-in connection for the options (or ``profile``), closed after."""
    profile = profile or resolve_profile(options)
    transport = builtin.sandbox_transport() if profile.is_sandbox else None
    store = token_store(options.keep_session)
    async with PortalClient(
        server_of(profile),
        client_options(profile, options.lang),
        transport=transport,
        token_store=store,
    ) as client:
        email = await sign_in(client, profile, options)
        if store.unavailable_reason:
            log.warning("%s", store.unavailable_reason)
        me = await client.auth.profile()
        connection = Connection(client, profile, email, me.biz_id)
        async with recorded(client, profile=profile.name, server=server_of(profile)):
            yield connection


async def logout(options: ConnectionOptions) -> int:
    """``logout``: end the kept session of the options' server and account (the server forgets
    the refresh token; the keyring or the session file forgets it too)."""
    profile = resolve_profile(options)
    transport = builtin.sandbox_transport() if profile.is_sandbox else None
    email = options.user or (SANDBOX_ADMIN[0] if profile.is_sandbox else "") or ask("Email: ")
    store = token_store(False)
    async with PortalClient(
        server_of(profile),
        client_options(profile, options.lang),
        transport=transport,
        token_store=store,
    ) as client:
        if await client.auth.resume(email) is None:
            await store.delete(profile.name, email)
            say(f"no kept session for {printable(email)}")
            return 0
        await client.auth.logout()
    say(f"signed out: {printable(email)}")
    return 0
