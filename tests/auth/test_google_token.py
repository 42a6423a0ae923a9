"""The real Google ID token verification path, against certificates of a locally made RSA key.

The test serves the certificate over HTTP on loopback exactly as Google's
certs endpoint does (``{kid: PEM}`` with a ``Cache-Control`` max-age), so the
verifier's fetch, cache, signature, audience, issuer and expiry checks all run
for real.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import NameOID
from google.auth import crypt, jwt

from taiwan_poker.auth.google import GoogleTokenVerifier, TokenRejected, check_csrf

CLIENT_ID = "1234-test.apps.googleusercontent.com"


def make_key(kid: str) -> tuple[crypt.RSASigner, str]:
    """An RSA key, its signer and a self-signed certificate PEM."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, kid)])
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=1))
        .sign(key, hashes.SHA256())
    )
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    signer = crypt.RSASigner.from_string(pem, key_id=kid)
    return signer, cert.public_bytes(serialization.Encoding.PEM).decode()


@pytest.fixture(scope="module")
def keys() -> dict[str, Any]:
    good_signer, good_cert = make_key("kid-good")
    other_signer, _ = make_key("kid-good")  # same kid, different key: a forged signature
    unknown_signer, _ = make_key("kid-unknown")
    return {"good": good_signer, "forged": other_signer, "unknown": unknown_signer, "certs": {"kid-good": good_cert}}


@pytest.fixture(scope="module")
def certs_server(keys: dict[str, Any]) -> Iterator[dict[str, Any]]:
    hits = {"count": 0}
    body = json.dumps(keys["certs"]).encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            hits["count"] += 1
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Cache-Control", "public, max-age=3600")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield {"url": f"http://127.0.0.1:{server.server_address[1]}/oauth2/v1/certs", "hits": hits}
    server.shutdown()


def claims(**over: Any) -> dict[str, Any]:
    now = int(time.time())
    base = {
        "iss": "https://accounts.google.com",
        "aud": CLIENT_ID,
        "sub": "110169484474386276334",
        "email": "player@example.com",
        "name": "牌手 Player",
        "picture": "https://example.com/p.png",
        "iat": now,
        "exp": now + 3600,
    }
    base.update(over)
    return base


def sign(signer: crypt.RSASigner, payload: dict[str, Any]) -> str:
    token: bytes = jwt.encode(signer, payload)
    return token.decode()


@pytest.fixture
def verifier(certs_server: dict[str, Any]) -> GoogleTokenVerifier:
    return GoogleTokenVerifier(CLIENT_ID, certs_url=certs_server["url"])


def test_valid_token_is_accepted_and_gives_the_identity(verifier: GoogleTokenVerifier, keys: dict[str, Any]) -> None:
    identity = verifier.verify(sign(keys["good"], claims()))
    assert identity.sub == "110169484474386276334"
    assert identity.name == "牌手 Player"
    assert identity.email == "player@example.com"


def test_both_google_issuer_spellings_are_accepted(verifier: GoogleTokenVerifier, keys: dict[str, Any]) -> None:
    assert verifier.verify(sign(keys["good"], claims(iss="accounts.google.com"))).sub


def test_certificates_are_cached_as_cache_control_allows(
    certs_server: dict[str, Any], keys: dict[str, Any]
) -> None:
    fresh = GoogleTokenVerifier(CLIENT_ID, certs_url=certs_server["url"])
    before = certs_server["hits"]["count"]
    for _ in range(5):
        fresh.verify(sign(keys["good"], claims()))
    assert certs_server["hits"]["count"] - before == 1


@pytest.mark.parametrize(
    ("case", "payload"),
    [
        ("wrong audience", claims(aud="someone-else.apps.googleusercontent.com")),
        ("wrong issuer", claims(iss="https://evil.example.com")),
        ("expired", claims(iat=int(time.time()) - 7200, exp=int(time.time()) - 3600)),
        ("no subject", claims(sub="")),
    ],
)
def test_bad_claims_are_rejected(
    verifier: GoogleTokenVerifier, keys: dict[str, Any], case: str, payload: dict[str, Any]
) -> None:
    with pytest.raises(TokenRejected) as info:
        verifier.verify(sign(keys["good"], payload))
    assert info.value.code == "bad_token", case


