"""The desktop program: PySide6 windows, panels, dialogs, item models and services.

Importing this package imports no Qt; each module imports what it needs.
"""
