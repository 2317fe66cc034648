"""Black-box helpers for the contract suite.

Everything here is written from the documents in ``/work/shared/spec`` alone:
``sandbox-contract.md``, ``system-portal-api.md`` and ``secure-channel-profile.md``. Nothing is
imported from ``portal_admin``: the Secure Channel client below is an independent
implementation of the profile page, so that a mistake shared by the project's codec and its
sandbox cannot hide.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import queue
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

# -- Constants from the documents --------------------------------------------------------------

ACCESS_CODE = "SANDBOX"
CLIENT_HASH = "contract-suite-client-hash"
SYS = "/web/v1/system"
SC = "/web/v1/secure-channel"

ADMIN_EMAIL, ADMIN_PASSWORD = "admin@sandbox.test", "Sandbox-Admin-2026!"
AUDITOR_EMAIL, AUDITOR_PASSWORD = "auditor@sandbox.test", "Sandbox-Audit-2026!"
APPROVAL_EMAIL, APPROVAL_PASSWORD = "approval@sandbox.test", "Sandbox-Approval-2026!"
NEWUSER_EMAIL = "newuser@sandbox.test"

EMAIL_METHOD = 10011001
OTP_METHOD = 10011002
METHODS = {"EMAIL": EMAIL_METHOD, "OTP": OTP_METHOD}

LISTENING_RE = re.compile(
    r"^Sandbox listening on http://(?P<host>\[[0-9A-Fa-f:.]+\]|[^\s:/\[\]]+):(?P<port>\d+)$"
)

LANGUAGES = ("en", "zh", "zh-Hant", "ja", "vi")

CONSTANT_LISTS = (
    "countries",
    "currency-config-statuses",
    "notification-channel-statuses",
    "notification-channel-type-statuses",
    "notification-channel-types",
    "order-statuses",
    "timezones",
    "transfer-statuses",
    "us-states",
    "user-account-statuses",
    "user-institution-statuses",
    "user-institution-types",
    "user-invitation-statuses",
    "user-portal-types",
    "user-workspace-statuses",
    "user-join-sources",
)

# -- Starting and stopping the real command -----------------------------------------------------


def sandbox_command() -> list[str]:
    """The `portal-sandbox` script next to the interpreter, else the module form.

    ``PORTAL_SANDBOX_CMD`` (a shell-style command line) overrides both, to hold another
    implementation to the same contract.
    """
    override = os.environ.get("PORTAL_SANDBOX_CMD")
    if override:
        return shlex.split(override)
    script = Path(sys.executable).parent / "portal-sandbox"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "portal_admin.sandbox.cli"]


class SandboxProcess:
    """One `portal-sandbox serve ...` subprocess, its output drained by threads."""

    def __init__(
        self,
        args: Iterable[str],
        *,
        env: Mapping[str, str] | None = None,
        wait: bool = True,
        timeout: float = 90.0,
    ) -> None:
        self.args = ["serve", *args]
        full_env = dict(os.environ)
        full_env["PYTHONUNBUFFERED"] = "1"
        if env:
            full_env.update(env)
        self.proc = subprocess.Popen(
            [*sandbox_command(), *self.args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
            errors="replace",
            bufsize=1,
            env=full_env,
        )
        self.stdout_lines: list[str] = []
        self.stderr_lines: list[str] = []
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._threads = [
            threading.Thread(target=self._drain, args=(self.proc.stdout, True), daemon=True),
            threading.Thread(target=self._drain, args=(self.proc.stderr, False), daemon=True),
        ]
        for thread in self._threads:
            thread.start()
        self.listening_line: str | None = None
        self.host = ""
        self.port = 0
        self.stopped_rc: int | None = None
        if wait:
            line = self.wait_listening(timeout)
            if line is None:
                self.kill()
                raise RuntimeError(
                    f"sandbox did not print its listening line: {self.args}\n"
                    f"stdout: {self.stdout_text()}\nstderr: {self.stderr_text()}"
                )

    def _drain(self, stream: Any, is_stdout: bool) -> None:
        for raw in stream:
            line = raw.rstrip("\r\n")
            if is_stdout:
                self.stdout_lines.append(line)
                self._lines.put(line)
            else:
                self.stderr_lines.append(line)
        if is_stdout:
            self._lines.put(None)

    def wait_listening(self, timeout: float) -> str | None:
        """Read stdout until the listening line; None when it never comes."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            try:
                line = self._lines.get(timeout=min(remaining, 0.5))
            except queue.Empty:
                continue
            if line is None:
                return None
            match = LISTENING_RE.match(line.strip())
            if match:
                self.listening_line = line
                self.host = match["host"]
                self.port = int(match["port"])
                return line

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def stdout_text(self) -> str:
        return "\n".join(self.stdout_lines)

    def stderr_text(self) -> str:
        return "\n".join(self.stderr_lines)

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 20.0) -> int:
        """Send ``sig`` and wait; the exit status (killed and -9 if it does not stop)."""
        if self.stopped_rc is None and self.proc.poll() is None:
            self.proc.send_signal(sig)
        return self.wait_exit(timeout)

    def wait_exit(self, timeout: float = 20.0) -> int:
        """Wait for an exit already asked for (no second signal); -9 when it does not come."""
        if self.stopped_rc is not None:
            return self.stopped_rc
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            self.stopped_rc = -9
            return -9
        self._close_streams()
        self.stopped_rc = self.proc.returncode
        return self.stopped_rc

    def _close_streams(self) -> None:
        for thread in self._threads:
            thread.join(timeout=5)
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=10)
        self._close_streams()

    def api(self, **kwargs: Any) -> Api:
        return Api(self.base_url, **kwargs)


