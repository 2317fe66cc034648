"""Putting the command line and the machine's kiosk policy together (no Qt here)."""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

from portal_admin.ui.startup.options import StartOptions, parse_args

from .policy import DEFAULT_IDLE_SIGN_OUT_MINUTES, KioskPolicy, KioskSettings, load_policy

log = logging.getLogger("portal_admin.ui.kiosk.policy")


def start_options(argv: list[str] | None = None) -> StartOptions:
    """The options the program starts with: the command line, then the machine's kiosk policy
    on top (a contradicting option is dropped with a logged notice).

    Raises ``kiosk.policy.PolicyError`` when a policy file exists but cannot be used.
    """
    return apply_policy(parse_args(argv), load_policy())


def apply_policy(options: StartOptions, policy: KioskPolicy | None) -> StartOptions:
    """``options`` with everything the policy decides put back; each override is logged."""
    if policy is None:
        return options
    changes: dict[str, Any] = {"kiosk": True, "policy": policy}
    if not options.kiosk:
        log.warning("kiosk policy %s: kiosk mode is forced", policy.source)
    pinned = (
        policy.profile_inline.get("name") if policy.profile_inline is not None else None
    ) or policy.profile_name
    if options.profile is not None and options.profile.casefold() != str(pinned).casefold():
        log.warning(
            "kiosk policy %s: --profile %r ignored; the profile %r is pinned",
            policy.source,
            options.profile,
            pinned,
        )
    changes["profile"] = None
    if not policy.pins_sandbox:
        if options.sandbox:
            log.warning("kiosk policy %s: --sandbox ignored (a profile is pinned)", policy.source)
        if options.tour is not None:
            log.warning("kiosk policy %s: --tour ignored (a profile is pinned)", policy.source)
        changes["sandbox"] = False
        changes["tour"] = None
    if options.lang is not None and not policy.allows_language(options.lang):
        log.warning(
            "kiosk policy %s: --lang %s ignored; allowed: %s",
            policy.source,
            options.lang,
            ", ".join(policy.languages),
        )
        changes["lang"] = None
    return dataclasses.replace(options, **changes)


def kiosk_settings(options: StartOptions, profile_idle_minutes: int = 0) -> KioskSettings | None:
    """The kiosk settings ``options`` stand for (None outside kiosk mode).

    Without a policy the idle sign-out time is the profile's idle time, else the default.
    """
    if not options.kiosk:
        return None
    policy = options.policy
    if policy is not None:
        return KioskSettings(
            policy.idle_sign_out_minutes, policy.csv_export, policy.languages, policy
        )
    return KioskSettings(profile_idle_minutes or DEFAULT_IDLE_SIGN_OUT_MINUTES)
