"""Scenario tests: the real program walked as a person walks it (``driver.py``).

- ``test_administrator.py``: the administrator's path in English.
- ``test_auditor.py``: the auditor's path in Japanese, in the kiosk.

Each runs with no keyring (keyring's fail backend, in this process) and with gnome-keyring in
a private dbus session (a child pytest run, ``keyrings.py``; skipped when the tools are
missing). Set ``PORTAL_ADMIN_SCENARIO_SHOTS=DIR`` to save pictures of the key moments; the
walks then also run in the other language for them. Each walk prints its steps and their
times (``-s``).
"""