def assert_clean_exit(sandbox: SandboxProcess, rc: int) -> None:
    assert rc == 0, (
        f"sandbox did not stop cleanly (exit status {rc})\nstderr:\n{sandbox.stderr_text()}"
    )
    assert "Traceback" not in sandbox.stderr_text(), sandbox.stderr_text()


# -- HTTP helpers -------------------------------------------------------------------------------


class Api:
    """A sync httpx client sending the headers the contract requires, each one removable."""

    def __init__(
        self,
        base_url: str,
        *,
        access_code: str = ACCESS_CODE,
        client_hash: str = CLIENT_HASH,
        language: str | None = "en",
    ) -> None:
        self.base_url = base_url
        self.base_headers: dict[str, str] = {
            "X-PORTAL-ACCESS-CODE": access_code,
            "X-Client-Hash": client_hash,
            "Accept": "application/json",
        }
        if language is not None:
            self.base_headers["Accept-Language"] = language
        self.client = httpx.Client(base_url=base_url, timeout=60.0)

    def close(self) -> None:
        self.client.close()

    def request(
        self,
        method: str,
        path: str,
        *,
        token: str | None = None,
        json_body: Any = None,
        content: bytes | str | None = None,
        params: Any = None,
        headers: Mapping[str, str] | None = None,
        drop: Iterable[str] = (),
    ) -> httpx.Response:
        dropped = {name.lower() for name in drop}
        merged = {k: v for k, v in self.base_headers.items() if k.lower() not in dropped}
        if token is not None:
            merged["Authorization"] = f"Bearer {token}"
        if json_body is not None and content is None:
            content = json.dumps(json_body)
            merged.setdefault("Content-Type", "application/json")
        if headers:
            merged.update(headers)
        return self.client.request(method, path, content=content, params=params, headers=merged)

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, body: Any = None, **kwargs: Any) -> httpx.Response:
        return self.request("POST", path, json_body=body, **kwargs)


ENVELOPE_KEYS = {"version", "timestamp", "success", "code", "message", "data"}


def parse_json(resp: httpx.Response) -> Any:
    assert "Traceback" not in resp.text, resp.text
    try:
        return resp.json()
    except ValueError as exc:  # pragma: no cover - reported as a failure
        raise AssertionError(
            f"{resp.request.method} {resp.request.url}: not JSON ({resp.status_code}): "
            f"{resp.text[:500]!r}"
        ) from exc