def test_bad_signature_is_rejected(verifier: GoogleTokenVerifier, keys: dict[str, Any]) -> None:
    with pytest.raises(TokenRejected):
        verifier.verify(sign(keys["forged"], claims()))


def test_tampered_payload_is_rejected(verifier: GoogleTokenVerifier, keys: dict[str, Any]) -> None:
    header, _payload, signature = sign(keys["good"], claims()).split(".")
    evil = base64.urlsafe_b64encode(json.dumps(claims(sub="someone-else")).encode()).rstrip(b"=").decode()
    with pytest.raises(TokenRejected):
        verifier.verify(f"{header}.{evil}.{signature}")


def test_unknown_key_id_is_rejected(verifier: GoogleTokenVerifier, keys: dict[str, Any]) -> None:
    with pytest.raises(TokenRejected):
        verifier.verify(sign(keys["unknown"], claims()))


def test_alg_none_is_rejected(verifier: GoogleTokenVerifier) -> None:
    def b64(obj: dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(obj).encode()).rstrip(b"=").decode()

    token = f"{b64({'alg': 'none', 'typ': 'JWT', 'kid': 'kid-good'})}.{b64(claims())}."
    with pytest.raises(TokenRejected) as info:
        verifier.verify(token)
    assert "not accepted" in info.value.message


@pytest.mark.parametrize("token", ["", "abc", "a.b", "a.b.c.d", "!!!.###.$$$"])
def test_malformed_tokens_are_rejected(verifier: GoogleTokenVerifier, token: str) -> None:
    with pytest.raises(TokenRejected):
        verifier.verify(token)


def test_unreachable_certificate_endpoint_is_a_clear_error(keys: dict[str, Any]) -> None:
    dead = GoogleTokenVerifier(CLIENT_ID, certs_url="http://127.0.0.1:9/certs")
    with pytest.raises(TokenRejected) as info:
        dead.verify(sign(keys["good"], claims()))
    assert info.value.code in {"certs_unavailable", "bad_token"}


def test_an_empty_client_id_is_refused_so_the_audience_is_always_checked() -> None:
    with pytest.raises(ValueError):
        GoogleTokenVerifier("")


def test_csrf_double_submit() -> None:
    check_csrf("abc", "abc")
    for cookie, form in [(None, "abc"), ("abc", None), ("abc", "abd"), ("", "")]:
        with pytest.raises(TokenRejected) as info:
            check_csrf(cookie, form)
        assert info.value.code == "bad_csrf"


@pytest.mark.parametrize(
    ("case", "payload"),
    [
        ("expires in 2100", claims(exp=4_102_444_800)),
        ("issued in 2100", claims(iat=4_102_444_800, exp=4_102_448_400)),
        ("issued an hour ahead", claims(iat=int(time.time()) + 3600, exp=int(time.time()) + 7200)),
        ("lives two hours", claims(exp=int(time.time()) + 7200)),
        ("expires before it is issued", claims(exp=int(time.time()) - 1)),
        ("no iat", {k: v for k, v in claims().items() if k != "iat"}),
        # audit round 2: a correctly signed token whose exp is a string was a 500 (TypeError in google-auth)
        ("exp is a string", claims(exp=str(int(time.time()) + 3600))),
        ("iat is a string", claims(iat=str(int(time.time())))),
        ("exp is a list", claims(exp=[1])),
        ("exp is null", claims(exp=None)),
    ],
)
def test_finding9_times_no_google_token_has_are_rejected(
    verifier: GoogleTokenVerifier, keys: dict[str, Any], case: str, payload: dict[str, Any]
) -> None:
    """A good signature is not enough: iat/exp must be what Google issues (≤ 1 h, not in the future)."""
    with pytest.raises(TokenRejected) as info:
        verifier.verify(sign(keys["good"], payload))
    assert info.value.code == "bad_token", case


