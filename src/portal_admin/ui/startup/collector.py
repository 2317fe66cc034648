"""How the program uses Python's cyclic garbage collector.

A full (generation 2) collection walks every tracked object, and its pause grows with them: with
the program's own start-up objects (about 100,000) and thousands of loaded rows, one pass
stalled the event loop for 60-140 ms. Two measures keep those passes short
(docs/performance.md):

- once the main window is shown, everything alive (modules, Qt wrappers, the window) lives as
  long as the program: :func:`keep_out_of_full_collections` moves it to the permanent
  generation, which full passes skip;
- loaded rows are light: the client shares enum items and timestamp zones between records
  (``client/records.py``), three tracked objects per account instead of nine.
"""

from __future__ import annotations

import gc


def keep_out_of_full_collections() -> None:
    """Exclude every object alive now from future full collections (``gc.freeze``).

    Call once, when the main window has been shown. Objects frozen are still freed by reference
    counting; only a reference cycle among them that becomes garbage later is kept.
    """
    gc.freeze()
