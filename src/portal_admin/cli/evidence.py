"""``evidence snapshot|diff|pack|verify|trust`` and ``journal verify``: the evidence package
(``portal_admin.evidence``, no Qt) on the command line.

``verify``, ``trust`` and ``journal verify`` go through the evidence package's own command
(``python -m portal_admin.evidence``). ``verify``: exit 0 intact and signed by a trusted key
(this installation's, one added with ``evidence trust add``, or the ``--fingerprint`` given),
1 something was changed, added or removed or another key signed it than the fingerprint given
(it says what), 2 not a pack (or not a fingerprint), 3 consistent but signed by a key that is
not trusted (it prints the key's fingerprint). ``trust``: 0 done, 1 ``remove`` of a key that
is not trusted, 2 a fingerprint or name that cannot be used. ``journal verify``: 0 intact, 1
broken, 2 not a journal. ``verify`` and ``journal verify`` take ``--format json``: what was
found as one JSON line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from portal_admin.evidence import diff as differ
from portal_admin.evidence import keys
from portal_admin.evidence import pack as packs
from portal_admin.evidence import snapshot as snapshots
from portal_admin.evidence.__main__ import main as evidence_main

from .errors import EXIT_OK, EXIT_USAGE, UsageError
from .output import say, writable
from .packs_of import PackSource, source
from .typed import ConnectionOptions

PROG = "portal-admin-cli evidence"


@dataclass(frozen=True)
class VerifyCommand:
    """``evidence verify PACK``: the key trusted for this check, and the report's format."""

    pack: str
    fingerprint: str | None
    format: str


@dataclass(frozen=True)
class TrustCommand:
    """``evidence trust add | remove``: the key (and, to add it, whose it is)."""

    fingerprint: str
    name: str = ""


@dataclass(frozen=True)
class JournalVerifyCommand:
    """``journal verify [PATH]``: the checkpoints' key, and the report's format."""

    path: str | None
    fingerprint: str | None
    format: str


@dataclass(frozen=True)
class SnapshotCommand:
    """``evidence snapshot OUT``: the server to read, and the file."""

    out: str
    connection: ConnectionOptions


@dataclass(frozen=True)
class DiffCommand:
    """``evidence diff OLD NEW``: the two snapshots, and where the changes go as CSV."""

    old: str
    new: str
    out: str | None


@dataclass(frozen=True)
class PackCommand:
    """``evidence pack OUT``: what it packs, and a one-off key if this installation's is
    unusable."""

    out: str
    source: PackSource
    ephemeral_key: bool


def _delegate(argv: list[str]) -> int:
    try:
        return int(evidence_main(argv, prog=PROG))
    except SystemExit as exc:  # its own usage errors
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE


def verify_pack(cmd: VerifyCommand) -> int:
    """Check a pack's signature and every file's hash."""
    extra = ["--fingerprint", cmd.fingerprint] if cmd.fingerprint else []
    return _delegate(["verify", cmd.pack, *extra, "--format", cmd.format])


def trust_add(cmd: TrustCommand) -> int:
    """Trust a key to sign packs, under a name."""
    return _delegate(["trust", "add", cmd.fingerprint, "--name", cmd.name])


def trust_list() -> int:
    """This installation's key and the keys trusted to sign packs."""
    return _delegate(["trust", "list"])


def trust_remove(cmd: TrustCommand) -> int:
    """Stop trusting a key."""
    return _delegate(["trust", "remove", cmd.fingerprint])


def verify_journal(cmd: JournalVerifyCommand) -> int:
    """Check the journal's hash chain and its signed checkpoints (this computer's journal
    unless a path is given)."""
    extra = ["--fingerprint", cmd.fingerprint] if cmd.fingerprint else []
    path = [cmd.path] if cmd.path else []
    return _delegate(["journal", "verify", *path, *extra, "--format", cmd.format])


async def snapshot(cmd: SnapshotCommand) -> int:
    """Take an access-review snapshot (read operations only: a kiosk profile may)."""
    from .session import connect

    out = Path(cmd.out)
    async with connect(cmd.connection) as conn:
        context = conn.context()

        def told(stage: str, done: int, total: int) -> None:
            if stage == "accounts" and (done == total or done % 10_000 == 0):
                say(f"accounts: {done}/{total}")

        taken = await snapshots.take_snapshot(
            conn.client,
            out,
            profile=context.profile,
            server=context.server,
            account=context.account,
            progress=told,
        )
    counts = ", ".join(f"{n} {k}" for k, n in taken.counts().items())
    say(f"snapshot written to {out}: {counts}")
    return EXIT_OK


def diff(cmd: DiffCommand) -> int:
    """Compare two snapshots; print the counts, write the changes with --out."""
    try:
        result = differ.diff_snapshots(Path(cmd.old), Path(cmd.new))
    except snapshots.SnapshotError as exc:
        raise UsageError(str(exc)) from None
    for (kind, change), n in sorted(result.counts().items()):
        print(f"{kind} {change}: {n}")
    if cmd.out:
        result.write_csv(Path(cmd.out))
        say(f"{len(result.changes)} changes written to {cmd.out}")
    return EXIT_OK


def pack(cmd: PackCommand) -> int:
    """Write a signed pack of a snapshot, a diff or the journal (a range of it)."""
    out = writable(cmd.out)  # a folder, or a place that cannot be written: exit 2, no file
    try:
        kind, tables, summary = source(cmd.source)
        try:
            key = keys.signing_key()
        except keys.KeyUnavailable as exc:
            if not cmd.ephemeral_key:
                raise UsageError(
                    f"no pack can be signed: {exc} (--ephemeral-key signs with a one-off key)"
                ) from None
            key = keys.signing_key(keys.MemoryStore())
            summary = {**summary, "signing key": "ephemeral: made for this pack alone"}
    except snapshots.SnapshotError as exc:
        raise UsageError(str(exc)) from None
    manifest = packs.write_pack(out, kind, tables, summary, key)
    say(f"{kind} pack written to {cmd.out}; signed by key {manifest['fingerprint']}")
    return EXIT_OK