def test_finding9_clock_skew_allowance_is_small_and_applies_both_ways(
    verifier: GoogleTokenVerifier, keys: dict[str, Any]
) -> None:
    now = int(time.time())
    assert verifier.clock_skew_seconds == 10
    assert verifier.verify(sign(keys["good"], claims(iat=now + 5, exp=now + 5 + 3600))).sub, "5 s fast is fine"
    assert verifier.verify(sign(keys["good"], claims(iat=now - 3600, exp=now - 5))).sub, "5 s late is fine"
    with pytest.raises(TokenRejected):
        verifier.verify(sign(keys["good"], claims(iat=now + 60, exp=now + 60 + 3600)))
    with pytest.raises(TokenRejected):
        verifier.verify(sign(keys["good"], claims(iat=now - 3660, exp=now - 60)))


@pytest.fixture
def silent_endpoint() -> Iterator[str]:
    """A certificate endpoint that accepts connections and never answers."""
    import socket

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(256)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}/oauth2/v1/certs"
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    listener.close()


def test_finding3_a_silent_certificate_endpoint_fails_fast_and_once(
    silent_endpoint: str, keys: dict[str, Any]
) -> None:
    """The fetch gives up after the short read timeout, and the sign-ins queued behind it fail at once."""
    slow = GoogleTokenVerifier(CLIENT_ID, certs_url=silent_endpoint, timeout=(1.0, 1.0))
    token = sign(keys["good"], claims())
    started = time.monotonic()
    results: list[str] = []

    def attempt() -> None:
        try:
            slow.verify(token)
        except TokenRejected as exc:
            results.append(exc.code)

    threads = [threading.Thread(target=attempt) for _ in range(20)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    took = time.monotonic() - started
    assert results == ["certs_unavailable"] * 20
    assert took < 5, f"20 sign-ins against a silent endpoint took {took:.1f} s"


@pytest.fixture
def trickling_endpoint() -> Iterator[dict[str, Any]]:
    """A certificate endpoint that sends its headers at once, then one body byte every 0.5 s (never stalls
    long enough for a timeout between bytes)."""
    import socket

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    stop = threading.Event()
    served = {"connections": 0}

    def trickle(conn: socket.socket) -> None:
        with conn:
            conn.recv(4096)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n")
            for _ in range(400):
                if stop.wait(0.5):
                    return
                try:
                    conn.sendall(b" ")
                except OSError:
                    return

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                conn = listener.accept()[0]
            except OSError:
                continue
            served["connections"] += 1
            threading.Thread(target=trickle, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield {"url": f"http://127.0.0.1:{listener.getsockname()[1]}/oauth2/v1/certs", "served": served}
    stop.set()
    thread.join()
    listener.close()


def test_round2_a_trickling_certificate_endpoint_holds_no_sign_in_past_the_deadline(
    trickling_endpoint: dict[str, Any], keys: dict[str, Any]
) -> None:
    """Audit round 2: headers, then a byte every 2 s held every sign-in for over 200 s (the read timeout is
    between bytes). The whole fetch now has a deadline; the sign-ins get certs_unavailable within it, and
    those that come later reuse the one fetch still hanging instead of opening more."""
    deadline = 1.5
    slow = GoogleTokenVerifier(CLIENT_ID, certs_url=trickling_endpoint["url"], timeout=(1.0, 1.0), deadline=deadline)
    token = sign(keys["good"], claims())
    results: list[tuple[str, float]] = []

    def attempt() -> None:
        started = time.monotonic()
        try:
            slow.verify(token)
            results.append(("accepted", time.monotonic() - started))
        except TokenRejected as exc:
            results.append((exc.code, time.monotonic() - started))

    threads = [threading.Thread(target=attempt) for _ in range(10)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=30)
    assert [code for code, _ in results] == ["certs_unavailable"] * 10
    longest = max(took for _, took in results)
    assert longest < deadline + 1.0, f"a sign-in was held {longest:.1f} s by a trickling endpoint"
    # after the retry pause the next sign-in joins the fetch still hanging: no second connection
    slow._down_until = 0.0
    started = time.monotonic()
    with pytest.raises(TokenRejected) as info:
        slow.verify(token)
    assert info.value.code == "certs_unavailable"
    assert time.monotonic() - started < deadline + 1.0
    assert trickling_endpoint["served"]["connections"] == 1
