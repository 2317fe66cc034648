"""The proposed fixes of ``bench/patches/``, applied at run time for before/after figures.

``python -m bench.drivers.browse ... --fixes`` measures the program as it would be with the
patches applied, without touching ``src/``. Once the lead applies the patches, this module and
the option can go (applying them twice is harmless meanwhile).
"""

from __future__ import annotations

import time
from functools import lru_cache


def iso(ms: int | None) -> str | None:
    """``sandbox.clock.iso`` without ``datetime.strftime`` (which imports ``time`` on every
    call: through PySide6's import hook once Qt is loaded, 5x slower)."""
    if ms is None:
        return None
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ms // 1000))


def freeze_gc() -> None:
    """What ``bench/patches/0002`` adds after the main window is shown: ``gc.freeze()``."""
    import gc

    gc.freeze()


def apply_sandbox_fixes() -> None:
    """The sandbox half of the patches: faster timestamps and cached enum texts."""
    import sys

    import portal_admin.sandbox.app  # noqa: F401  (every route module imported)
    from portal_admin.sandbox import clock
    from portal_admin.sandbox.i18n import catalog

    original = clock.iso
    for name, module in list(sys.modules.items()):
        if name.startswith("portal_admin.sandbox") and getattr(module, "iso", None) is original:
            module.iso = iso  # type: ignore[attr-defined]
    if not hasattr(catalog.enum_texts, "cache_info"):
        catalog.enum_texts = lru_cache(maxsize=4096)(catalog.enum_texts)