def check_envelope(env: Any, where: str = "") -> dict[str, Any]:
    """The envelope of section 2.1, with every field (the sandbox sends them all)."""
    assert isinstance(env, dict), f"{where}: envelope is not an object: {env!r}"
    missing = ENVELOPE_KEYS - env.keys()
    assert not missing, f"{where}: envelope lacks {sorted(missing)}: {env!r}"
    assert env["version"] == "2.0.0", f"{where}: version {env['version']!r}"
    assert isinstance(env["timestamp"], int) and not isinstance(env["timestamp"], bool), env
    assert env["timestamp"] > 10**12, f"{where}: timestamp is not epoch milliseconds: {env!r}"
    assert isinstance(env["success"], bool), env
    assert isinstance(env["code"], str), f"{where}: code is not a string: {env!r}"
    assert isinstance(env["message"], str), env
    return env


def envelope(resp: httpx.Response) -> dict[str, Any]:
    where = f"{resp.request.method} {resp.request.url.path}"
    return check_envelope(parse_json(resp), where)


def ok(resp: httpx.Response) -> Any:
    """Assert a 200 success envelope and return its data."""
    where = f"{resp.request.method} {resp.request.url.path}"
    assert resp.status_code == 200, f"{where}: HTTP {resp.status_code}: {resp.text[:800]}"
    env = envelope(resp)
    assert env["success"] is True, f"{where}: {env!r}"
    assert env["code"] == "2000", f"{where}: {env!r}"
    return env["data"]


def check_error_envelope(
    env: dict[str, Any], status: int, expect_status: int | None, codes: str | Iterable[str] | None
) -> dict[str, Any]:
    check_envelope(env)
    if expect_status is None:
        assert 400 <= status < 500, f"expected a 4xx, got HTTP {status}: {env!r}"
    else:
        assert status == expect_status, f"expected HTTP {expect_status}, got {status}: {env!r}"
    assert env["success"] is False, env
    assert env["data"] is None, f"data is not null on an error: {env!r}"
    if codes is not None:
        allowed = {codes} if isinstance(codes, str) else set(codes)
        assert env["code"] in allowed, f"expected code {sorted(allowed)}, got {env!r}"
    # Spec 2.1: "error text is human-readable" - not empty, and not merely the code again.
    assert env["message"].strip(), f"empty error message: {env!r}"
    assert env["message"] != env["code"], f"error message is just the code: {env!r}"
    return env


def error(
    resp: httpx.Response,
    status: int | None = None,
    code: str | Iterable[str] | None = None,
) -> dict[str, Any]:
    """Assert an error envelope (HTTP ``status``, or any 4xx when None) with ``code``."""
    assert "Traceback" not in resp.text and 'File "' not in resp.text, resp.text
    return check_error_envelope(envelope(resp), resp.status_code, status, code)


def parse_iso(value: Any) -> datetime:
    assert isinstance(value, str), f"not an ISO 8601 string: {value!r}"
    text = value[:-1] + "+00:00" if value.endswith("Z") else value
    return datetime.fromisoformat(text)


def is_enum_item(item: Any, *, with_description: bool = False) -> None:
    assert isinstance(item, dict), item
    assert isinstance(item.get("code"), str) and item["code"], item
    assert isinstance(item.get("value"), int) and not isinstance(item["value"], bool), item
    assert isinstance(item.get("label"), str) and item["label"], item
    if with_description or "description" in item:
        assert isinstance(item.get("description"), str), item


PAGINATION_A = {
    "totalPages",
    "totalRecords",
    "currentPage",
    "pageSize",
    "hasNext",
    "empty",
    "paginated",
}


def check_shape_a(data: dict[str, Any]) -> None:
    assert {"items", "pagination"} <= set(data), data
    assert isinstance(data["items"], list)
    pagination = data["pagination"]
    assert set(pagination) >= PAGINATION_A, pagination
    for name in ("totalPages", "totalRecords", "currentPage", "pageSize"):
        assert isinstance(pagination[name], int) and not isinstance(pagination[name], bool)
    for name in ("hasNext", "empty", "paginated"):
        assert isinstance(pagination[name], bool)
    assert pagination["currentPage"] >= 1
    assert pagination["empty"] is (len(data["items"]) == 0)


