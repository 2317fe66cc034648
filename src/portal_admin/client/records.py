"""The client's records: the protocol's response models (``portal_admin.protocol.records``),
under the name the client's public API has always used."""

from portal_admin.protocol.records import *  # noqa: F403
from portal_admin.protocol.records import __all__ as __all__
