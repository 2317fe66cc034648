"""Connection profiles in the desktop program: the store's adapter (:mod:`store`), the editor,
the menu's actions, and import/export.
"""
