"""IP whitelist entries: validation as you type and the self-lockout check (pure, no Qt)."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

IpNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


class EntryKind(StrEnum):
    """What a valid entry is."""

    IPV4 = "ipv4"
    IPV6 = "ipv6"
    IPV4_NETWORK = "ipv4-network"
    IPV6_NETWORK = "ipv6-network"


class Problem(StrEnum):
    """Why an entry is refused (the panel translates these)."""

    EMPTY = "empty"
    TOO_LONG = "too-long"
    HOST_BITS = "host-bits"
    BAD_PREFIX = "bad-prefix"
    NOT_AN_ADDRESS = "not-an-address"


#: The server refuses longer entries.
MAX_ENTRY_LENGTH = 64


@dataclass(frozen=True, slots=True)
class EntryCheck:
    """The outcome of checking one entry."""

    text: str
    kind: EntryKind | None = None
    problem: Problem | None = None
    #: The canonical form the server will store (``192.0.2.1/32`` -> ``192.0.2.1``).
    canonical: str | None = None

    @property
    def valid(self) -> bool:
        """True when the entry is an address or a network."""
        return self.problem is None

    def network(self) -> IpNetwork | None:
        """The entry as a network (a single address is a /32 or /128)."""
        if self.canonical is None:
            return None
        return ipaddress.ip_network(self.canonical, strict=True)


def check_entry(raw: str) -> EntryCheck:
    """Check ``raw`` as an IPv4 or IPv6 address, or a CIDR network without host bits."""
    text = raw.strip()
    if not text:
        return EntryCheck(raw, problem=Problem.EMPTY)
    if len(text) > MAX_ENTRY_LENGTH:
        return EntryCheck(raw, problem=Problem.TOO_LONG)
    if "/" not in text:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            return EntryCheck(raw, problem=Problem.NOT_AN_ADDRESS)
        kind = EntryKind.IPV4 if address.version == 4 else EntryKind.IPV6
        return EntryCheck(raw, kind=kind, canonical=str(address))
    address_part = text.partition("/")[0]
    try:
        ipaddress.ip_address(address_part)
    except ValueError:
        return EntryCheck(raw, problem=Problem.NOT_AN_ADDRESS)
    try:
        network = ipaddress.ip_network(text, strict=True)
    except ipaddress.NetmaskValueError:
        return EntryCheck(raw, problem=Problem.BAD_PREFIX)
    except ValueError:
        try:
            ipaddress.ip_network(text, strict=False)
        except ValueError:
            return EntryCheck(raw, problem=Problem.BAD_PREFIX)
        return EntryCheck(raw, problem=Problem.HOST_BITS)
    if network.num_addresses == 1:
        kind = EntryKind.IPV4 if network.version == 4 else EntryKind.IPV6
        return EntryCheck(raw, kind=kind, canonical=str(network.network_address))
    kind = EntryKind.IPV4_NETWORK if network.version == 4 else EntryKind.IPV6_NETWORK
    return EntryCheck(raw, kind=kind, canonical=str(network))


def covers(entries: Iterable[str], address: str | None) -> bool:
    """True when some valid entry contains ``address`` (False for an unknown address)."""
    if not address:
        return False
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        candidates: tuple[ipaddress.IPv4Address | ipaddress.IPv6Address, ...] = (
            ip,
            ip.ipv4_mapped,
        )
    else:
        candidates = (ip,)
    for entry in entries:
        network = check_entry(entry).network()
        if network is None:
            continue
        if any(c.version == network.version and c in network for c in candidates):
            return True
    return False
