"""HMAC_DRBG with SHA-256 (NIST SP 800-90A Rev. 1, section 10.1.2), without reseeding or additional input.

The deterministic generator the shuffle draws from: given the same entropy input, nonce and personalization
string it returns the same bytes on every machine, and a browser can run it with WebCrypto (see
``docs/fairness.md``). Checked against NIST's CAVP vectors in ``tests/fairness``.
"""

from __future__ import annotations

import hmac

_HASH = "sha256"
OUT_LEN = 32  # SHA-256's output, in bytes


def _h(key: bytes, data: bytes) -> bytes:
    return hmac.digest(key, data, _HASH)


class HmacDrbg:
    """HMAC_DRBG(SHA-256): instantiate with ``entropy``, ``nonce`` and ``personalization``; :meth:`generate`."""

    __slots__ = ("_k", "_v")

    def __init__(self, entropy: bytes, nonce: bytes = b"", personalization: bytes = b"") -> None:
        self._k = b"\x00" * OUT_LEN
        self._v = b"\x01" * OUT_LEN
        self._update(entropy + nonce + personalization)

    def _update(self, provided: bytes) -> None:
        k = _h(self._k, self._v + b"\x00" + provided)
        v = _h(k, self._v)
        if provided:
            k = _h(k, v + b"\x01" + provided)
            v = _h(k, v)
        self._k, self._v = k, v

    def generate(self, n: int) -> bytes:
        """The next ``n`` bytes (one generate call: the state is updated once, after them)."""
        k, v = self._k, self._v
        out = bytearray()
        while len(out) < n:
            v = _h(k, v)
            out += v
        self._v = v
        self._update(b"")
        return bytes(out[:n])
