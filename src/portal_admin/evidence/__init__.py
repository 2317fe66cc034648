"""Evidence for auditors, with no Qt: the journal of changes (``journal``), and what records
the client's changes into it (``recorder``). See docs/evidence.md.
"""
