"""portal-admin: desktop administration for the System Portal."""

__version__ = "0.1.0"
