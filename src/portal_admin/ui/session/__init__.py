"""The active connection: one API client per profile, adapted to Qt signals.

``ClientService`` owns the ``PortalClient``; ``sandbox_factory`` is the only place the UI
reaches the built-in sandbox (imported lazily); ``sandbox_tools`` wraps the sandbox-only
endpoints (mailbox, authenticator code, clock) used by the demo.
"""
