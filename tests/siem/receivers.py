"""What the forwarding tests send to and read: journals, a private CA (openssl), rsyslog.

``make_journal`` writes a hash-chained journal with signed checkpoints quickly (one write),
as :class:`portal_admin.evidence.journal.Journal` would, with hostile values in it.
``Pki`` makes a CA, a server certificate for 127.0.0.1 and a client certificate with the
openssl command. ``Rsyslog`` runs Debian's rsyslogd in the foreground on a free loopback
port (imtcp with the gtls stream driver, client certificates required, each message's raw
text appended to a file).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from portal_admin.evidence import checkpoints
from portal_admin.evidence.journal import FORMAT, GENESIS, canonical, chain_hash

#: Values a hostile journal may hold: framing, escapes, injection attempts, length.
HOSTILE = [
    'quote " bracket ] backslash \\ end',
    "new\nline\r\nand\x00nul\x1b[31mred",
    '] [portal-admin@32473 seq="999999" hash="' + "f" * 64 + '"',
    "cef|pipe=eq\\ act=hijack suser=root",
    "\u2028line sep\u2029para \u0085nel",
    "x" * 20_000,
    '{"hash": "' + "e" * 64 + '"}\n10 <13>1 injected',
]


def make_journal(
    path: Path,
    count: int,
    key: Ed25519PrivateKey | None,
    *,
    every: int = 100,
    hostile: bool = True,
) -> list[str]:
    """Append ``count`` change records (chained from the file's end) and a checkpoint every
    ``every`` records; returns the hashes of the records written."""
    head, seq = GENESIS, 0
    if path.exists() and path.stat().st_size:
        with path.open("rb") as fh:
            for raw in fh:
                last = raw
        import json

        line = json.loads(last)
        head, seq = line["hash"], line["seq"]
    path.parent.mkdir(parents=True, exist_ok=True)
    lines: list[bytes] = []
    hashes: list[str] = []
    cps: list[dict[str, Any]] = []
    for _ in range(count):
        seq += 1
        body: dict[str, Any] = {
            "kind": "change",
            "time": f"2026-11-28T01:{seq // 60 % 60:02d}:{seq % 60:02d}.000+00:00",
            "operation": "accounts.status",
            "outcome": ("ok", "failed", "unknown")[seq % 3],
            "account": "admin@sandbox.test",
            "targets": [f"U{seq:06d}"],
            "before": {"status": "ACTIVE"},
            "after": {"status": "SUSPENDED"},
            "request_id": f"req-{seq}",
            "seq": seq,
            "segment": 0,
            "format": FORMAT,
        }
        if hostile and seq % 7 == 0:
            value = HOSTILE[(seq // 7) % len(HOSTILE)]
            body["account"] = value
            body["after"] = {"remark": value}
            body["request_id"] = value[:300]
        digest = chain_hash(head, body)
        lines.append(canonical({**body, "prev": head, "hash": digest}) + b"\n")
        hashes.append(digest)
        head = digest
        if key is not None and seq % every == 0:
            cps.append(checkpoints.make(key, seq, head, f"every {every}"))
    with path.open("ab") as fh:
        fh.write(b"".join(lines))
    cp_path = checkpoints.checkpoints_path(path)
    for cp in cps:
        checkpoints.append(cp_path, cp)
    return hashes


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_port(port: int, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on {port}")


@dataclass
class Pki:
    """A private CA and certificates signed by it, made with openssl in ``folder``."""

    folder: Path

    @property
    def ca(self) -> Path:
        return self.folder / "ca.pem"

    def cert(self, name: str) -> Path:
        return self.folder / f"{name}.pem"

    def key(self, name: str) -> Path:
        return self.folder / f"{name}.key"

    @classmethod
    def make(cls, folder: Path) -> Pki:
        folder.mkdir(parents=True, exist_ok=True)
        pki = cls(folder)

        def run(*args: str) -> None:
            subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)

        run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out",
            "ca.pem", "-days", "2", "-subj", "/CN=portal-admin test CA")  # fmt: skip
        for name, ext in (
            ("server", "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth"),
            ("client", "extendedKeyUsage=clientAuth"),
        ):
            (folder / f"{name}.ext").write_text(ext + "\n")
            run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{name}.key", "-out",
                f"{name}.csr", "-subj", f"/CN={name}")  # fmt: skip
            run("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
                "-CAcreateserial", "-out", f"{name}.pem", "-days", "2", "-extfile",
                f"{name}.ext")  # fmt: skip
        return pki


def rsyslogd() -> str | None:
    """The rsyslogd program when it and its gtls driver are installed."""
    found = shutil.which("rsyslogd") or (
        "/usr/sbin/rsyslogd" if Path("/usr/sbin/rsyslogd").exists() else None
    )
    if found is None:
        return None
    drivers = list(Path("/usr/lib").glob("*/rsyslog/lmnsd_gtls.so")) + list(
        Path("/usr/lib/rsyslog").glob("lmnsd_gtls.so")
    )
    return found if drivers else None


CONFIG = """\
global(
  workDirectory="{work}"
  maxMessageSize="64k"
  defaultNetstreamDriver="gtls"
  defaultNetstreamDriverCAFile="{ca}"
  defaultNetstreamDriverCertFile="{cert}"
  defaultNetstreamDriverKeyFile="{key}"
)
module(load="imtcp" StreamDriver.Name="gtls" StreamDriver.Mode="1"
       StreamDriver.AuthMode="{auth}")
template(name="raw" type="string" string="%rawmsg%\\n")
ruleset(name="forwarded") {{
  action(type="omfile" file="{out}" template="raw")
}}
input(type="imtcp" address="127.0.0.1" port="{port}" ruleset="forwarded")
"""


class Rsyslog:
    """rsyslogd in the foreground (``-n -f CONF -i PIDFILE``), receiving over TLS on loopback."""

    def __init__(self, folder: Path, pki: Pki, *, auth: str = "x509/certvalid") -> None:
        self.folder = folder
        self.port = free_port()
        self.out = folder / "received.log"
        self.conf = folder / "rsyslog.conf"
        self.pid = folder / "rsyslog.pid"
        (folder / "work").mkdir(parents=True, exist_ok=True)
        self.conf.write_text(
            CONFIG.format(
                work=folder / "work", ca=pki.ca, cert=pki.cert("server"),
                key=pki.key("server"), auth=auth, out=self.out, port=self.port,
            )
        )  # fmt: skip
        self.process: subprocess.Popen[bytes] | None = None
        self.log = folder / "rsyslogd.log"

    def start(self) -> None:
        program = rsyslogd()
        assert program is not None
        self.pid.unlink(missing_ok=True)
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [program, "-n", "-f", str(self.conf), "-i", str(self.pid)],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        try:
            wait_port(self.port)
        except TimeoutError:
            self.stop()
            raise AssertionError("rsyslogd did not start: " + self.log.read_text()) from None

    def stop(self) -> None:
        """SIGTERM and wait: rsyslogd writes out what it holds and exits."""
        process, self.process = self.process, None
        if process is None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def received(self) -> list[str]:
        if not self.out.exists():
            return []
        raw = self.out.read_bytes()
        return [line.decode("utf-8", "replace") for line in raw.split(b"\n") if line]


@contextlib.contextmanager
def running(receiver: Rsyslog) -> Iterator[Rsyslog]:
    receiver.start()
    try:
        yield receiver
    finally:
        receiver.stop()


_HASH = re.compile(r' hash="([0-9a-f]{64})"')
_SIGNATURE = re.compile(r' signature="([A-Za-z0-9+/=]+)"')


def count_rfc5424(lines: list[str]) -> tuple[Counter[str], Counter[str]]:
    """How often each record (by hash) and each checkpoint (by signature) arrived."""
    records: Counter[str] = Counter()
    cps: Counter[str] = Counter()
    for line in lines:
        if line.startswith("<") and " checkpoint [" in line:
            found = _SIGNATURE.search(line)
            assert found, line[:200]
            cps[found.group(1)] += 1
        else:
            found = _HASH.search(line)
            assert found, line[:200]
            records[found.group(1)] += 1
    return records, cps


def signatures(journal: Path) -> list[str]:
    return [
        str(line["signature"]) for line in checkpoints.lines(checkpoints.checkpoints_path(journal))
    ]


def env_for(data: Path) -> dict[str, str]:
    """The environment of a forwarder subprocess keeping its cursors under ``data``."""
    return {**os.environ, "XDG_DATA_HOME": str(data)}
