"""Connecting and signing in from the command line.

Three ways to name the server: ``--sandbox`` (the built-in sandbox, in process, its data in
the user data folder as the desktop program's ``--sandbox`` keeps it), ``--profile NAME`` (a
connection profile of the desktop program) or ``--server URL``. Signing in first tries the
refresh token the desktop program keeps in the OS keyring for that profile and account; then
the password (``--password-env VAR``, else asked on the terminal) and the second factor
(asked on the terminal; ``--sandbox-mfa`` reads it from a sandbox's own endpoint, loopback
and built-in only). Nothing secret is printed or logged.
"""

from __future__ import annotations

import contextlib
import getpass
import os
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from portal_admin.client import PortalClient
from portal_admin.client.errors import ValidationError
from portal_admin.client.options import is_loopback
from portal_admin.connection import builtin
from portal_admin.connection.profiles import (
    EnvironmentType,
    Profile,
    ProfileStore,
    client_options,
    sandbox_profile,
)
from portal_admin.jobs import JobContext
from portal_admin.protocol.errors import Code

#: The built-in sandbox's administrator (its password is public: README.md).
SANDBOX_ADMIN = ("admin@sandbox.test", "Sandbox-Admin-2026!")


class UsageError(Exception):
    """A command line that cannot be carried out (exit status 2)."""


@dataclass
class Connection:
    """A signed-in client and where it is connected."""

    client: PortalClient
    profile: Profile
    email: str
    self_id: str

    def context(self) -> JobContext:
        """The job context of this connection."""
        server = builtin.SANDBOX_BASE_URL if self.profile.is_sandbox else self.profile.base_url
        return JobContext(
            self.profile.name, server, self.email, self.self_id, str(self.profile.environment)
        )


def resolve_profile(args: Any) -> Profile:
    """The profile the options name."""
    chosen = [bool(args.sandbox), bool(args.profile), bool(args.server)]
    if sum(chosen) > 1:
        raise UsageError("choose one of --sandbox, --profile and --server")
    if args.sandbox or not any(chosen):
        if not args.sandbox:
            raise UsageError("name a server: --sandbox, --profile NAME or --server URL")
        return sandbox_profile()
    if args.profile:
        profile = ProfileStore().find(args.profile)
        if profile is None:
            raise UsageError(f"no connection profile called {args.profile!r}")
        return profile
    url = str(args.server)
    return Profile(
        name=url,
        base_url=url,
        portal_access_code=args.access_code or "",
        environment=EnvironmentType(args.environment),
    )


def _secret(prompt: str, env: str | None) -> str:
    if env:
        value = os.environ.get(env)
        if value is None:
            raise UsageError(f"the environment variable {env} is not set")
        return value
    if not sys.stdin.isatty():
        raise UsageError(f"{prompt.strip(': ')} needed: run in a terminal or use --password-env")
    return getpass.getpass(prompt)


def _ask(prompt: str) -> str:
    if not sys.stdin.isatty():
        raise UsageError(f"{prompt.strip(': ')} needed: run in a terminal")
    print(prompt, end="", file=sys.stderr, flush=True)
    return sys.stdin.readline().strip()


async def _sandbox_otp(client: PortalClient, email: str) -> None:
    """Complete the sign-in with the authenticator code a sandbox shows.

    A sandbox accepts each code once, and a held test clock (the built-in sandbox's, started
    anew by every process) may still show the code used last: then its clock is moved on by
    one 30 s step and the next code is tried (the login session lives 300 s).
    """
    for _ in range(8):
        answer = await client.http.get("/sandbox/totp", params={"email": email})
        answer.raise_for_status()
        try:
            await client.auth.complete("OTP", str(answer.json()["data"]["code"]))
            return
        except ValidationError as exc:
            if exc.code != Code.MFA_CODE_INVALID:
                raise
            moved = await client.http.post("/sandbox/clock/advance", json={"seconds": 30})
            if moved.status_code != 200:  # a real clock: the next code comes by itself
                raise
    raise UsageError("the sandbox refused its own authenticator codes")


async def sign_in(client: PortalClient, profile: Profile, args: Any) -> str:
    """Sign in (a stored refresh token first); returns the account's email."""
    email = args.user or (SANDBOX_ADMIN[0] if profile.is_sandbox else "")
    if not email:
        email = _ask("Email: ")
    if await client.auth.resume(email) is not None:
        return email
    automatic = profile.is_sandbox or args.sandbox_mfa
    if args.sandbox_mfa and not is_loopback(urlsplit(profile.base_url).hostname or ""):
        raise UsageError("--sandbox-mfa is for a sandbox on this computer only")
    if profile.is_sandbox and email == SANDBOX_ADMIN[0] and not args.password_env:
        password = SANDBOX_ADMIN[1]
    else:
        password = _secret("Password: ", args.password_env)
    challenge = await client.auth.start(email, password)
    methods = [m.code for m in challenge.methods]
    if automatic and "OTP" in methods:
        await _sandbox_otp(client, email)
        return email
    if "OTP" in methods:
        code = _ask("Authenticator code (or 'email' to be sent a code): ")
        if code.lower() != "email":
            await client.auth.complete("OTP", code)
            return email
    await client.auth.send_code("EMAIL")
    await client.auth.complete("EMAIL", _ask("Code sent by email: "))
    return email


@contextlib.asynccontextmanager
async def connect(args: Any, profile: Profile | None = None) -> AsyncIterator[Connection]:
    """A signed-in connection for the options (or ``profile``), closed after."""
    profile = profile or resolve_profile(args)
    transport = builtin.sandbox_transport() if profile.is_sandbox else None
    base_url = builtin.SANDBOX_BASE_URL if profile.is_sandbox else profile.base_url
    options = client_options(profile, args.lang)
    async with PortalClient(base_url, options, transport=transport) as client:
        email = await sign_in(client, profile, args)
        me = await client.auth.profile()
        yield Connection(client, profile, email, me.biz_id)
