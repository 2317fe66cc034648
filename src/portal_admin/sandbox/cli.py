"""``portal-sandbox serve``: the sandbox over HTTP with uvicorn."""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import logging
import signal
import socket
import sys
from collections.abc import Callable, Generator, Sequence
from pathlib import Path
from types import FrameType

import uvicorn

from portal_admin.files.paths import data_dir
from portal_admin.protocol.secure_channel import ALGORITHMS, OAEP_SHA256

from .config import DEFAULT_ACCESS_CODE, DEFAULT_WRITE_RATE_LIMIT, MEMORY, SandboxConfig
from .faults import DroppedConnection, FaultConfig, FaultConfigError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765


def default_db_path() -> Path:
    """The default database file, in the user's data folder."""
    return data_dir() / "sandbox.sqlite3"


#: Said before a sandbox reachable from other machines serves, with or without
#: ``--expose-sign-in-codes``.
EXPOSED = (
    "the sandbox gives anyone who reaches its port every account's sign-in codes: the"
    " authenticator's secret and current code (/sandbox/totp) and the mailbox of sign-in and"
    " reset mails (/sandbox/mailbox), with no sign-in. Serve it so only for tests, on a"
    " network you trust."
)
KEPT_LOCAL = (
    "the sandbox is reachable from other machines; its sign-in codes (/sandbox/totp,"
    " /sandbox/mailbox) answer callers on this machine only (add --expose-sign-in-codes to"
    " give them to anyone who reaches the port). Its accounts, access code and passwords are"
    " public: serve it so only for tests."
)


