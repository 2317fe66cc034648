"""What the accounts list is filtered by."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class AccountFilter:
    """The filters of the account query (empty means "any")."""

    institution: str = ""
    portal: str | None = None
    status: str | None = None
    email: str = ""
    name: str = ""

    def query_kwargs(self) -> dict[str, Any]:
        """Keyword arguments of ``client.accounts.query``."""
        return {
            "institution_biz_id": self.institution.strip() or None,
            "portal": self.portal or None,
            "status": self.status or None,
            "email": self.email.strip() or None,
            "name": self.name.strip() or None,
        }

    @property
    def empty(self) -> bool:
        """True when nothing is filtered."""
        return not any(self.query_kwargs().values())
