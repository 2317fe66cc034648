"""Kiosk mode: a read-only session for auditors that the workstation cannot leave.

- :mod:`.policy`: the machine-wide policy file (no Qt; read before Qt starts).
- :mod:`.guard`: hides every mutating control (the dynamic property ``operationId``).
- :mod:`.marking`: the read-only marking of CSV exports and screenshots.

See ``docs/kiosk.md``.
"""
