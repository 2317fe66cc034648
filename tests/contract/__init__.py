"""Black-box contract suite for `portal-sandbox serve` (see docs/contract-findings.md)."""
