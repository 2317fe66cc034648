"""Where and how to connect, with no Qt: connection profiles and the built-in sandbox.

Shared by ``ui/`` and ``cli/``.
"""
