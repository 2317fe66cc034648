"""The demo accounts every sandbox is seeded with (README.md lists them)."""

from __future__ import annotations

ADMIN_EMAIL = "admin@sandbox.test"
ADMIN_PASSWORD = "Sandbox-Admin-2026!"
AUDITOR_EMAIL = "auditor@sandbox.test"
AUDITOR_PASSWORD = "Sandbox-Audit-2026!"
APPROVAL_EMAIL = "approval@sandbox.test"
APPROVAL_PASSWORD = "Sandbox-Approval-2026!"
NEWUSER_EMAIL = "newuser@sandbox.test"

#: (email, password) of each account that has a password.
ADMIN = (ADMIN_EMAIL, ADMIN_PASSWORD)
AUDITOR = (AUDITOR_EMAIL, AUDITOR_PASSWORD)
APPROVAL = (APPROVAL_EMAIL, APPROVAL_PASSWORD)
#: No password yet (it sets one first): the address alone.
NEWUSER = NEWUSER_EMAIL
