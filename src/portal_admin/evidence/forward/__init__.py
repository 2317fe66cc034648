"""Forwarding the journal to a SIEM: formats, destinations, per-destination cursors (no Qt).

``journal forward`` (``portal-admin-cli``) streams the journal's records and signed
checkpoints to a destination (syslog over TLS or TCP, a file, Splunk's HTTP Event Collector)
and remembers, per destination, the last record the destination accepted as (seq, hash):
see docs/siem.md.
"""