# -- The sandbox-only endpoints and the login sequence -----------------------------------------


def mailbox(api: Api, to: str) -> list[dict[str, Any]]:
    data = ok(api.client.get("/sandbox/mailbox", params={"to": to}))
    assert isinstance(data, list), data
    return data


def latest_code(api: Api, to: str) -> str:
    for message in mailbox(api, to):
        if message.get("code"):
            return str(message["code"])
    raise AssertionError(f"no MFA code in the mailbox of {to}")


def latest_token(api: Api, to: str) -> str:
    for message in mailbox(api, to):
        if message.get("token"):
            return str(message["token"])
    raise AssertionError(f"no reset token in the mailbox of {to}")


def totp_code(api: Api, email: str) -> str:
    data = ok(api.client.get("/sandbox/totp", params={"email": email}))
    return str(data["code"])


def forgot(api: Api, email: str, *, sc: ScClient | None = None) -> httpx.Response:
    """Forgot-password: a plain body that also carries the Secure Channel headers."""
    if sc is None:
        sc = ScClient(api)
        sc.open_session()
    headers = {
        "X-SC-Version": "2",
        "X-SC-Session-Id": sc.session_id or "",
        "X-Challenge-Token": "sandbox-challenge",
    }
    return api.post(
        f"{SYS}/auth/password/forgot",
        {"email": email, "challengeToken": "sandbox-challenge"},
        headers=headers,
    )


def advance_clock(api: Api, seconds: int) -> datetime:
    data = ok(api.client.post("/sandbox/clock/advance", json={"seconds": seconds}))
    return parse_iso(data["now"])


def initiate(api: Api, email: str, password: str) -> dict[str, Any]:
    data = ok(api.post(f"{SYS}/auth/login/initiate", {"email": email, "password": password}))
    assert isinstance(data, dict)
    return data


def send_code(api: Api, session_id: str) -> dict[str, Any]:
    data = ok(api.post(f"{SYS}/auth/login/mfa/send", {"sessionId": session_id, "method": 10011001}))
    assert isinstance(data, dict)
    return data


def complete(api: Api, session_id: str, method: int, code: str) -> httpx.Response:
    return api.post(
        f"{SYS}/auth/login/complete", {"sessionId": session_id, "method": method, "code": code}
    )


@dataclass
class Tokens:
    access: str
    refresh: str
    data: dict[str, Any]


def login(api: Api, email: str, password: str, method: str = "EMAIL") -> Tokens:
    """The whole login sequence: initiate, (send,) read the code, complete."""
    started = initiate(api, email, password)
    session_id = started["sessionId"]
    if method == "EMAIL":
        send_code(api, session_id)
        code = latest_code(api, email)
    else:
        code = totp_code(api, email)
    data = ok(complete(api, session_id, METHODS[method], code))
    return Tokens(data["accessToken"], data["refreshToken"], data)


# -- Secure Channel v2, from secure-channel-profile.md alone -----------------------------------


def _oaep(hash_alg: hashes.HashAlgorithm, mgf_hash: hashes.HashAlgorithm) -> padding.OAEP:
    return padding.OAEP(mgf=padding.MGF1(algorithm=mgf_hash), algorithm=hash_alg, label=None)


def rsa_padding(algorithm: str) -> padding.AsymmetricPadding:
    """The RSA padding each advertised name means (profile, "Public key")."""
    if algorithm == "RSA-OAEP-256":
        return _oaep(hashes.SHA256(), hashes.SHA256())
    if algorithm == "RSA/ECB/OAEPWithSHA-256AndMGF1Padding":
        return _oaep(hashes.SHA256(), hashes.SHA1())
    if algorithm == "RSA-OAEP":
        return _oaep(hashes.SHA1(), hashes.SHA1())
    if algorithm in ("RSA1_5", "RSA/ECB/PKCS1Padding"):
        return padding.PKCS1v15()
    raise ValueError(f"unknown Secure Channel algorithm {algorithm!r}")


def b64url(data: bytes, *, pad: bool = False) -> str:
    text = base64.urlsafe_b64encode(data).decode("ascii")
    return text if pad else text.rstrip("=")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


