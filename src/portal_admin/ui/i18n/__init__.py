"""Languages: the codes (Qt-free), the translators and .qm files, and text helpers.

This package's ``__init__`` imports nothing, so that the Qt-free start-up options can read
the language codes.
"""
