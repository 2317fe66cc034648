"""The wire, described once: envelope, errors, enums, pages, operations, Secure Channel codec.

Pure: no I/O, no Qt. Shared by ``portal_admin.client`` and ``portal_admin.sandbox``.
"""
