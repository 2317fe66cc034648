"""The doctor's last step: where this installation's evidence-signing key is kept (the OS
keyring or the owner-only key file, ``evidence/keys.py``) and its fingerprint.

Nothing is made here and nothing secret is reported: the place, the fingerprint (of the public
half), and why the key cannot be read when it cannot.
"""

from __future__ import annotations

import asyncio
import time

from portal_admin.evidence import keys, trust

from .report import Status, Step


def check() -> Step:
    """The step, read now (the keyring may block: call it from a worker thread)."""
    started = time.perf_counter()
    store = keys.installation_store()
    try:
        text = store.get()
    except keys.KeyUnavailable as exc:
        place = store.place
        return Step(
            "signing_key",
            Status.WARNING,
            time.perf_counter() - started,
            f"The evidence-signing key cannot be read: {exc}.",
            "key.unavailable",
            "Evidence packs, review decisions, sign-offs and journal checkpoints cannot be "
            f"signed until it can: if the key file has a passphrase, set {keys.PASSPHRASE_ENV}.",
            _details(place, None, str(exc)),
        )
    place = store.place
    seconds = time.perf_counter() - started
    if not text:
        where = "the OS keyring" if place.kind == "keyring" else f"the key file {place.path}"
        return Step(
            "signing_key",
            Status.OK,
            seconds,
            f"No key yet: it is made on first use, in {where}.",
            f"key.none.{place.kind}",
            details=_details(place, None),
        )
    fingerprint = trust.own_fingerprint(store)
    if place.kind == "keyring":
        return Step(
            "signing_key",
            Status.OK,
            seconds,
            f"Kept in the OS keyring; fingerprint {fingerprint}.",
            "key.keyring",
            details=_details(place, fingerprint),
        )
    return Step(
        "signing_key",
        Status.OK,
        seconds,
        f"Kept in the key file {place.path} (no usable keyring), readable by its owner only; "
        f"fingerprint {fingerprint}.",
        "key.file",
        "Whoever can read this file can sign evidence as this installation: keep it, and "
        "copies of it in backups, to yourself.",
        _details(place, fingerprint),
    )


def _details(
    place: object, fingerprint: str | None, problem: str | None = None
) -> dict[str, object]:
    from portal_admin.evidence import keys

    assert isinstance(place, keys.KeyPlace)
    details: dict[str, object] = {"place": place.kind, "fingerprint": fingerprint}
    if place.path is not None:
        details["path"] = str(place.path)
        details["passphrase"] = place.passphrase
    if problem:
        details["problem"] = problem
    return details


async def signing_key_step() -> Step:
    """:func:`check` in a worker thread."""
    return await asyncio.to_thread(check)
