"""``evidence snapshot|diff|pack|verify|trust`` and ``journal verify``: the evidence package
(``portal_admin.evidence``, no Qt) on the command line.

``verify``, ``trust`` and ``journal verify`` go through the evidence package's own command
(``python -m portal_admin.evidence``). ``verify``: exit 0 intact and signed by a trusted key
(this installation's, one added with ``evidence trust add``, or the ``--fingerprint`` given),
1 something was changed, added or removed or another key signed it than the fingerprint given
(it says what), 2 not a pack (or not a fingerprint), 3 consistent but signed by a key that is
not trusted (it prints the key's fingerprint). ``trust``: 0 done, 1 ``remove`` of a key that
is not trusted, 2 a fingerprint or name that cannot be used. ``journal verify``: 0 intact, 1
broken, 2 not a journal.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from portal_admin.evidence import diff as differ
from portal_admin.evidence import journal, keys, packs_of
from portal_admin.evidence import pack as packs
from portal_admin.evidence import snapshot as snapshots
from portal_admin.evidence.__main__ import main as evidence_main

from .errors import EXIT_OK, EXIT_USAGE, UsageError
from .output import say, writable

PROG = "portal-admin-cli evidence"


def _delegate(argv: list[str]) -> int:
    try:
        return int(evidence_main(argv, prog=PROG))
    except SystemExit as exc:  # its own usage errors
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE


def verify_pack(args: Any) -> int:
    """Check a pack's signature and every file's hash."""
    extra = ["--fingerprint", args.fingerprint] if args.fingerprint else []
    return _delegate(["verify", args.pack, *extra])


def trust_add(args: Any) -> int:
    """Trust a key to sign packs, under a name."""
    return _delegate(["trust", "add", args.fingerprint, "--name", args.name])


def trust_list(args: Any) -> int:
    """This installation's key and the keys trusted to sign packs."""
    del args
    return _delegate(["trust", "list"])


def trust_remove(args: Any) -> int:
    """Stop trusting a key."""
    return _delegate(["trust", "remove", args.fingerprint])


def verify_journal(args: Any) -> int:
    """Check the journal's hash chain and its signed checkpoints (this computer's journal
    unless a path is given)."""
    extra = ["--fingerprint", args.fingerprint] if args.fingerprint else []
    return _delegate(["journal", "verify", *([args.path] if args.path else []), *extra])


async def snapshot(args: Any) -> int:
    """Take an access-review snapshot (read operations only: a kiosk profile may)."""
    from .session import connect

    out = Path(args.out)
    async with connect(args) as conn:
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


def diff(args: Any) -> int:
    """Compare two snapshots; print the counts, write the changes with --out."""
    try:
        result = differ.diff_snapshots(Path(args.old), Path(args.new))
    except snapshots.SnapshotError as exc:
        raise UsageError(str(exc)) from None
    for (kind, change), n in sorted(result.counts().items()):
        print(f"{kind} {change}: {n}")
    if args.out:
        result.write_csv(Path(args.out))
        say(f"{len(result.changes)} changes written to {args.out}")
    return EXIT_OK


def pack(args: Any) -> int:
    """Write a signed pack of a snapshot, a diff or the journal (a range of it)."""
    out = writable(args.out)  # a folder, or a place that cannot be written: exit 2, no file
    try:
        kind, tables, summary = packs_of.source(args, journal)
        try:
            key = keys.signing_key()
        except keys.KeyUnavailable as exc:
            if not args.ephemeral_key:
                raise UsageError(
                    f"no pack can be signed: {exc} (--ephemeral-key signs with a one-off key)"
                ) from None
            key = keys.signing_key(keys.MemoryStore())
            summary = {**summary, "signing key": "ephemeral: made for this pack alone"}
    except snapshots.SnapshotError as exc:
        raise UsageError(str(exc)) from None
    manifest = packs.write_pack(out, kind, tables, summary, key)
    say(f"{kind} pack written to {args.out}; signed by key {manifest['fingerprint']}")
    return EXIT_OK
