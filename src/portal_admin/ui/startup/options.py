"""Command-line options of ``portal-admin`` (parsed without importing Qt)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from portal_admin import __version__
from portal_admin.ui.i18n.languages import LANGUAGES

if TYPE_CHECKING:
    from portal_admin.ui.kiosk.policy import KioskPolicy


@dataclass(frozen=True, slots=True)
class StartOptions:
    """What the command line asked for."""

    sandbox: bool = False
    profile: str | None = None
    lang: str | None = None
    kiosk: bool = False
    tour: Path | None = None
    self_check: bool = False
    #: The machine's kiosk policy in force (see ``kiosk.policy``); None without one.
    policy: KioskPolicy | None = None


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (its help texts are English: Qt is not loaded yet)."""
    parser = argparse.ArgumentParser(
        prog="portal-admin", description="Desktop administration for the System Portal."
    )
    parser.add_argument(
        "--sandbox", action="store_true", help="run on the built-in sandbox with its demo data"
    )
    parser.add_argument("--profile", metavar="NAME", help="connect with this connection profile")
    parser.add_argument("--lang", choices=LANGUAGES, help="user interface language")
    parser.add_argument("--kiosk", action="store_true", help="read-only kiosk mode for auditors")
    parser.add_argument(
        "--tour",
        metavar="DIR",
        type=Path,
        help="visit every panel, save screenshots into DIR, exit",
    )
    parser.add_argument(
        "--self-check",
        action="store_true",
        help="print a JSON report (keyring, translations, Qt platform) and exit",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return parser


def parse_args(argv: list[str] | None = None) -> StartOptions:
    """Parse ``argv`` (default: sys.argv[1:]); --version and --help exit here."""
    ns = build_parser().parse_args(argv)
    return StartOptions(
        sandbox=ns.sandbox,
        profile=ns.profile,
        lang=ns.lang,
        kiosk=ns.kiosk,
        tour=ns.tour,
        self_check=ns.self_check,
    )
