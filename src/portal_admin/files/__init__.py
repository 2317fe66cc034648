"""Files the program keeps, with no Qt: where they live, atomic writes, the CSV export rules.

Shared by ``ui/``, ``jobs/``, ``evidence/`` and ``cli/``.
"""
