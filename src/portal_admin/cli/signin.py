"""Signing in from the command line, without ever printing or logging a secret.

First the refresh token kept for the profile and account (``client.auth.resume``: the OS
keyring the desktop program uses too, or the command line's session file, ``session_file.py``).
Otherwise the password (the built-in sandbox's public one, ``--password-env VAR``, or asked on
the terminal without echo) and the second factor: asked on the terminal, or, for a sandbox
(built-in, or on this computer with ``--sandbox-mfa``), the code it mails to its own mailbox
(``/sandbox/mailbox``), else its authenticator code (``/sandbox/totp``).

Why the mailed code first: a sandbox accepts each authenticator code once, and remembers the
codes used in its database, while each process's test clock starts again at the real time. The
built-in sandbox's database is kept in the data folder between runs, so quick runs (a dry run
then the run, a script) used up the codes ahead of the clock and, after a few, the sandbox
refused its own codes. A mailed code belongs to its own sign-in, so nothing kept can refuse it.
"""

from __future__ import annotations

import getpass
import os
import sys
from typing import Any
from urllib.parse import urlsplit

import httpx

from portal_admin.client import PortalClient
from portal_admin.client.errors import ValidationError
from portal_admin.client.options import is_loopback
from portal_admin.connection.profiles import Profile
from portal_admin.protocol.errors import Code

from .errors import UsageError
from .typed import ConnectionOptions

#: The built-in sandbox's administrator (its password is public: README.md).
SANDBOX_ADMIN = ("admin@sandbox.test", "Sandbox-Admin-2026!")
#: How many of a held sandbox clock's 30 s steps are tried for a fresh authenticator code.
OTP_TRIES = 8
#: How many of the newest mailed codes are tried (another sign-in may have mailed one since).
MAILED_TRIES = 5


def ask(prompt: str) -> str:
    """A line typed on the terminal (refused when standard input is not one)."""
    if not sys.stdin.isatty():
        raise UsageError(f"{prompt.rstrip(': ')} needed: run in a terminal")
    print(prompt, end="", file=sys.stderr, flush=True)
    return sys.stdin.readline().strip()


def secret(prompt: str, env: str | None) -> str:
    """A password from the environment variable ``env`` or typed without echo."""
    if env:
        value = os.environ.get(env)
        if not value:
            raise UsageError(f"the environment variable {env} is not set")
        return value
    if not sys.stdin.isatty():
        raise UsageError(f"{prompt.rstrip(': ')} needed: run in a terminal or use --password-env")
    return getpass.getpass(prompt)


def check_sandbox_mfa(profile: Profile, wanted: bool) -> None:
    """``--sandbox-mfa`` is for a sandbox on this computer only."""
    if wanted and not profile.is_sandbox:
        host = urlsplit(profile.base_url).hostname or ""
        if not is_loopback(host):
            raise UsageError(f"--sandbox-mfa is for a sandbox on this computer, not {host!r}")


async def _sandbox_get(client: PortalClient, path: str, params: dict[str, str]) -> Any:
    try:
        answer = await client.http.get(path, params=params)
        answer.raise_for_status()
        return answer.json()["data"]
    except (httpx.HTTPError, ValueError, KeyError, TypeError):
        raise UsageError(f"the server answers no {path}: is it a sandbox?") from None


async def _sandbox_otp(client: PortalClient, email: str) -> None:
    """Complete the sign-in with the authenticator code the sandbox shows.

    A sandbox accepts each code once, and a held test clock (the built-in sandbox's, started
    anew by every process) may still show the code used last: then its clock is moved on by
    one 30 s step and the next code is tried (the login session lives 300 s).
    """
    for _ in range(OTP_TRIES):
        data = await _sandbox_get(client, "/sandbox/totp", {"email": email})
        try:
            await client.auth.complete("OTP", str(data["code"]))
            return
        except ValidationError as exc:
            if exc.code != Code.MFA_CODE_INVALID:
                raise
            moved = await client.http.post("/sandbox/clock/advance", json={"seconds": 30})
            if moved.status_code != 200:  # a real clock: a code is refused for a reason
                raise
    raise UsageError("the sandbox refused its own authenticator codes")


async def _sandbox_email(client: PortalClient, email: str) -> None:
    """Complete the sign-in with the code the sandbox mailed (its mailbox is readable, newest
    first; a sign-in running beside this one may have mailed a code since, so a few are
    tried)."""
    await client.auth.send_code("EMAIL")
    messages = await _sandbox_get(client, "/sandbox/mailbox", {"to": email})
    codes = [m["code"] for m in messages if isinstance(m, dict) and m.get("code")]
    if not codes:
        raise UsageError("the sandbox mailed no sign-in code")
    for code in codes[:MAILED_TRIES]:
        try:
            await client.auth.complete("EMAIL", str(code))
            return
        except ValidationError as exc:
            if exc.code != Code.MFA_CODE_INVALID:
                raise
    raise UsageError("the sandbox refused the codes it mailed")


async def _second_factor(client: PortalClient, methods: list[str]) -> None:
    """The second factor typed by the person: an authenticator code or a mailed one."""
    if "OTP" in methods:
        code = ask("Authenticator code (or 'email' to be sent a code): ")
        if code.lower() != "email":
            await client.auth.complete("OTP", code)
            return
    if "EMAIL" not in methods:
        raise UsageError(f"no second factor this program can use ({', '.join(methods)})")
    await client.auth.send_code("EMAIL")
    await client.auth.complete("EMAIL", ask("Code sent by email: "))


async def sign_in(client: PortalClient, profile: Profile, options: ConnectionOptions) -> str:
    """Sign ``client`` in for ``profile`` as the options say; returns the account's email."""
    check_sandbox_mfa(profile, options.sandbox_mfa)
    email = options.user or (SANDBOX_ADMIN[0] if profile.is_sandbox else "") or ask("Email: ")
    if await client.auth.resume(email) is not None:
        return email
    if profile.is_sandbox and email == SANDBOX_ADMIN[0] and not options.password_env:
        password = SANDBOX_ADMIN[1]
    else:
        password = secret("Password: ", options.password_env)
    challenge = await client.auth.start(email, password)
    del password
    methods = [m.code for m in challenge.methods]
    if not methods:
        raise UsageError("the server offers no second factor for this account")
    if profile.is_sandbox or options.sandbox_mfa:
        if "EMAIL" in methods:
            await _sandbox_email(client, email)
        else:
            await _sandbox_otp(client, email)
    else:
        await _second_factor(client, methods)
    return email
