"""What a server's certificate says, in plain words (``cryptography``'s X.509 reader)."""

from __future__ import annotations

import ipaddress
import ssl
from datetime import UTC, datetime
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.x509.oid import NameOID

#: ``_ssl.Certificate.public_bytes`` format (``ssl.ENCODING_DER`` from Python 3.13).
_DER: int = getattr(ssl, "ENCODING_DER", getattr(ssl, "_ssl").ENCODING_DER)  # noqa: B009


def _name(name: x509.Name) -> str:
    common = name.get_attributes_for_oid(NameOID.COMMON_NAME)
    if common:
        return str(common[0].value)
    return name.rfc4514_string() or "(no name)"


def _san(cert: x509.Certificate) -> list[str]:
    try:
        ext = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return []
    names: list[str] = list(ext.get_values_for_type(x509.DNSName))
    names += [str(ip) for ip in ext.get_values_for_type(x509.IPAddress)]
    return names


def _matches(host: str, names: list[str]) -> bool:
    """RFC 6125 in short: exact names, or one leading ``*.`` label; IPs exactly."""
    host = host.strip("[]").lower().rstrip(".")
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        address = None
    for name in names:
        name = name.lower().rstrip(".")
        if address is not None:
            try:
                if ipaddress.ip_address(name) == address:
                    return True
            except ValueError:
                continue
        elif name == host or (
            name.startswith("*.") and "." in host and host.split(".", 1)[1] == name[2:]
        ):
            return True
    return False


def describe_certificate(der: bytes, host: str, now: datetime | None = None) -> dict[str, Any]:
    """Subject, issuer, validity, names, whether it names ``host``, and its fingerprint."""
    cert = x509.load_der_x509_certificate(der)
    moment = now or datetime.now(UTC)
    names = _san(cert)
    not_after = cert.not_valid_after_utc
    return {
        "subject": _name(cert.subject),
        "issuer": _name(cert.issuer),
        "selfSigned": cert.subject == cert.issuer,
        "notBefore": cert.not_valid_before_utc.isoformat(),
        "notAfter": not_after.isoformat(),
        "daysLeft": (not_after - moment).days,
        "names": names,
        "namesHost": _matches(host, names),
        "sha256": cert.fingerprint(hashes.SHA256()).hex(":"),
    }


def verified_chain(tls: Any) -> list[str]:
    """The verified chain, leaf first, as "subject (issuer)", when Python can tell it."""
    getter = getattr(tls, "get_verified_chain", None)
    if getter is None:  # Python < 3.13 has it on the private object only
        getter = getattr(getattr(tls, "_sslobj", None), "get_verified_chain", None)
    if getter is None:
        return []
    chain: list[str] = []
    try:
        for item in getter() or []:
            der = item if isinstance(item, bytes) else item.public_bytes(_DER)
            cert = x509.load_der_x509_certificate(der)
            chain.append(f"{_name(cert.subject)} (issued by {_name(cert.issuer)})")
    except (ValueError, TypeError, AttributeError):
        return []
    return chain
