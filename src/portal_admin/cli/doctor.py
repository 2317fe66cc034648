"""``doctor``: the connection doctor (``portal_admin.connection.doctor``) on the command line.

The report goes to standard output (text, or JSON with ``--json``) and to ``--out FILE``;
each step is shown on standard error as it ends when that is a terminal. Exit status: 0 every
step ok (or skipped), 1 a step failed, 2 the command line cannot be used, 3 warnings only.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from portal_admin.connection import builtin
from portal_admin.connection.doctor import Step, diagnose, exit_status
from portal_admin.connection.profile_store import ProfileStore
from portal_admin.connection.profiles import Profile, ProxyMode

from .errors import UsageError
from .output import say, writable, write_text
from .typed import ConnectionOptions


@dataclass(frozen=True)
class DoctorCommand:
    """``doctor``: the server (``url``, or the connection's ``--sandbox``, ``--profile`` or
    ``--server``, with its ``--access-code``), TLS, the proxy and the report."""

    url: str | None
    connection: ConnectionOptions
    ca_bundle: str | None
    proxy: str | None
    no_proxy: bool
    format: str
    out: str | None
    timeout: float


def _server(cmd: DoctorCommand) -> tuple[str, dict[str, Any]]:
    """The URL to check and the options its profile (or the built-in sandbox) implies."""
    url = cmd.url or cmd.connection.server
    profile_name = cmd.connection.profile
    chosen = [bool(url), cmd.connection.sandbox, bool(profile_name)]
    if sum(chosen) != 1:
        raise UsageError(
            "name the server: a URL, --sandbox or --profile NAME"
            if not any(chosen)
            else "give only one of a URL, --sandbox and --profile"
        )
    sandbox = cmd.connection.sandbox
    options: dict[str, Any] = {}
    if profile_name:
        profile = ProfileStore().find(profile_name)
        if profile is None:
            raise UsageError(f"no connection profile called {profile_name!r}")
        sandbox = profile.is_sandbox
        url = profile.base_url
        options.update(
            access_code=profile.portal_access_code or None,
            ca_bundle=profile.ca_bundle,
            allow_legacy_padding=profile.allow_legacy_padding,
            proxy=_profile_proxy(profile),
            pins=profile.pinned_certificates,
        )
    if sandbox:
        url = builtin.SANDBOX_BASE_URL
        options.update(
            access_code=builtin.SANDBOX_ACCESS_CODE, transport=builtin.sandbox_transport()
        )
    return str(url), options


def _profile_proxy(profile: Profile) -> str | bool | None:
    """The doctor's ``proxy`` for a profile: its URL, False for none, None for the system's."""
    if profile.proxy_mode is ProxyMode.MANUAL:
        return profile.proxy_url
    return False if profile.proxy_mode is ProxyMode.NONE else None


def _shown(step: Step) -> None:
    say(f"{step.status.value:>7}  {step.title}: {step.summary}")


async def run_doctor(cmd: DoctorCommand) -> int:
    """Check a server step by step and print the report."""
    url, options = _server(cmd)
    if cmd.connection.access_code:
        options["access_code"] = cmd.connection.access_code
    if cmd.ca_bundle:
        options["ca_bundle"] = cmd.ca_bundle
    out = writable(cmd.out) if cmd.out else None
    profile_proxy = options.pop("proxy", None)  # --proxy and --no-proxy win over the profile's
    proxy: str | bool | None = cmd.proxy or (False if cmd.no_proxy else profile_proxy)
    report = await diagnose(
        url,
        proxy=proxy,
        timeout=cmd.timeout,
        progress=_shown if sys.stderr.isatty() else None,
        **options,
    )
    text = report.to_json() if cmd.format == "json" else report.to_text()
    write_text(text, None)
    if out is not None:
        write_text(text, str(out))
        say(f"report saved to {Path(out)}")
    return exit_status(report)