def is_loopback(host: str) -> bool:
    """True for localhost and loopback addresses."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``portal-sandbox``."""
    parser = argparse.ArgumentParser(
        prog="portal-sandbox", description="The System Portal sandbox server."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the sandbox over HTTP")
    serve.add_argument("--host", default=DEFAULT_HOST, help="address to bind (default loopback)")
    serve.add_argument("--port", type=int, default=DEFAULT_PORT, help="0 picks a free port")
    serve.add_argument("--db", default=None, help="SQLite file or :memory:")
    serve.add_argument("--seed-accounts", type=int, default=2000, metavar="N")
    serve.add_argument("--portal-access-code", default=DEFAULT_ACCESS_CODE, metavar="CODE")
    serve.add_argument("--sc-algorithm", default=OAEP_SHA256, choices=ALGORITHMS, metavar="NAME")
    serve.add_argument("--test-clock", action="store_true", help="allow /sandbox/clock/advance")
    serve.add_argument("--account-query-shape", choices=("accounts", "content"), default="accounts")
    serve.add_argument("--allow-remote", action="store_true", help="allow a non-loopback --host")
    serve.add_argument(
        "--expose-sign-in-codes",
        action="store_true",
        help="with --allow-remote: let anyone who reaches the port read every account's"
        " sign-in codes (/sandbox/totp, /sandbox/mailbox); without it they answer loopback only",
    )
    serve.add_argument(
        "--write-rate-limit",
        type=int,
        default=DEFAULT_WRITE_RATE_LIMIT,
        metavar="N",
        help="administrative writes per second per account (0: no limit)",
    )
    faults = serve.add_argument_group("fault injection (see docs/sandbox.md)")
    for option, name, kind, text in _FAULT_OPTIONS:
        faults.add_argument(option, dest=f"fault_{name}", type=kind, default=None, help=text)
    return parser


#: ``--fault-*`` options: option, FaultConfig field, type, help.
_FAULT_OPTIONS: tuple[tuple[str, str, type, str], ...] = (
    ("--fault-latency-ms", "latency_ms", float, "added to every request"),
    ("--fault-latency-jitter-ms", "latency_jitter_ms", float, "plus up to this, at random"),
    ("--fault-5xx-rate", "error_5xx_rate", float, "share answered 500/502/503/504"),
    ("--fault-drop-rate", "drop_rate", float, "share whose connection drops"),
    ("--fault-malformed-rate", "malformed_rate", float, "share answered a broken envelope"),
    ("--fault-html-rate", "html_rate", float, "share answered a 502 HTML gateway page"),
    ("--fault-sc-expire-rate", "sc_expire_rate", float, "share expiring every SC session"),
    ("--fault-key-rotate-rate", "key_rotate_rate", float, "share rotating the SC key first"),
    ("--fault-clock-skew-s", "clock_skew_s", float, "sandbox clock ahead (or behind) by"),
    ("--fault-seed", "seed", int, "seed of the fault sequence"),
)


def fault_specs(args: argparse.Namespace) -> tuple[str, ...]:
    """The ``--fault-*`` options given, as ``SandboxConfig.faults`` strings."""
    return tuple(
        f"{name}={value}"
        for _, name, _, _ in _FAULT_OPTIONS
        if (value := getattr(args, f"fault_{name}", None)) is not None
    )


class _QuietDrops(logging.Filter):
    """uvicorn logs an app failure with its trace: not for the connections dropped on purpose."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not isinstance(exc, DroppedConnection)


class _Server(uvicorn.Server):
    """uvicorn, announcing readiness and stopping cleanly (exit 0) on SIGINT or SIGTERM."""

    def __init__(self, config: uvicorn.Config, on_ready: Callable[[], None]) -> None:
        super().__init__(config)
        self._on_ready = on_ready

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started:
            self._on_ready()

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        def stop(sig: int, frame: FrameType | None) -> None:
            if self.should_exit:
                self.force_exit = True
            self.should_exit = True

        previous = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


def _bind(host: str, port: int) -> socket.socket:
    family, kind, proto, _, address = socket.getaddrinfo(
        host.strip("[]"), port, type=socket.SOCK_STREAM
    )[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(address)
    sock.listen(128)
    sock.setblocking(False)
    return sock


def serve(args: argparse.Namespace) -> int:
    """Run the server until a signal stops it."""
    from .app import create_app

    db = args.db
    if db is None:
        path = default_db_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        db = str(path)
    elif db != MEMORY:
        Path(db).expanduser().parent.mkdir(parents=True, exist_ok=True)
        db = str(Path(db).expanduser())
    config = SandboxConfig(
        db=db,
        seed_accounts=args.seed_accounts,
        portal_access_code=args.portal_access_code,
        sc_algorithm=args.sc_algorithm,
        test_clock=args.test_clock,
        account_query_shape=args.account_query_shape,
        faults=fault_specs(args),
        write_rate_limit=args.write_rate_limit,
        sign_in_codes_loopback_only=not (is_loopback(args.host) or args.expose_sign_in_codes),
    )
    app = create_app(config)
    if app.state.faults is not None:
        app.state.faults.drop_mode = "abort"  # over HTTP a drop closes the connection
        logging.getLogger("uvicorn.error").addFilter(_QuietDrops())
    sock = _bind(args.host, args.port)
    port = sock.getsockname()[1]
    shown = f"[{args.host.strip('[]')}]" if ":" in args.host else args.host

    def ready() -> None:
        if not is_loopback(args.host):
            warning = EXPOSED if args.expose_sign_in_codes else KEPT_LOCAL
            print(f"WARNING: {warning}", file=sys.stderr, flush=True)
        print(f"Sandbox listening on http://{shown}:{port}", flush=True)

    server = _Server(
        uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off"), ready
    )
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
        app.state.sandbox.db.close()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``portal-sandbox``."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "serve":
        if not is_loopback(args.host) and not args.allow_remote:
            parser.error(f"--host {args.host} is not a loopback address: add --allow-remote")
        if not 0 <= args.port <= 65535:
            parser.error("--port must be 0 to 65535")
        if args.seed_accounts < 0:
            parser.error("--seed-accounts must not be negative")
        if args.write_rate_limit < 0:
            parser.error("--write-rate-limit must not be negative")
        try:
            FaultConfig.from_specs(fault_specs(args))
        except FaultConfigError as exc:
            parser.error(str(exc))
        return serve(args)
    return 2  # pragma: no cover - argparse requires a command


if __name__ == "__main__":
    sys.exit(main())