MAGIC = b"SC"
TYPE_KEY_EXCHANGE = 1
TYPE_DATA = 2
TYPE_RESPONSE = 129
SC_CONTENT_TYPE = "application/json;charset=UTF-8"


class ScClient:
    """A Secure Channel v2 client session."""

    def __init__(self, api: Api) -> None:
        self.api = api
        self.key_id = ""
        self.public_key: rsa.RSAPublicKey | None = None
        self.algorithm = ""
        self.public_key_data: dict[str, Any] = {}
        self.request_key = os.urandom(32)
        self.response_key = os.urandom(32)
        self.session_id: str | None = None
        self.expires_in: int | None = None
        self.last_iv = b""

    # public key and key exchange

    def fetch_public_key(self) -> dict[str, Any]:
        data = ok(self.api.get(f"{SC}/public-key"))
        assert isinstance(data, dict), data
        self.public_key_data = data
        self.key_id = data["keyId"]
        self.algorithm = data["algorithm"]
        der = base64.b64decode(data["publicKey"], validate=True)
        key = serialization.load_der_public_key(der)
        assert isinstance(key, rsa.RSAPublicKey), type(key)
        self.public_key = key
        return data

    def wrap(self, key: bytes, algorithm: str | None = None) -> bytes:
        if self.public_key is None:
            self.fetch_public_key()
        assert self.public_key is not None
        return self.public_key.encrypt(key, rsa_padding(algorithm or self.algorithm))

    @staticmethod
    def seal_payload(key: bytes, plaintext: bytes, iv: bytes | None = None) -> bytes:
        iv = os.urandom(12) if iv is None else iv
        return iv + AESGCM(key).encrypt(iv, plaintext, None)

    def key_exchange(
        self,
        plaintext: bytes = b"{}",
        *,
        key_id: str | None = None,
        wrapped_request: bytes | None = None,
        wrapped_response: bytes | None = None,
        iv: bytes | None = None,
        magic: bytes = MAGIC,
        version: int = 2,
        msg_type: int = TYPE_KEY_EXCHANGE,
        algorithm: str | None = None,
    ) -> bytes:
        """The binary type-1 envelope."""
        if self.public_key is None:
            self.fetch_public_key()
        kid = (self.key_id if key_id is None else key_id).encode("utf-8")
        wreq = (
            self.wrap(self.request_key, algorithm) if wrapped_request is None else wrapped_request
        )
        wresp = (
            self.wrap(self.response_key, algorithm)
            if wrapped_response is None
            else wrapped_response
        )
        payload = self.seal_payload(self.request_key, plaintext, iv)
        self.last_iv = payload[:12]
        return (
            magic
            + bytes([version, msg_type, len(kid)])
            + kid
            + len(wreq).to_bytes(2, "big")
            + wreq
            + len(wresp).to_bytes(2, "big")
            + wresp
            + payload
        )

    def data_envelope(
        self,
        obj: Any,
        *,
        iv: bytes | None = None,
        magic: bytes = MAGIC,
        version: int = 2,
        msg_type: int = TYPE_DATA,
        key: bytes | None = None,
        raw: bytes | None = None,
    ) -> bytes:
        """The binary type-2 envelope for ``obj`` (JSON) or ``raw`` plaintext bytes."""
        plaintext = raw if raw is not None else json.dumps(obj).encode("utf-8")
        payload = self.seal_payload(key or self.request_key, plaintext, iv)
        self.last_iv = payload[:12]
        return magic + bytes([version, msg_type]) + payload

    @staticmethod
    def body(binary: bytes, *, pad: bool = False, v: Any = 2) -> dict[str, Any]:
        return {"v": v, "p": b64url(binary, pad=pad)}

    def headers(
        self, session_id: str | None = None, *, with_session: bool = True
    ) -> dict[str, str]:
        headers = {"Content-Type": SC_CONTENT_TYPE, "X-SC-Version": "2"}
        sid = session_id if session_id is not None else self.session_id
        if with_session and sid is not None:
            headers["X-SC-Session-Id"] = sid
        return headers

    # sending

    def send_raw(
        self,
        path: str,
        body: Any,
        *,
        headers: Mapping[str, str] | None = None,
        token: str | None = None,
        drop: Iterable[str] = (),
    ) -> httpx.Response:
        content = body if isinstance(body, bytes | str) else json.dumps(body)
        return self.api.request(
            "POST", path, content=content, headers=headers, token=token, drop=drop
        )

    def create_session_raw(
        self, token: str | None = None, **envelope_kwargs: Any
    ) -> httpx.Response:
        binary = self.key_exchange(**envelope_kwargs)
        return self.send_raw(
            f"{SC}/session",
            self.body(binary),
            headers=self.headers(with_session=False),
            token=token,
        )

    def open_session(self, token: str | None = None) -> str:
        resp = self.create_session_raw(token=token)
        assert resp.status_code == 200, f"session creation: HTTP {resp.status_code} {resp.text}"
        env = self.open_response(resp)
        assert env["success"] is True and env["code"] == "2000", env
        data = env["data"]
        assert isinstance(data, dict), env
        assert isinstance(data.get("sessionId"), str) and data["sessionId"], env
        self.session_id = data["sessionId"]
        self.expires_in = data.get("expiresIn")
        return data["sessionId"]

    def send(
        self,
        path: str,
        obj: Any,
        *,
        token: str | None = None,
        session_id: str | None = None,
        iv: bytes | None = None,
        pad: bool = False,
    ) -> httpx.Response:
        binary = self.data_envelope(obj, iv=iv)
        return self.send_raw(
            path, self.body(binary, pad=pad), headers=self.headers(session_id), token=token
        )

    def call(
        self, path: str, obj: Any, *, token: str | None = None
    ) -> tuple[httpx.Response, dict[str, Any]]:
        """Send a type-2 body; the answer's envelope (decrypted when it is encrypted)."""
        resp = self.send(path, obj, token=token)
        return resp, self.answer(resp)

    def close(self, session_id: str | None = None) -> httpx.Response:
        return self.send(f"{SC}/session/close", {}, session_id=session_id)

    # receiving

    def decrypt(self, text: str) -> dict[str, Any]:
        binary = b64url_decode(text)
        assert binary[:2] == MAGIC, f"bad magic {binary[:2]!r}"
        assert binary[2] == 2, f"bad version {binary[2]}"
        assert binary[3] == TYPE_RESPONSE, f"bad type {binary[3]}"
        iv, sealed = binary[4:16], binary[16:]
        plaintext = AESGCM(self.response_key).decrypt(iv, sealed, None)
        env = json.loads(plaintext.decode("utf-8"))
        return check_envelope(env, "decrypted type-129 answer")

    def open_response(self, resp: httpx.Response) -> dict[str, Any]:
        """The decrypted envelope of a type-129 answer (asserts the answer is encrypted)."""
        outer = parse_json(resp)
        assert isinstance(outer, dict) and set(outer) == {"v", "p"}, (
            f"answer is not an encrypted body: HTTP {resp.status_code} {resp.text[:500]}"
        )
        assert outer["v"] == 2, outer
        assert isinstance(outer["p"], str), outer
        return self.decrypt(outer["p"])

    def answer(self, resp: httpx.Response) -> dict[str, Any]:
        """The envelope: decrypted when the body is {v, p}, else the plain one."""
        outer = parse_json(resp)
        if isinstance(outer, dict) and set(outer) == {"v", "p"}:
            return self.decrypt(outer["p"])
        return check_envelope(outer, f"plain answer {resp.request.url.path}")


def sc_error(
    resp: httpx.Response, status: int | None, code: str | Iterable[str] | None
) -> dict[str, Any]:
    """An error raised before decryption: a plain JSON envelope."""
    return error(resp, status, code)


def sc_result_error(
    sc: ScClient, resp: httpx.Response, status: int | None, code: str | Iterable[str] | None
) -> dict[str, Any]:
    """A business error of an encrypted operation (encrypted or plain answer accepted)."""
    assert "Traceback" not in resp.text, resp.text
    env = sc.answer(resp)
    return check_error_envelope(env, resp.status_code, status, code)
