"""Area modules: each exposes ``router`` and optionally ``SCHEMA`` and ``seed(ctx)``.

The list of areas is ``portal_admin.sandbox.app.AREAS``; see docs/sandbox.md.
"""
