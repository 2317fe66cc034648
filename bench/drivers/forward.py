"""Driver of the forwarding benchmark (a subprocess of ``bench.bench_forward``).

Writes a journal of N records (a checkpoint every 100), starts rsyslogd with the gtls driver
on a free loopback port (a private CA made with openssl, client certificates required, each
message appended to a file), then times, alternately: ``journal forward --once`` of the whole
journal in RFC 5424 (``Forwarder.run`` from a fresh cursor: the journal streamed, each
record rendered, octet-counted batches written over TLS, the cursor written durably after
each, the receiver's confirmation at the end), against the standard library writing the very
same bytes (rendered beforehand) over the same kind of TLS connection (``ssl`` with the same
context, the same batches, the same end-of-stream confirmation). Then tracemalloc's peak
while forwarding this journal and one a tenth its size. Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import socket
import ssl
import tempfile
import time
import tracemalloc
from pathlib import Path

from tests.siem.receivers import Pki, Rsyslog, make_journal, rsyslogd

from portal_admin.evidence import keys
from portal_admin.evidence.forward import formats
from portal_admin.evidence.forward.destinations import Options, open_destination
from portal_admin.evidence.forward.forwarder import BATCH, Forwarder


def forward(journal: Path, url: str, options: Options, cursors: Path) -> float:
    """Seconds to forward the whole journal from a fresh cursor."""
    for old in cursors.glob("*"):
        old.unlink()
    start = time.perf_counter()
    Forwarder(journal, open_destination(url, options), "rfc5424", cursors=cursors).run()
    return time.perf_counter() - start


def rendered(journal: Path, host: str) -> list[bytes]:
    """The frames the forwarder writes, batch by batch (records only: checkpoints ride along
    in the same batches)."""
    items = [formats.Item("record", json.loads(raw)) for raw in journal.read_bytes().splitlines()]
    frames = [b"%d %s" % (len(m), m) for m in (formats.rfc5424(item, host) for item in items)]
    return [b"".join(frames[i : i + BATCH]) for i in range(0, len(frames), BATCH)]


def plain(batches: list[bytes], port: int, context: ssl.SSLContext) -> float:
    """Seconds to write ``batches`` over one TLS connection with the standard library and
    see the receiver close after the end of the stream."""
    start = time.perf_counter()
    raw = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock = context.wrap_socket(raw, server_hostname="127.0.0.1")
    for batch in batches:
        sock.sendall(batch)
    try:
        plain_raw = sock.unwrap()
        plain_raw.shutdown(socket.SHUT_WR)
        while plain_raw.recv(65536):
            pass
    except (ssl.SSLEOFError, ssl.SSLZeroReturnError):
        pass
    sock.close()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if rsyslogd() is None:
        print(json.dumps({"skipped": "rsyslogd with rsyslog-gnutls is not installed"}))
        return
    with tempfile.TemporaryDirectory(prefix="bench-forward-") as tmp:
        folder = Path(tmp)
        pki = Pki.make(folder / "pki")
        key = keys.signing_key(keys.MemoryStore())
        journal = folder / "big" / "journal.jsonl"
        small = folder / "small" / "journal.jsonl"
        make_journal(journal, args.records, key, hostile=False)
        make_journal(small, max(1, args.records // 10), key, hostile=False)
        receiver = Rsyslog(folder / "rsyslog", pki)
        receiver.start()
        try:
            url = f"syslog+tls://127.0.0.1:{receiver.port}"
            options = Options(str(pki.ca), str(pki.cert("client")), str(pki.key("client")))
            context = ssl.create_default_context(cafile=str(pki.ca))
            context.load_cert_chain(str(pki.cert("client")), str(pki.key("client")))
            batches = rendered(journal, formats.hostname())
            ours: list[float] = []
            theirs: list[float] = []
            for _ in range(args.rounds):
                ours.append(forward(journal, url, options, folder / "cursors"))
                theirs.append(plain(batches, receiver.port, context))
            peaks = []
            for path in (small, journal):
                tracemalloc.start()
                forward(path, url, options, folder / "cursors")
                peaks.append(tracemalloc.get_traced_memory()[1] / (1 << 20))
                tracemalloc.stop()
        finally:
            receiver.stop()
    ours.sort()
    theirs.sort()
    print(
        json.dumps(
            {
                "records": args.records,
                "rounds": args.rounds,
                "bytes": sum(len(b) for b in batches),
                "forward_s": ours[len(ours) // 2],
                "plain_s": theirs[len(theirs) // 2],
                "peak_small_mib": peaks[0],
                "peak_large_mib": peaks[1],
            }
        )
    )


if __name__ == "__main__":
    main()
